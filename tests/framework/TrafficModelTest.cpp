// The traffic model against a direct count: every halo cell of every rank is looked up
// in the owner's block, cell by cell, and the messages are the distinct (sender, receiver,
// side) triples that deliver them. Nothing here uses halo_messages().
#include "mapping/PlanSearch.hpp"
#include "mapping/UnitLoads.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <tuple>

using hcart::Machine;
using hcart::Mesh;

namespace {

struct Direct {
  std::vector<std::int64_t> bytes, messages, max_rank_messages;
  std::int64_t max_rank = 0;
};

Direct direct_count(const hcart::Plan& plan, const Machine& machine, const Mesh& mesh,
                    int elem_bytes, bool corners) {
  const std::int64_t P = machine.ranks();
  const int depth = machine.level_count();
  // Owner of a global cell: search the blocks (no formula shared with the library).
  std::vector<std::vector<std::int64_t>> first(3);
  for (int i = 0; i < 3; ++i) {
    std::int64_t start = 0;
    for (std::int64_t c = 0; c < plan.dims[i]; ++c) {
      first[i].push_back(start);
      start += mesh.global_size[i] / plan.dims[i] + (c < mesh.global_size[i] % plan.dims[i]);
    }
    first[i].push_back(start);
  }
  std::vector<std::int64_t> world_of_cart(P);
  for (std::int64_t r = 0; r < P; ++r)
    world_of_cart[plan.cart_rank_of(r, machine)] = r;
  Direct out;
  out.bytes.assign(depth + 1, 0);
  out.messages.assign(depth + 1, 0);
  out.max_rank_messages.assign(depth + 1, 0);
  std::map<std::pair<std::int64_t, int>, std::int64_t> rank_messages; // (sender, level)
  std::map<std::tuple<std::int64_t, std::int64_t, int>, std::int64_t> message_bytes;
  std::vector<std::int64_t> sent(P, 0);
  for (std::int64_t q = 0; q < P; ++q) {
    const auto c = hcart::row_major_coords(q, plan.dims);
    std::int64_t lo[3], hi[3];
    for (int i = 0; i < 3; ++i) {
      lo[i] = first[i][c[i]];
      hi[i] = first[i][c[i] + 1];
    }
    for (std::int64_t x = lo[0] - mesh.halo_width[0]; x < hi[0] + mesh.halo_width[0]; ++x)
      for (std::int64_t y = lo[1] - mesh.halo_width[1]; y < hi[1] + mesh.halo_width[1]; ++y)
        for (std::int64_t z = lo[2] - mesh.halo_width[2]; z < hi[2] + mesh.halo_width[2]; ++z) {
          const std::int64_t g[3] = {x, y, z};
          int outside = 0, side = 0;
          bool valid = true;
          std::int64_t owner_coords[3];
          for (int i = 0; i < 3; ++i) {
            const int s = g[i] < lo[i] ? 0 : (g[i] >= hi[i] ? 2 : 1);
            side = side * 3 + s;
            outside += s != 1;
            std::int64_t gi = g[i];
            if (gi < 0 || gi >= mesh.global_size[i]) {
              if (!mesh.periodic[i]) valid = false;
              gi = (gi + mesh.global_size[i]) % mesh.global_size[i];
            }
            std::int64_t k = 0;
            while (first[i][k + 1] <= gi)
              ++k;
            owner_coords[i] = k;
          }
          if (!valid || outside == 0 || (!corners && outside > 1)) continue;
          const std::int64_t owner =
              hcart::row_major_rank({owner_coords[0], owner_coords[1], owner_coords[2]}, plan.dims);
          message_bytes[{owner, q, side}] += elem_bytes; // the owner sends it to q
        }
  }
  for (const auto& [key, bytes] : message_bytes) {
    const auto [from, to, side] = key;
    (void)side;
    const auto uf = machine.unit_indices(world_of_cart[from]);
    const auto ut = machine.unit_indices(world_of_cart[to]);
    const int level = hcart::separating_level(uf, ut);
    out.bytes[level] += bytes;
    out.messages[level] += 1;
    std::int64_t& n = rank_messages[{from, level}];
    n += 1;
    out.max_rank_messages[level] = std::max(out.max_rank_messages[level], n);
    if (level < depth) sent[from] += bytes;
  }
  for (auto s : sent)
    out.max_rank = std::max(out.max_rank, s);
  return out;
}

} // namespace

