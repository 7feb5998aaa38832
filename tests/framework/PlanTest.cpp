#include "BruteForce.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <set>

using hcart::Machine;
using hcart::Mesh;
using hcart::Placement;
using hcart::Plan;
using hcart::PlanOptions;
using hcart::Strategy;
using hcart::test::Factors;

namespace {
Mesh mesh3(std::int64_t a, std::int64_t b, std::int64_t c, int h = 1) {
  return Mesh{{a, b, c}, {h, h, h}, {false, false, false}, {}};
}
} // namespace

PlanOptions levelwise() {
  PlanOptions o;
  o.strategy = Strategy::Levelwise;
  return o;
}

// The seed paper's rule, under the name levelwise: the worked example of docs/algorithms.md.
TEST(Plan, LevelwiseWorkedExampleFromTheDesign) {
  const Machine machine = Machine::parse("node:8 socket:2 core:16");
  const Plan plan = hcart::make_plan(mesh3(2048, 1024, 512), machine, levelwise());
  EXPECT_EQ(plan.level_factors, (std::vector<Factors>{{4, 2, 1}, {2, 1, 1}, {2, 4, 2}}));
  EXPECT_EQ(plan.dims, (Factors{16, 8, 2}));
  EXPECT_EQ(plan.layout, hcart::PlanLayout::LevelGrid);
}

TEST(Plan, LevelwiseOnOneLevelIsAPlainFactorization) {
  const Plan plan = hcart::make_plan(mesh3(1000, 1000, 1000), Machine::flat(360), levelwise());
  EXPECT_EQ(plan.dims, hcart::factorize(360, {1, 1, 1}));
}

// Levelwise: each level's factors are the brute-force optimum for that level's accumulated
// weights, among the factorizations that leave the finer levels feasible.
TEST(Plan, LevelwiseEachLevelIsOptimalForItsAccumulatedWeights) {
  std::mt19937_64 rng(5);
  const std::vector<std::string> machines = {
      "node:4 socket:2 core:6", "node:6 core:4",          "node:2 socket:3 l3:2 core:2", "node:12",
      "node:5 core:8",          "node:16 socket:2 core:2"};
  for (int trial = 0; trial < 60; ++trial) {
    const Machine machine = Machine::parse(machines[trial % machines.size()]);
    Mesh mesh = mesh3(8 + rng() % 400, 8 + rng() % 400, 8 + rng() % 400);
    mesh.cost_factor = {1.0 + rng() % 3, 1.0, 1.0 + rng() % 2};
    const Plan plan = hcart::make_plan(mesh, machine, levelwise());
    const auto w = hcart::communication_weights(mesh);
    Factors cumulative(3, 1);
    for (std::size_t l = 0; l < plan.level_factors.size(); ++l) {
      std::vector<double> wl(3);
      for (int i = 0; i < 3; ++i)
        wl[i] = w[i] * static_cast<double>(cumulative[i]);
      const auto best = hcart::test::brute_force_factorize(machine.levels()[l].size, wl, {}, {});
      ASSERT_TRUE(best.has_value());
      // The meshes here are large enough that bounds never bind: exact optimum.
      EXPECT_EQ(plan.level_factors[l], *best) << machine.to_string() << " level " << l;
      for (int i = 0; i < 3; ++i)
        cumulative[i] *= plan.level_factors[l][i];
    }
    EXPECT_EQ(cumulative, plan.dims);
  }
}

TEST(Plan, FixedDimsAreHonouredAcrossLevels) {
  const Machine machine = Machine::parse("node:4 socket:2 core:4");
  PlanOptions options;
  options.dims = {0, 8, 0};
  const Plan partial = hcart::make_plan(mesh3(256, 256, 256), machine, options);
  EXPECT_EQ(partial.dims[1], 8);
  EXPECT_EQ(partial.dims[0] * partial.dims[1] * partial.dims[2], 32);
  options.strategy = Strategy::Manual;
  options.dims = {2, 4, 4};
  const Plan manual = hcart::make_plan(mesh3(256, 256, 256), machine, options);
  EXPECT_EQ(manual.dims, (Factors{2, 4, 4}));
  EXPECT_TRUE(manual.hierarchical_placement());
  // Per level, the fixed directions still get the lightest cut first: the node level
  // (4 nodes) on a mesh long in x goes to x.
  options.dims = {8, 2, 2};
  const Plan elongated = hcart::make_plan(mesh3(4096, 256, 256), machine, options);
  EXPECT_EQ(elongated.level_factors[0], (Factors{4, 1, 1}));
  options.dims = {0, 0, 0};
  EXPECT_THROW(hcart::make_plan(mesh3(64, 64, 64), machine, options), hcart::InputError);
  options.strategy = Strategy::Hierarchical;
  options.dims = {3, 0, 0};
  EXPECT_THROW(hcart::make_plan(mesh3(64, 64, 64), machine, options), hcart::InputError);
}

TEST(Plan, BindingBoundsAreRespectedAtEveryLevel) {
  // 4 cells in x and y, halo 1: at most 4 pieces there; 64 cells in z.
  const Machine machine = Machine::parse("node:4 socket:2 core:8");
  const Plan plan = hcart::make_plan(Mesh{{4, 4, 64}, {1, 1, 1}, {}, {}}, machine, {});
  EXPECT_LE(plan.dims[0], 4);
  EXPECT_LE(plan.dims[1], 4);
  EXPECT_EQ(plan.dims[0] * plan.dims[1] * plan.dims[2], 64);
  // Halo 2 on 6 cells: 3 pieces at most.
  const Plan wide =
      hcart::make_plan(Mesh{{6, 64, 1}, {2, 1, 0}, {}, {}}, Machine::parse("node:3 core:4"), {});
  EXPECT_LE(wide.dims[0], 3);
  EXPECT_EQ(wide.dims[2], 1);
}

TEST(Plan, ErrorsForMeshesTooSmallAndBadInput) {
  EXPECT_THROW(hcart::make_plan(mesh3(2, 2, 2), Machine::flat(16), {}), hcart::InputError);
  try {
    hcart::make_plan(mesh3(2, 2, 2), Machine::flat(16), {});
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fewer than the 16 ranks"), std::string::npos) << e.what();
  }
  // 7 ranks cannot be split into dims that fit 4x4x4 with halo 1 (7 > 4).
  EXPECT_THROW(hcart::make_plan(mesh3(4, 4, 4), Machine::flat(7), {}), hcart::InputError);
  EXPECT_THROW(hcart::make_plan(Mesh{{0, 4, 4}, {1, 1, 1}, {}, {}}, Machine::flat(1), {}),
               hcart::InputError);
  EXPECT_THROW(hcart::make_plan(Mesh{{4, 4, 4}, {1, -1, 1}, {}, {}}, Machine::flat(1), {}),
               hcart::InputError);
  PlanOptions mpi;
  mpi.strategy = Strategy::Mpi;
  EXPECT_THROW(hcart::make_plan(mesh3(8, 8, 8), Machine::flat(2), mpi), hcart::InputError);
  EXPECT_THROW(hcart::plan_from_dims(Strategy::Mpi, {2, 2}, Machine::flat(8)), hcart::InputError);
}

// A direction with fewer cells than its halo can still be one piece where it is not
// periodic (no neighbour needs its cells), and not where it wraps.
TEST(Plan, ADirectionThinnerThanItsHaloIsOnePieceUnlessPeriodic) {
  const Mesh thin{{1, 24, 12}, {2, 2, 2}, {false, false, false}, {}};
  EXPECT_EQ(hcart::cut_bounds(thin), (Factors{1, 12, 6}));
  EXPECT_EQ(hcart::make_plan(thin, Machine::flat(1), {}).dims, (Factors{1, 1, 1}));
  EXPECT_EQ(hcart::make_plan(thin, Machine::flat(4), {}).dims[0], 1);
  Mesh wrapped = thin;
  wrapped.periodic = {true, false, false};
  EXPECT_EQ(hcart::cut_bounds(wrapped)[0], 0);
  EXPECT_THROW(hcart::make_plan(wrapped, Machine::flat(1), {}), hcart::InputError);
}