TEST(TrafficModel, MatchesADirectCountOfHaloCells) {
  std::mt19937_64 rng(11);
  const std::vector<std::string> machines = {"node:2 core:3", "node:3 socket:2 core:2",
                                             "core:4",        "node:2 socket:2 core:2",
                                             "core:1",        "node:5"};
  int cases = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Machine machine =
        Machine::parse(machines[trial % machines.size()],
                       trial % 2 ? hcart::Placement::RoundRobin : hcart::Placement::Block);
    Mesh mesh{
        {static_cast<std::int64_t>(1 + rng() % 12), static_cast<std::int64_t>(1 + rng() % 12),
         static_cast<std::int64_t>(1 + rng() % 12)},
        {static_cast<int>(rng() % 3), static_cast<int>(rng() % 3), static_cast<int>(rng() % 2)},
        {rng() % 2 == 0, rng() % 2 == 0, rng() % 2 == 0},
        {}};
    hcart::PlanOptions options;
    options.strategy = trial % 3 == 0 ? hcart::Strategy::Weighted : hcart::Strategy::Hierarchical;
    hcart::Plan plan;
    try {
      plan = hcart::make_plan(mesh, machine, options);
    } catch (const hcart::InputError&) {
      continue; // mesh too small for this machine
    }
    for (bool corners : {false, true}) {
      const int elem = corners ? 4 : 8;
      const auto model = hcart::traffic_model(plan, machine, mesh, {elem, corners});
      const auto direct = direct_count(plan, machine, mesh, elem, corners);
      for (int l = 0; l <= machine.level_count(); ++l) {
        ASSERT_EQ(model.levels[l].bytes, direct.bytes[l])
            << "trial " << trial << " level " << l << " corners " << corners;
        ASSERT_EQ(model.levels[l].messages, direct.messages[l]) << "trial " << trial;
        ASSERT_EQ(model.levels[l].max_rank_messages, direct.max_rank_messages[l])
            << "trial " << trial << " level " << l;
      }
      ASSERT_EQ(model.max_rank_halo_bytes, direct.max_rank) << "trial " << trial;
      ++cases;
    }
  }
  EXPECT_GT(cases, 150);
}

TEST(TrafficModel, HandComputedTwoRankExample) {
  // 8x4x4 cells, halo 1, two ranks split in x, non-periodic: one face each way of 4*4 cells.
  const Machine machine = Machine::parse("node:2");
  const Mesh mesh{{8, 4, 4}, {1, 1, 1}, {false, false, false}, {}};
  const hcart::Plan plan = hcart::plan_from_dims(hcart::Strategy::Mpi, {2, 1, 1}, machine);
  const auto t = hcart::traffic_model(plan, machine, mesh, {8, false});
  EXPECT_EQ(t.levels[0].bytes, 2 * 16 * 8);
  EXPECT_EQ(t.levels[0].messages, 2);
  EXPECT_EQ(t.levels[0].max_unit_bytes, 16 * 8);
  EXPECT_EQ(t.levels[1].bytes, 0); // self
  EXPECT_EQ(t.max_rank_halo_bytes, 16 * 8);
  // Periodic in y with d_y = 1: each rank copies its own two y faces (4*4 cells each).
  const Mesh periodic{{8, 4, 4}, {1, 1, 1}, {false, true, false}, {}};
  const auto p = hcart::traffic_model(plan, machine, periodic, {8, false});
  EXPECT_EQ(p.levels[1].name, "self");
  EXPECT_EQ(p.levels[1].bytes, 2 * 2 * 4 * 4 * 8);
  EXPECT_EQ(p.levels[1].messages, 4);
}

namespace {
// Every chain of level factors (coarse first) of `machine` for a grid of `d_count`
// directions.
void level_chains(const Machine& machine, std::size_t level, std::vector<std::int64_t> caps,
                  std::vector<std::vector<std::int64_t>>& chain,
                  std::vector<std::vector<std::vector<std::int64_t>>>& out) {
  if (level == machine.levels().size()) {
    out.push_back(chain);
    return;
  }
  for (const auto& f : hcart::impl::ordered_factorizations(machine.levels()[level].size, caps)) {
    chain.push_back(f);
    level_chains(machine, level + 1, caps, chain, out);
    chain.pop_back();
  }
}
// The closed forms' 6 mesh variants: 48x36x60, periodic or not, a halo width of 0 in y
// (variant 3), faces alone or with edges and corners.
Mesh variant_mesh(int variant) {
  return Mesh{{48, 36, 60},
              {1, variant == 3 ? 0 : 1, 2},
              {variant % 2 == 1, variant >= 2, variant == 5},
              {}};
}
hcart::TrafficOptions variant_options(int variant) {
  hcart::TrafficOptions options;
  options.corners = variant >= 4 || variant == 1;
  return options;
}
} // namespace

// The closed form of the most messages a rank of a level grid sends across each level
// (what the time model's latency term reads) against the traffic model's rank-by-rank
// count: every level grid of 10 machines, on meshes periodic or not, with a halo width of 0
// in a direction, faces alone and with edges and corners; and each level of a chain's
// prefixes (what the search by time asks, level by level) the same as the whole chain's.
TEST(TrafficModel, LevelGridMessagesInClosedFormMatchTheCount) {
  int compared = 0;
  for (const char* text :
       {"node:4 core:2", "node:3 core:4", "node:2 socket:2 core:3", "node:4 socket:2 core:2",
        "node:6 core:2", "node:2 core:8", "node:8 socket:1 core:3", "node:3 socket:2 core:6",
        "node:12 core:3", "node:5 core:6"}) {
    const Machine machine = Machine::parse(text);
    for (int variant = 0; variant < 6; ++variant) {
      const Mesh mesh = variant_mesh(variant);
      const hcart::TrafficOptions options = variant_options(variant);
      std::vector<std::vector<std::vector<std::int64_t>>> chains;
      std::vector<std::vector<std::int64_t>> chain;
      level_chains(machine, 0, {48, 36, 60}, chain, chains);
      const hcart::impl::LoadProblem problem = hcart::impl::load_problem(mesh, {}, options);
      for (const auto& c : chains) {
        hcart::Plan plan;
        plan.dims = {1, 1, 1};
        for (const auto& f : c)
          for (int i = 0; i < 3; ++i)
            plan.dims[i] *= f[i];
        plan.layout = hcart::PlanLayout::LevelGrid;
        plan.level_factors = c;
        const hcart::Traffic t = hcart::traffic_model(plan, machine, mesh, options);
        const std::vector<std::int64_t> closed =
            hcart::impl::level_grid_messages(problem, plan.dims, c);
        ASSERT_EQ(closed.size(), machine.levels().size());
        for (std::size_t l = 0; l < closed.size(); ++l) {
          EXPECT_EQ(closed[l], t.levels[l].max_rank_messages)
              << text << " variant " << variant << " dims " << plan.dims[0] << "x" << plan.dims[1]
              << "x" << plan.dims[2] << " level " << l;
        }
        // The search calls it level by level: entry l of a prefix is entry l of the chain.
        for (std::size_t p = 1; p < c.size(); ++p) {
          const std::vector<std::vector<std::int64_t>> prefix(c.begin(), c.begin() + p);
          const auto partial = hcart::impl::level_grid_messages(problem, plan.dims, prefix);
          ASSERT_EQ(partial.size(), p);
          for (std::size_t l = 0; l < p; ++l)
            EXPECT_EQ(partial[l], closed[l]) << text << " prefix " << p << " level " << l;
        }
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 1000);
}

// The closed form of the most messages a rank of node regions sends across each level (what
// the search by time reads for node regions) against the traffic model's count: the plans of
// every process grid (the grid fixed, node regions wherever the objective takes them) on
// machines of 3 to 8 nodes, meshes periodic or not, with a halo width of 0 in a direction,
// faces alone and with edges and corners; equal where every box holds one node's level
// grid, and at most the count on an uneven machine (boxes of runs are left out).
TEST(TrafficModel, NodeRegionMessagesInClosedFormMatchTheCount) {
  int exact = 0, bounded = 0;
  for (const char* text :
       {"node:3 core:4", "node:5 core:4", "node:6 socket:2 core:2", "node:7 core:2",
        "node:3 socket:2 core:3", "node:[3,3,2] core:4", "node:8 core:3"}) {
    const Machine machine = Machine::parse(text);
    const int L = static_cast<int>(machine.levels().size());
    for (int variant = 0; variant < 6; ++variant) {
      const Mesh mesh = variant_mesh(variant);
      const hcart::TrafficOptions options = variant_options(variant);
      const hcart::impl::LoadProblem problem = hcart::impl::load_problem(mesh, {}, options);
      const std::int64_t ranks = machine.ranks();
      for (std::int64_t a = 1; a <= ranks; ++a) {
        for (std::int64_t b = 1; a * b <= ranks; ++b) {
          if (ranks % (a * b) != 0) continue;
          hcart::PlanOptions o;
          o.traffic = options;
          o.dims = {a, b, ranks / (a * b)};
          hcart::Plan plan;
          try {
            plan = hcart::make_plan(mesh, machine, o);
          } catch (const hcart::InputError&) {
            continue; // more pieces than a direction's cells allow
          }
          if (plan.layout != hcart::PlanLayout::NodeRegions) continue;
          const hcart::Traffic t = hcart::traffic_model(plan, machine, mesh, options);
          const hcart::impl::RegionMessages closed =
              hcart::impl::node_region_messages(problem, plan.dims, plan.node_regions, L);
          ASSERT_EQ(closed.most.size(), static_cast<std::size_t>(L));
          for (int l = 0; l < L; ++l) {
            if (closed.exact) {
              EXPECT_EQ(closed.most[l], t.levels[l].max_rank_messages)
                  << text << " variant " << variant << " " << plan.describe_layout() << " level "
                  << l;
            } else {
              EXPECT_LE(closed.most[l], t.levels[l].max_rank_messages)
                  << text << " variant " << variant << " " << plan.describe_layout() << " level "
                  << l;
            }
          }
          ++(closed.exact ? exact : bounded);
        }
      }
    }
  }
  EXPECT_GT(exact, 100);
  EXPECT_GT(bounded, 5);
}