namespace {
// "node:[6,6,5,3] socket:2 core:3" launched in a shuffled order (a table of every rank).
Machine shuffled_uneven() {
  const Machine rule = Machine::parse("node:[6,6,5,3] socket:2 core:3");
  std::vector<int> rows, world_node;
  for (std::int64_t r = 0; r < rule.ranks(); ++r) {
    const auto u = rule.unit_indices(r);
    rows.insert(rows.end(), u.begin(), u.end());
  }
  std::vector<std::int64_t> order(rule.ranks());
  for (std::size_t k = 0; k < order.size(); ++k)
    order[k] = static_cast<std::int64_t>(k);
  std::mt19937 random(3);
  std::shuffle(order.begin(), order.end(), random);
  std::vector<int> shuffled;
  for (std::int64_t r : order)
    shuffled.insert(shuffled.end(), rows.begin() + 3 * r, rows.begin() + 3 * r + 3);
  return Machine(rule.levels(), shuffled, "shuffled");
}
} // namespace

// Every plan places each world rank at a distinct coordinate, and the layout's inverse
// (world_rank_at, what Decomposition::original_rank uses instead of a table) and the block
// form (coords_of_block) agree with it: even and uneven machines, every numbering, node
// regions, level grids, row-major runs and world order.
TEST(Plan, PlacementIsABijectionForEveryNumbering) {
  std::vector<Machine> machines;
  for (const char* text : {"node:4 socket:2 core:6", "node:3 core:5", "node:2 socket:2 l3:2 core:3",
                           "node:[4,4,2] socket:2 core:2", "node:[6,3,6,1] core:6"}) {
    for (Placement placement : {Placement::Block, Placement::RoundRobin})
      machines.push_back(Machine::parse(text, placement));
  }
  machines.push_back(shuffled_uneven());
  for (const Machine& machine : machines) {
    for (Strategy s :
         {Strategy::Weighted, Strategy::Hierarchical, Strategy::Levelwise, Strategy::Manual}) {
      PlanOptions options;
      options.strategy = s;
      if (s == Strategy::Manual) options.dims = {1, 1, machine.ranks()};
      const Plan plan = hcart::make_plan(mesh3(120, 240, 480), machine, options);
      std::set<std::int64_t> seen;
      for (std::int64_t r = 0; r < machine.ranks(); ++r) {
        const auto c = plan.coords_of(r, machine);
        for (std::size_t i = 0; i < c.size(); ++i) {
          ASSERT_GE(c[i], 0);
          ASSERT_LT(c[i], plan.dims[i]);
        }
        const std::int64_t q = hcart::row_major_rank(c, plan.dims);
        seen.insert(q);
        ASSERT_EQ(plan.coords_of_block(machine.block_number(r), machine), c)
            << machine.to_string() << " " << plan.describe_layout() << " rank " << r;
        ASSERT_EQ(plan.world_rank_at(q, machine), r)
            << machine.to_string() << " " << plan.describe_layout() << " rank " << r;
      }
      EXPECT_EQ(static_cast<std::int64_t>(seen.size()), machine.ranks()) << machine.to_string();
    }
  }
}

TEST(Plan, HierarchicalTrafficIsTheSameForBlockAndRoundRobin) {
  const Mesh mesh{{512, 256, 64}, {1, 2, 1}, {true, false, true}, {}};
  for (const char* text : {"node:4 socket:2 core:4", "node:3 core:4", "node:2 socket:2 core:2"}) {
    const Machine block = Machine::parse(text, Placement::Block);
    const Machine rr = Machine::parse(text, Placement::RoundRobin);
    const Plan plan_block = hcart::make_plan(mesh, block, {});
    const Plan plan_rr = hcart::make_plan(mesh, rr, {});
    for (bool corners : {false, true}) {
      const auto a = hcart::traffic_model(plan_block, block, mesh, {8, corners});
      const auto b = hcart::traffic_model(plan_rr, rr, mesh, {8, corners});
      ASSERT_EQ(a.levels.size(), b.levels.size());
      for (std::size_t l = 0; l < a.levels.size(); ++l) {
        EXPECT_EQ(a.levels[l].bytes, b.levels[l].bytes) << text << " level " << l;
        EXPECT_EQ(a.levels[l].messages, b.levels[l].messages);
        EXPECT_EQ(a.levels[l].max_unit_bytes, b.levels[l].max_unit_bytes);
      }
    }
    // World order (weighted) is hurt by round-robin numbering: more bytes cross nodes.
    PlanOptions weighted;
    weighted.strategy = Strategy::Weighted;
    const auto wb = hcart::traffic_model(hcart::make_plan(mesh, block, weighted), block, mesh);
    const auto wr = hcart::traffic_model(hcart::make_plan(mesh, rr, weighted), rr, mesh);
    EXPECT_GT(wr.levels[0].bytes, wb.levels[0].bytes) << text;
  }
}

// Equal blocks (PlanOptions::equal_blocks): only process grids whose dims divide the mesh.
// Against brute force over every grid of the ranks: a plan exists exactly where such a grid
// does within the cut bounds (else an error naming the mesh); its dims divide the mesh; the
// weighted strategy reaches the least weighted sum among them, and the default's objective
// is at or below every dividing grid's in world order (its cost counted by the traffic
// model).
TEST(Plan, EqualBlocksOnlyGridsThatDivideTheMesh) {
  const std::vector<Mesh> meshes = {Mesh{{250, 250, 1}, {1, 1, 0}, {false, false, false}, {}},
                                    Mesh{{96, 60, 35}, {1, 1, 1}, {false, true, false}, {}},
                                    Mesh{{64, 48, 20}, {2, 1, 1}, {true, false, false}, {}},
                                    Mesh{{49, 121, 9}, {1, 1, 1}, {false, false, false}, {}}};
  const std::vector<const char*> machines = {
      "node:4",        "node:2 core:2",          "node:2 core:3",       "rank:7",
      "node:3 core:2", "node:2 socket:2 core:2", "node:[3,3,2] core:3", "node:3 core:3"};
  int feasible = 0, refused = 0;
  for (const Mesh& mesh : meshes) {
    const std::vector<std::int64_t> bounds = hcart::cut_bounds(mesh);
    const std::vector<double> w = hcart::communication_weights(mesh);
    for (const char* text : machines) {
      const Machine m = Machine::parse(text);
      const std::int64_t n = m.ranks();
      std::vector<std::vector<std::int64_t>> dividing;
      for (std::int64_t a = 1; a <= n; ++a) {
        for (std::int64_t b = 1; a * b <= n; ++b) {
          if (n % (a * b) != 0) continue;
          const std::vector<std::int64_t> g{a, b, n / (a * b)};
          bool ok = true;
          for (int i = 0; i < 3; ++i)
            ok = ok && g[i] <= bounds[i] && mesh.global_size[i] % g[i] == 0;
          if (ok) dividing.push_back(g);
        }
      }
      const std::string what = std::string(text) + " on " + std::to_string(mesh.global_size[0]) +
                               "x" + std::to_string(mesh.global_size[1]) + "x" +
                               std::to_string(mesh.global_size[2]);
      for (Strategy s : {Strategy::Weighted, Strategy::Levelwise, Strategy::Hierarchical}) {
        PlanOptions o;
        o.strategy = s;
        o.equal_blocks = true;
        if (dividing.empty()) {
          try {
            hcart::make_plan(mesh, m, o);
            ADD_FAILURE() << what << ": a plan without a dividing grid";
          } catch (const hcart::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("equal blocks: no process grid of " +
                                                 std::to_string(n) + " ranks divides the mesh"),
                      std::string::npos)
                << e.what();
          }
          ++refused;
          continue;
        }
        if (s == Strategy::Levelwise && !m.even()) continue; // one level: the weighted rule
        const Plan plan = hcart::make_plan(mesh, m, o);
        ASSERT_NE(std::find(dividing.begin(), dividing.end(), plan.dims), dividing.end())
            << what << ", " << hcart::to_string(s) << ": dims " << plan.dims[0] << "x"
            << plan.dims[1] << "x" << plan.dims[2];
        if (s == Strategy::Weighted) {
          double least = std::numeric_limits<double>::infinity();
          for (const auto& g : dividing)
            least = std::min(least, w[0] * g[0] + w[1] * g[1] + w[2] * g[2]);
          EXPECT_DOUBLE_EQ(w[0] * plan.dims[0] + w[1] * plan.dims[1] + w[2] * plan.dims[2], least)
              << what;
        }
        if (s == Strategy::Hierarchical) {
          const auto cost_of = [&](const Plan& p) {
            return hcart::plan_cost(hcart::traffic_model(p, m, mesh, o.traffic));
          };
          EXPECT_EQ(hcart::compare(cost_of(plan), plan.cost), 0) << what;
          for (const auto& g : dividing) {
            const Plan world = hcart::plan_from_dims(Strategy::Weighted, g, m);
            EXPECT_LE(hcart::compare(plan.cost, cost_of(world)), 0)
                << what << ": world order on " << g[0] << "x" << g[1] << "x" << g[2] << " beats "
                << hcart::to_string(plan.cost);
          }
        }
        ++feasible;
      }
    }
  }
  EXPECT_GT(feasible, 40);
  EXPECT_GT(refused, 3);
  // 250x250 on 20 ranks: 5x4 by default (250 / 4 is not whole), 10x2 with equal blocks.
  const Mesh code{{250, 250, 1}, {1, 1, 0}, {false, false, false}, {}};
  const Machine twenty = Machine::parse("node:20");
  EXPECT_EQ(hcart::make_plan(code, twenty, {}).dims, (std::vector<std::int64_t>{5, 4, 1}));
  PlanOptions equal;
  equal.equal_blocks = true;
  EXPECT_EQ(hcart::make_plan(code, twenty, equal).dims, (std::vector<std::int64_t>{10, 2, 1}));
  // Fixed dims whose product passes 64 bits are named so (no wrap to a divisor).
  {
    const std::int64_t g = std::int64_t{1} << 22;
    const Mesh huge{{g, g, g}, {1, 1, 1}, {false, false, false}, {}};
    PlanOptions o;
    o.dims = {g, g, g};
    try {
      hcart::make_plan(huge, twenty, o);
      ADD_FAILURE() << "dims of product 2^66 on 20 ranks";
    } catch (const hcart::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("(product past 2^63) do not divide the 20 ranks"),
                std::string::npos)
          << e.what();
    }
  }
  // A fixed dim that does not divide its direction is named.
  equal.dims = {4, 0, 0};
  try {
    hcart::make_plan(code, twenty, equal);
    ADD_FAILURE() << "fixed dims 4,0,0 on 250 cells";
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("equal blocks: dims[0] = 4 does not divide direction "
                                         "0's 250 cells"),
              std::string::npos)
        << e.what();
  }
}

// One table of strategies (issue: a strategy in one place): every name parses to its
// strategy and back, names are unique, the error lists them all in the table's order, and
// the compare lists hold every strategy, manual only where every dim is fixed.
TEST(Plan, TheStrategyTableIsTheOneList) {
  const auto& table = hcart::strategy_table();
  ASSERT_EQ(table.size(), hcart::all_strategies().size());
  std::set<std::string> names;
  std::string listed;
  for (const hcart::StrategyInfo& s : table) {
    EXPECT_EQ(hcart::parse_strategy(s.name), s.strategy);
    EXPECT_EQ(hcart::to_string(s.strategy), s.name);
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
    EXPECT_GT(std::string(s.summary).size(), 10u) << s.name;
    listed += (listed.empty() ? "" : ", ") + std::string(s.name);
  }
  EXPECT_EQ(hcart::strategy_names(), listed);
  EXPECT_EQ(hcart::strategy_names(", ", " or "),
            "mpi, weighted, levelwise, hierarchical or manual");
  try {
    hcart::parse_strategy("fastest");
    ADD_FAILURE() << "'fastest' parsed";
  } catch (const hcart::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "strategy 'fastest': expected one of " + listed);
  }
  const auto free = hcart::compared_strategies(false);
  const auto fixed = hcart::compared_strategies(true);
  EXPECT_EQ(fixed, hcart::all_strategies());
  EXPECT_EQ(free.size() + 1, fixed.size());
  EXPECT_EQ(std::find(free.begin(), free.end(), Strategy::Manual), free.end());
}
