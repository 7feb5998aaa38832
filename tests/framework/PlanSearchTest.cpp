// The default strategy's exact search against brute force (docs/algorithms.md, 'The
// search'): every plan of every space enumerated and counted rank by rank by independent code
// (ReferencePlans.hpp), on every machine of up to 64 ranks with 2 and 3 levels.
#include "PlanSearchCases.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/PlanCost.hpp>
#include <hcart/mapping/TimeModel.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <sstream>

using hcart::Machine;
using hcart::Mesh;
using hcart::Plan;
using hcart::PlanOptions;
using hcart::Strategy;
using hcart::test::Factors;
using hcart::test::from_plan;
using hcart::test::mesh_cases;
using hcart::test::MeshCase;
using hcart::test::problem_of;
using hcart::test::recount;
using hcart::test::ref_grids;
using hcart::test::RefBox;
using hcart::test::RefCost;
using hcart::test::RefProblem;
using hcart::test::show;

namespace {

// The best way to cut the boxes of one partition into the finer levels, each box choosing
// its own chain. The finer levels' messages stay inside a node, so a box's contribution
// depends on its own chain only; the objective (largest, then sum, level after level) is
// then minimised exactly by keeping, level after level, the options within the largest of
// the boxes' best busiest values, then each box's options of least total.
RefCost best_of_partition(const std::vector<hcart::test::RefMessage>& messages,
                          const hcart::test::RefMachine& rm, const Factors& d,
                          const std::vector<RefBox>& boxes,
                          std::vector<std::vector<Factors>>* chains_out = nullptr) {
  const Machine& m = *rm.machine;
  const int L = m.level_count();
  const std::size_t N = boxes.size();
  if (L == 2) { // one way to cut a box into ranks
    std::vector<std::vector<Factors>> pick(N);
    for (std::size_t u = 0; u < N; ++u)
      pick[u] = {boxes[u].extent};
    if (chains_out != nullptr) *chains_out = pick;
    return hcart::test::ref_cost(rm, messages, hcart::test::ref_assignment(m, d, boxes, pick));
  }
  std::vector<std::vector<std::vector<Factors>>> options(N);
  std::size_t most = 0;
  for (std::size_t u = 0; u < N; ++u) {
    options[u] = hcart::test::ref_chains(m, 1, boxes[u].extent);
    most = std::max(most, options[u].size());
  }
  // contribution[u][k]: per finer level, node u's busiest unit and total with option k.
  std::vector<std::vector<RefCost>> contribution(N, std::vector<RefCost>(most));
  for (std::size_t k = 0; k < most; ++k) {
    std::vector<std::vector<Factors>> pick(N);
    for (std::size_t u = 0; u < N; ++u)
      pick[u] = options[u][std::min(k, options[u].size() - 1)];
    const auto cart = hcart::test::ref_assignment(m, d, boxes, pick);
    for (std::size_t u = 0; u < N; ++u) {
      if (k < options[u].size())
        contribution[u][k] =
            hcart::test::ref_cost(rm, messages, cart, static_cast<std::int64_t>(u));
    }
  }
  std::vector<std::vector<char>> ok(N);
  for (std::size_t u = 0; u < N; ++u)
    ok[u].assign(options[u].size(), 1);
  RefCost result;
  result.busiest.assign(L, 0);
  result.total.assign(L, 0);
  auto le = [](double a, double b) { return a <= b + 1e-9 * std::max(std::fabs(a), std::fabs(b)); };
  for (int l = 1; l < L; ++l) {
    double worst = 0;
    for (std::size_t u = 0; u < N; ++u) {
      double best = INFINITY;
      for (std::size_t k = 0; k < options[u].size(); ++k)
        if (ok[u][k]) best = std::min(best, contribution[u][k].busiest[l]);
      worst = std::max(worst, best);
    }
    double sum = 0;
    for (std::size_t u = 0; u < N; ++u) {
      double least = INFINITY;
      for (std::size_t k = 0; k < options[u].size(); ++k) {
        ok[u][k] = ok[u][k] && le(contribution[u][k].busiest[l], worst);
        if (ok[u][k]) least = std::min(least, contribution[u][k].total[l]);
      }
      for (std::size_t k = 0; k < options[u].size(); ++k)
        ok[u][k] = ok[u][k] && le(contribution[u][k].total[l], least);
      sum += least;
    }
    result.busiest[l] = worst;
    result.total[l] = sum;
  }
  std::vector<std::vector<Factors>> pick(N);
  for (std::size_t u = 0; u < N; ++u) {
    for (std::size_t k = 0; k < options[u].size(); ++k) {
      if (ok[u][k]) {
        pick[u] = options[u][k];
        break;
      }
    }
  }
  const RefCost full =
      hcart::test::ref_cost(rm, messages, hcart::test::ref_assignment(m, d, boxes, pick));
  result.busiest[0] = full.busiest[0];
  result.total[0] = full.total[0];
  if (chains_out != nullptr) *chains_out = pick;
  return result;
}

struct Optimum {
  RefCost cost;
  int grids = 0, partitions = 0, world = 0;
};

// The exhaustive checks cover every machine up to this many ranks. Under AddressSanitizer
// the reference's enumeration runs about 20 times slower: the sanitizer build (CI stage 2)
// checks the search's memory and arithmetic on the machines up to 24 ranks, and the plain
// build proves optimality up to 64.
// The wider region search runs on every node count from 9 to 32 in the plain build and on
// every fourth under the sanitizers, where all of them took 59 s of one core: the same
// search's memory on fewer machines. The checks of fixed dims, of every assignment and of
// the machine file's times take every other mesh case there (cases 0, 2, 4, 6: the corners,
// a zero halo and uneven costs among them): 51 s of the sanitizer build's 69 s before.
#ifdef HCART_TEST_SANITIZED
constexpr int kMaxRanks = 24;
constexpr int kWideNodeStep = 4;
constexpr std::size_t kMeshStep = 2;
#else
constexpr int kMaxRanks = 64;
constexpr int kWideNodeStep = 1;
constexpr std::size_t kMeshStep = 1;
#endif

// The optimum over every level grid, every guillotine partition (3 to region_nodes nodes, 2
// levels or more) and row-major runs, on every admitted process grid: the plans must reach it,
// and may beat it through the spaces this reference leaves out (strips through the whole
// grid; every partition of grids of up to 16 ranks, GivenDimsTest.cpp). Beyond 12 nodes the
// reference's partitions grow past what a test can enumerate (32 nodes: over 10 minutes).
Optimum brute_force(const RefProblem& p, const Machine& m, const Factors& fixed,
                    std::int64_t region_nodes) {
  const hcart::test::RefMachine rm(m);
  Optimum best;
  bool any = false;
  auto consider = [&](const RefCost& c) {
    if (!any || hcart::test::ref_compare(c, best.cost) < 0) best.cost = c;
    any = true;
  };
  const std::int64_t nodes = m.levels()[0].size, per_node = m.ranks() / nodes;
  for (const Factors& d : ref_grids(p.mesh, m.ranks(), fixed)) {
    const auto messages = hcart::test::ref_messages(p, d);
    for (const auto& chain : hcart::test::ref_chains(m, 0, d)) {
      ++best.grids;
      consider(hcart::test::ref_cost(rm, messages, hcart::test::ref_assignment(m, d, {}, {chain})));
    }
    // Row-major runs: the rank's block number (its unit indices as a mixed-radix number)
    // is its row-major rank.
    std::vector<std::int64_t> runs(m.ranks());
    for (std::int64_t r = 0; r < m.ranks(); ++r) {
      const auto u = m.unit_indices(r);
      std::int64_t b = 0;
      for (int l = 0; l < m.level_count(); ++l)
        b = b * m.levels()[l].size + u[l];
      runs[r] = b;
    }
    ++best.world;
    consider(hcart::test::ref_cost(rm, messages, runs));
    if (m.level_count() >= 2 && nodes >= 3 && nodes <= region_nodes) {
      RefBox root{Factors(d.size(), 0), d, {}, {}};
      for (const auto& boxes : hcart::test::ref_guillotine(root, per_node)) {
        ++best.partitions;
        consider(best_of_partition(messages, rm, d, boxes));
      }
    }
  }
  return best;
}

// Every machine of 2 and 3 levels (each level >= 2 units) of up to 64 ranks with
// `first_nodes` to `last_nodes` nodes, two meshes each, node regions searched and enumerated
// up to `region_nodes` nodes. Returns the plans checked.
int check_every_machine(int first_nodes, int last_nodes, std::int64_t region_nodes) {
  const auto cases = mesh_cases();
  std::vector<std::string> machines;
  for (int a = first_nodes; a <= last_nodes; ++a)
    for (int b = 2; a * b <= kMaxRanks; ++b) {
      machines.push_back("node:" + std::to_string(a) + " core:" + std::to_string(b));
      for (int c = 2; a * b * c <= kMaxRanks; ++c)
        machines.push_back("node:" + std::to_string(a) + " socket:" + std::to_string(b) +
                           " core:" + std::to_string(c));
    }
  int checked = 0, grids = 0, partitions = 0;
  for (std::size_t k = 0; k < machines.size(); ++k) {
    const Machine m = Machine::parse(machines[k]);
    for (std::size_t j = 0; j < 2; ++j) {
      const MeshCase& mc = cases[(k + j * 3) % cases.size()];
      PlanOptions o;
      o.traffic.corners = mc.corners;
      o.region_search_nodes = region_nodes;
      Plan plan;
      try {
        plan = hcart::make_plan(mc.mesh, m, o);
      } catch (const hcart::InputError&) {
        EXPECT_TRUE(ref_grids(mc.mesh, m.ranks(), {}).empty()) << machines[k];
        continue;
      }
      const RefProblem p = problem_of(mc.mesh, mc.corners);
      const Optimum best = brute_force(p, m, {}, region_nodes);
      grids += best.grids;
      partitions += best.partitions;
      const RefCost got = from_plan(plan.cost);
      EXPECT_LE(hcart::test::ref_compare(got, best.cost), 0)
          << machines[k] << " mesh " << j << ": plan " << show(got) << " ("
          << plan.describe_layout() << "), optimum " << show(best.cost);
      EXPECT_EQ(hcart::test::ref_compare(recount(plan, m, p), got), 0)
          << machines[k] << ": the plan's placement does not cost what the search says";
      ++checked;
    }
  }
  std::cout << "checked " << checked << " plans against " << grids << " level grids and "
            << partitions << " guillotine partitions\n";
  return checked;
}

} // namespace

// Node regions searched up to 8 nodes, on every machine up to 64 ranks.
TEST(PlanSearch, OptimalOnEveryMachineUpTo64Ranks) {
  EXPECT_GT(check_every_machine(2, kMaxRanks / 2, 8), kMaxRanks == 64 ? 300 : 50);
}

// Blocks at multiples of m cells (grid hierarchies, hcart::nested_spec): the search counts in
// units of m cells, the reference block by block (its own rule, ReferencePlans.hpp). Where m
// divides the size the two agree exactly: the plan is the optimum on every machine here.
TEST(PlanSearch, OptimalWithBlockMultiples) {
  const std::vector<MeshCase> cases = {
      {{{64, 64, 64}, {1, 1, 1}, {false, false, false}, {}, {8, 8, 8}}, false},
      {{{48, 96, 32}, {1, 2, 1}, {false, true, false}, {1.0, 0.5, 2.0}, {4, 8, 2}}, true},
      {{{128, 64, 8}, {1, 1, 1}, {true, true, false}, {}, {16, 16, 1}}, false}};
  int checked = 0;
  for (const char* machine :
       {"node:2 core:2", "node:3 core:2", "node:2 core:3", "node:5 core:1", "node:7 core:1",
        "node:2 socket:2 core:2", "node:3 core:4", "node:4 core:3", "node:2 socket:3 core:2"}) {
    const Machine m = Machine::parse(machine);
    for (const MeshCase& mc : cases) {
      PlanOptions o;
      o.traffic.corners = mc.corners;
      o.region_search_nodes = 8;
      Plan plan;
      try {
        plan = hcart::make_plan(mc.mesh, m, o);
      } catch (const hcart::InputError&) {
        EXPECT_TRUE(ref_grids(mc.mesh, m.ranks(), {}).empty()) << machine;
        continue;
      }
      const RefProblem p = problem_of(mc.mesh, mc.corners);
      const Optimum best = brute_force(p, m, {}, 8);
      const RefCost got = from_plan(plan.cost);
      EXPECT_LE(hcart::test::ref_compare(got, best.cost), 0)
          << machine << ": plan " << show(got) << " (" << plan.describe_layout() << "), optimum "
          << show(best.cost);
      EXPECT_EQ(hcart::test::ref_compare(recount(plan, m, p), got), 0)
          << machine << ": the plan's placement does not cost what the search says";
      ++checked;
    }
  }
  EXPECT_GE(checked, 20);
}

// The default searches node regions on more nodes: 9 to 12 against the reference's every
// partition (2 million of them: labelled slow, tests/framework/CMakeLists.txt).
TEST(PlanSearchSlow, OptimalWithRegionsOf9To12Nodes) {
  EXPECT_GT(check_every_machine(9, 12, 12), 30);
}

// Beyond what the reference enumerates, the default (regions up to
// PlanOptions::region_search_nodes) is never worse than regions up to 8 nodes, and its
// placement costs what the search says.
TEST(PlanSearch, WiderRegionSearchIsNeverWorse) {
  int better = 0, checked = 0;
  for (int nodes = 9; nodes <= 32; nodes += kWideNodeStep)
    for (const char* below : {" core:2", " core:3", " socket:2 core:2"}) {
      const Machine m = Machine::parse("node:" + std::to_string(nodes) + below);
      for (const MeshCase& mc : mesh_cases()) {
        PlanOptions narrow;
        narrow.traffic.corners = mc.corners;
        narrow.region_search_nodes = 8;
        PlanOptions wide = narrow;
        wide.region_search_nodes = PlanOptions{}.region_search_nodes;
        Plan a, b;
        try {
          a = hcart::make_plan(mc.mesh, m, narrow);
        } catch (const hcart::InputError&) {
          continue;
        }
        b = hcart::make_plan(mc.mesh, m, wide);
        const int order = hcart::compare(b.cost, a.cost);
        EXPECT_LE(order, 0) << m.to_string() << ": " << hcart::to_string(b.cost) << " against "
                            << hcart::to_string(a.cost);
        if (order < 0) ++better;
        const RefProblem p = problem_of(mc.mesh, mc.corners);
        EXPECT_EQ(hcart::test::ref_compare(recount(b, m, p), from_plan(b.cost)), 0)
            << m.to_string() << ": the plan's placement does not cost what the search says";
        ++checked;
      }
    }
  std::cout << "wider region search: better in " << better << " of " << checked << " plans\n";
  EXPECT_GT(better, 0);
}

// Levels above the node are levels like any other: on machines with switches (and groups)
// the plan is the optimum of the reference's every level grid, guillotine partition of the
// switches and row-major runs, the busiest switch first; and no plan made for the nodes
// alone (the same ranks without the network) sends more from its busiest switch.
TEST(PlanSearch, SwitchLevelsArePlannedFirst) {
  const auto cases = mesh_cases();
  int checked = 0, lighter = 0;
  for (const char* text :
       {"switch:2 node:2 core:2", "switch:2 node:2 core:4", "switch:2 node:4 core:2",
        "switch:3 node:2 core:4", "switch:2 node:3 core:2", "switch:4 node:2 socket:2 core:2",
        "group:2 switch:2 node:2 core:2", "switch:2 node:4 core:6", "switch:3 node:4 core:4"}) {
    const Machine m = Machine::parse(text);
    // The same ranks without the network: one level of all the nodes, then the node's.
    std::vector<hcart::MachineLevel> flat{{"node", 1}};
    for (int l = 0; l < m.level_count(); ++l)
      if (l <= m.node_level())
        flat[0].size *= m.levels()[l].size;
      else
        flat.push_back(m.levels()[l]);
    const Machine nodes(flat);
    ASSERT_EQ(nodes.ranks(), m.ranks()) << nodes.to_string();
    for (const MeshCase& mc : cases) {
      PlanOptions o;
      o.traffic.corners = mc.corners;
      o.region_search_nodes = 8;
      Plan plan, node_plan;
      try {
        plan = hcart::make_plan(mc.mesh, m, o);
        node_plan = hcart::make_plan(mc.mesh, nodes, o);
      } catch (const hcart::InputError&) {
        continue;
      }
      const RefProblem p = problem_of(mc.mesh, mc.corners);
      const Optimum best = brute_force(p, m, {}, 8);
      EXPECT_LE(hcart::test::ref_compare(from_plan(plan.cost), best.cost), 0)
          << text << ": plan " << show(from_plan(plan.cost)) << ", optimum " << show(best.cost);
      // The node-level plan's placement, its world ranks on the switches.
      Plan placed = node_plan;
      placed.measured_cart_rank.resize(m.ranks());
      for (std::int64_t r = 0; r < m.ranks(); ++r)
        placed.measured_cart_rank[r] = node_plan.cart_rank_of(r, nodes);
      const hcart::TrafficOptions t{8, mc.corners};
      const auto uplinks = [&](const Plan& x) {
        return hcart::traffic_model(x, m, mc.mesh, t).levels[0].max_unit_bytes;
      };
      EXPECT_LE(uplinks(plan), uplinks(placed))
          << text << " (" << plan.describe_layout() << ") against the node plan ("
          << node_plan.describe_layout() << ")";
      lighter += uplinks(plan) < uplinks(placed) ? 1 : 0;
      ++checked;
    }
  }
  std::cout << "switch levels: the busiest switch lighter than the node plan's in " << lighter
            << " of " << checked << " plans\n";
  EXPECT_GT(lighter, 0);
}

// Fixed dims (the manual strategy, and some directions fixed): the best placement for them.
TEST(PlanSearch, FixedDimsGetTheBestPlacementForThem) {
  const auto cases = mesh_cases();
  int checked = 0;
  for (const char* text : {"node:3 core:4", "node:4 core:2", "node:2 socket:2 core:3",
                           "node:6 core:2", "node:5 core:4", "node:4 socket:2 core:2"}) {
    const Machine m = Machine::parse(text);
    for (std::size_t j = 0; j < cases.size(); j += kMeshStep) {
      const MeshCase& mc = cases[j];
      const RefProblem p = problem_of(mc.mesh, mc.corners);
      for (const Factors& d : ref_grids(mc.mesh, m.ranks(), {})) {
        for (const Factors& fixed : {d, Factors{d[0], 0, 0}, Factors{0, d[1], d[2]}}) {
          PlanOptions o;
          o.traffic.corners = mc.corners;
          o.region_search_nodes = 8;
          o.dims = fixed;
          o.strategy = fixed == d ? Strategy::Manual : Strategy::Hierarchical;
          const Plan plan = hcart::make_plan(mc.mesh, m, o);
          for (std::size_t i = 0; i < 3; ++i) {
            if (fixed[i] > 0) {
              EXPECT_EQ(plan.dims[i], fixed[i]);
            }
          }
          const Optimum best = brute_force(p, m, fixed, 8);
          EXPECT_LE(hcart::test::ref_compare(from_plan(plan.cost), best.cost), 0)
              << text << " dims " << fixed[0] << "," << fixed[1] << "," << fixed[2] << ": plan "
              << show(from_plan(plan.cost)) << ", optimum " << show(best.cost);
          EXPECT_EQ(hcart::test::ref_compare(recount(plan, m, p), from_plan(plan.cost)), 0);
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, static_cast<int>(500 / kMeshStep));
}

// The figures the issue measured with its own exhaustive search, in KiB (8 B per cell).
TEST(PlanSearch, TheIssuesExamples) {
  struct Example {
    Mesh mesh;
    const char* machine;
    double busiest_kib;
  };
  const Example examples[] = {
      // 1x1x4 nodes: 128 KiB on the busiest node (the seed's rule: 1x2x2, 192 KiB).
      {{{64, 128, 256}, {1, 1, 1}, {true, true, true}, {}}, "node:4 core:2", 128.0},
      // 1x2x2 | 1x1x2: 94.5 KiB (the seed's rule: 1x1x4, 125 KiB).
      {{{63, 127, 255}, {1, 1, 1}, {false, false, false}, {}}, "node:4 core:2", 94.5},
      // Guillotine node boxes: 84.8 kB = 82.8125 KiB on 7 nodes, 37 KiB on 3.
      {{{100, 100, 100}, {1, 1, 1}, {false, false, false}, {}}, "node:7 core:4", 82.8125},
      {{{64, 64, 64}, {1, 1, 1}, {false, false, false}, {}}, "node:3 core:4", 37.0},
  };
  for (const auto& e : examples) {
    const Machine m = Machine::parse(e.machine);
    const Plan plan = hcart::make_plan(e.mesh, m, {});
    EXPECT_DOUBLE_EQ(plan.cost.levels[0].busiest / 1024.0, e.busiest_kib) << e.machine;
    const auto t = hcart::traffic_model(plan, m, e.mesh);
    EXPECT_DOUBLE_EQ(static_cast<double>(t.levels[0].max_unit_bytes) / 1024.0, e.busiest_kib);
  }
  // No level grid reaches 82.8 KiB on 7 nodes (the best puts 156 KiB on the busiest): node
  // boxes do, with 547 200 B in total (the search's plan before stencil strips), and stencil
  // strips with less in total (a table), which the objective then prefers.
  const Plan seven = hcart::make_plan(examples[2].mesh, Machine::parse("node:7 core:4"), {});
  EXPECT_EQ(seven.layout, hcart::PlanLayout::Table);
  EXPECT_LT(seven.cost.levels[0].total, 547200.0);
}

// Up to 12 ranks, the node level against EVERY assignment of ranks to nodes (each node
// holding its share), on every process grid: how often is the optimum over all assignments
// below what the plan reaches? (docs/algorithms.md quotes the counts printed here.)
TEST(PlanSearch, NodeLevelAgainstEveryAssignmentUpTo12Ranks) {
  const auto cases = mesh_cases();
  int cases_run = 0, below = 0;
  double worst_ratio = 1.0;
  std::string where;
  for (const char* text : {"node:2 core:2", "node:3 core:2", "node:2 core:3", "node:4 core:2",
                           "node:2 core:4", "node:3 core:3", "node:5 core:2", "node:2 core:5",
                           "node:3 core:4", "node:4 core:3", "node:6 core:2", "node:2 core:6"}) {
    const Machine m = Machine::parse(text);
    const hcart::test::RefMachine rm(m);
    const std::int64_t P = m.ranks(), N = m.levels()[0].size, R = P / N;
    for (std::size_t j = 0; j < cases.size(); j += kMeshStep) {
      const MeshCase& mc = cases[j];
      PlanOptions o;
      o.traffic.corners = mc.corners;
      const Plan plan = hcart::make_plan(mc.mesh, m, o);
      const RefProblem p = problem_of(mc.mesh, mc.corners);
      // Node-level optimum over every grid and every way to split its cells into N groups of R
      // (the lowest unassigned cell always joins the next group opened: each split once).
      double best_busiest = INFINITY, best_total = INFINITY;
      for (const Factors& d : ref_grids(mc.mesh, P, {})) {
        const auto messages = hcart::test::ref_messages(p, d);
        std::vector<std::int64_t> node_of(P, -1), fill(N, 0);
        std::function<void(std::int64_t, std::int64_t)> place = [&](std::int64_t cell,
                                                                    std::int64_t opened) {
          if (cell == P) {
            // Count the node level of this split: ranks numbered node by node (block).
            std::vector<std::int64_t> cart(P), next(N, 0);
            for (std::int64_t q = 0; q < P; ++q)
              cart[node_of[q] * R + next[node_of[q]]++] = q;
            const RefCost c = hcart::test::ref_cost(rm, messages, cart);
            const double tol = 1e-9 * std::max(c.busiest[0], best_busiest);
            if (c.busiest[0] < best_busiest - tol ||
                (c.busiest[0] <= best_busiest + tol && c.total[0] < best_total)) {
              best_busiest = c.busiest[0];
              best_total = c.total[0];
            }
            return;
          }
          for (std::int64_t n = 0; n < std::min(opened + 1, N); ++n) {
            if (fill[n] == R) continue;
            node_of[cell] = n;
            ++fill[n];
            place(cell + 1, std::max(opened, n + 1));
            --fill[n];
          }
        };
        place(0, 0);
      }
      const double got = plan.cost.levels[0].busiest;
      EXPECT_LE(best_busiest, got * (1 + 1e-9)) << text; // the counts agree
      if (best_busiest < got * (1 - 1e-9)) {
        ++below;
        worst_ratio = std::max(worst_ratio, got / best_busiest);
        where += std::string(" ") + text + " mesh " + std::to_string(j) + " (" +
                 std::to_string(got) + " B against " + std::to_string(best_busiest) + " B);";
      }
      ++cases_run;
    }
  }
  std::cout << "every assignment: below the plan's busiest node in " << below << " of " << cases_run
            << " cases, by at most " << worst_ratio << "x:" << where << "\n";
  EXPECT_EQ(cases_run, static_cast<int>(12 * cases.size() / kMeshStep));
  EXPECT_EQ(below, 0) << "grids of up to 16 ranks search every partition into nodes";
}

// The reference picks each box's finer levels by a staged rule (best_of_partition); check
// that rule against every combination of the boxes' choices on small 3-level machines.
TEST(PlanSearch, ReferenceStagedRuleEqualsEveryCombination) {
  const auto cases = mesh_cases();
  int partitions = 0;
  for (const char* text : {"node:3 socket:2 core:2", "node:3 socket:2 core:3",
                           "node:4 socket:3 core:2", "node:3 socket:4 core:2"}) {
    const Machine m = Machine::parse(text);
    const hcart::test::RefMachine rm(m);
    const std::int64_t per_node = m.ranks() / m.levels()[0].size;
    for (std::size_t j = 0; j < cases.size(); j += 2) {
      const RefProblem p = problem_of(cases[j].mesh, cases[j].corners);
      for (const Factors& d : ref_grids(p.mesh, m.ranks(), {})) {
        const auto messages = hcart::test::ref_messages(p, d);
        for (const auto& boxes :
             hcart::test::ref_guillotine(RefBox{Factors(3, 0), d, {}, {}}, per_node)) {
          const RefCost staged = best_of_partition(messages, rm, d, boxes);
          std::vector<std::vector<std::vector<Factors>>> options;
          for (const auto& b : boxes)
            options.push_back(hcart::test::ref_chains(m, 1, b.extent));
          std::vector<std::size_t> pick(boxes.size(), 0);
          RefCost best;
          bool any = false;
          for (;;) {
            std::vector<std::vector<Factors>> chains;
            for (std::size_t u = 0; u < boxes.size(); ++u)
              chains.push_back(options[u][pick[u]]);
            const RefCost c = hcart::test::ref_cost(
                rm, messages, hcart::test::ref_assignment(m, d, boxes, chains));
            if (!any || hcart::test::ref_compare(c, best) < 0) best = c;
            any = true;
            std::size_t u = 0;
            while (u < boxes.size() && ++pick[u] == options[u].size())
              pick[u++] = 0;
            if (u == boxes.size()) break;
          }
          EXPECT_EQ(hcart::test::ref_compare(staged, best), 0) << text;
          ++partitions;
        }
      }
    }
  }
  EXPECT_GT(partitions, 50);
}

// The default is never worse than the other strategies on the objective, and its cost is
// what the traffic model counts, on machines far beyond brute force.
TEST(PlanSearch, NeverWorseThanTheOtherStrategies) {
  std::mt19937_64 rng(33);
  const char* machines[] = {"node:16 socket:2 core:8",    "node:7 core:12", "node:12 core:16",
                            "node:5 socket:2 core:6",     "node:30 core:4", "node:64 core:32",
                            "node:3 socket:2 l3:2 core:4"};
  for (int trial = 0; trial < 42; ++trial) {
    const Machine m =
        Machine::parse(machines[trial % 7],
                       trial % 3 == 0 ? hcart::Placement::RoundRobin : hcart::Placement::Block);
    Mesh mesh{{64 + static_cast<std::int64_t>(rng() % 400),
               64 + static_cast<std::int64_t>(rng() % 400),
               64 + static_cast<std::int64_t>(rng() % 400)},
              {1 + static_cast<int>(rng() % 2), 1, 1 + static_cast<int>(rng() % 3)},
              {rng() % 2 == 0, rng() % 3 == 0, false},
              {1.0, 1.0 + static_cast<double>(rng() % 3), 1.0}};
    PlanOptions o;
    o.traffic.corners = trial % 4 == 0;
    const Plan best = hcart::make_plan(mesh, m, o);
    const auto cost_of = [&](const Plan& plan) {
      return hcart::plan_cost(hcart::traffic_model(plan, m, mesh, o.traffic));
    };
    EXPECT_EQ(hcart::compare(cost_of(best), best.cost), 0) << m.to_string();
    for (Strategy s : {Strategy::Weighted, Strategy::Levelwise}) {
      PlanOptions other = o;
      other.strategy = s;
      const Plan plan = hcart::make_plan(mesh, m, other);
      // World order (weighted) is compared on a block launch, where it is row-major runs.
      if (s == Strategy::Weighted && m.placement() != hcart::Placement::Block) continue;
      EXPECT_LE(hcart::compare(best.cost, cost_of(plan)), 0)
          << m.to_string() << ": " << hcart::to_string(s)
          << " beats the default: " << hcart::to_string(cost_of(plan)) << " against "
          << hcart::to_string(best.cost);
    }
  }
}

// With measured figures, the least predicted time chooses; the report says so.
TEST(PlanSearch, AMachineFileChoosesByPredictedTime) {
  const Machine m = Machine::parse("node:4 socket:2 core:4");
  const Mesh mesh{{96, 192, 480}, {1, 1, 1}, {false, false, false}, {}};
  hcart::MachineTimings timings;
  timings.machine = m.to_string();
  // Sockets far slower than nodes: the socket level decides the time.
  timings.levels = {{"node", 4, 1e-6, 2, {{1024, 1e-5}, {1 << 24, 1e-3}}},
                    {"socket", 2, 1e-6, 2, {{1024, 1e-3}, {1 << 24, 1.0}}},
                    {"core", 4, 1e-7, 2, {{1024, 1e-6}, {1 << 24, 1e-4}}}};
  PlanOptions o;
  const Plan by_objective = hcart::make_plan(mesh, m, o);
  o.timings = timings;
  const Plan by_time = hcart::make_plan(mesh, m, o);
  EXPECT_NE(by_time.chosen_by.find("predicted time"), std::string::npos);
  const auto predicted = [&](const Plan& p) {
    return hcart::predict_exchange_time(hcart::level_loads(hcart::traffic_model(p, m, mesh)),
                                        timings)
        .seconds;
  };
  EXPECT_LE(predicted(by_time), predicted(by_objective));
  for (Strategy s : {Strategy::Weighted, Strategy::Levelwise}) {
    PlanOptions other;
    other.strategy = s;
    EXPECT_LE(predicted(by_time), predicted(hcart::make_plan(mesh, m, other)) * (1 + 1e-12));
  }
  EXPECT_LT(predicted(by_time), predicted(by_objective)) << "the slow sockets should matter";
}

namespace {
// The level grid of process grid `dims` with `chain`'s factors per level, coarse first.
Plan level_grid_plan(const Factors& dims, const std::vector<Factors>& chain) {
  Plan p;
  p.dims = dims;
  p.layout = hcart::PlanLayout::LevelGrid;
  p.level_factors = chain;
  return p;
}

// Figures of a machine under load: node messages expensive (1.8 ms each beyond the
// calibration's 2), so that the count of messages, not only the bytes, decides the time.
hcart::MachineTimings loaded_timings(const Machine& m) {
  hcart::MachineTimings timings;
  timings.machine = m.to_string();
  for (std::size_t l = 0; l < m.levels().size(); ++l) {
    const double latency = l == 0 ? 1.8e-3 : 2e-6 / static_cast<double>(l);
    const double slow = l == 0 ? 1.0 : 0.02 / static_cast<double>(l);
    timings.levels.push_back({m.levels()[l].name,
                              2,
                              latency,
                              2,
                              {{1024, latency + 1e-5 * slow}, {1 << 20, 1.25e-2 * slow}}});
  }
  return timings;
}
} // namespace

// With a machine file the chooser is exact over the level grids: the plan's predicted time
// (counted rank by rank through the traffic model) is at most that of every level grid of
// every admitted process grid, on 5 even machines and the 8 meshes of mesh_cases (odd sizes,
// periodic directions, halo widths 0 to 3, edges and corners), under figures where the
// message count matters.
TEST(PlanSearch, AMachineFileIsExactOverLevelGrids) {
  int compared = 0;
  for (const char* text : {"node:4 socket:2 core:2", "node:3 core:4", "node:6 core:2",
                           "node:2 socket:2 core:4", "node:8 core:2"}) {
    const Machine m = Machine::parse(text);
    for (const MeshCase& mc : mesh_cases()) {
      PlanOptions o;
      o.traffic.corners = mc.corners;
      o.timings = loaded_timings(m);
      const auto predicted = [&](const Plan& p) {
        return hcart::predict_exchange_time(
                   hcart::level_loads(hcart::traffic_model(p, m, mc.mesh, o.traffic)), *o.timings)
            .seconds;
      };
      const Plan chosen = hcart::make_plan(mc.mesh, m, o);
      const double best = predicted(chosen);
      for (const Factors& d : ref_grids(mc.mesh, m.ranks(), {})) {
        for (const auto& chain : hcart::test::ref_chains(m, 0, d)) {
          const Plan p = level_grid_plan(d, chain);
          EXPECT_LE(best, predicted(p) * (1 + 1e-12))
              << text << " mesh " << mc.mesh.global_size[0] << "x" << mc.mesh.global_size[1] << "x"
              << mc.mesh.global_size[2] << ": the level grid " << d[0] << "x" << d[1] << "x" << d[2]
              << " is faster than the chosen " << chosen.dims[0] << "x" << chosen.dims[1] << "x"
              << chosen.dims[2];
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
}

// Blocks at multiples of m cells where m divides the size (a grid hierarchy's nested_spec):
// the level grids are timed in closed form, in units of m (at 10^6 ranks milliseconds, where
// counting rank by rank took minutes), and the choice is still exact: its predicted time,
// counted rank by rank, at most that of every level grid of every process grid whose blocks
// all hold units, under figures where the message count matters and under quiet ones.
TEST(PlanSearch, AMachineFileIsExactOverLevelGridsWithBlockMultiples) {
  const std::vector<Mesh> meshes = {
      {{64, 64, 64}, {1, 1, 1}, {false, false, false}, {}, {8, 8, 8}},
      {{48, 96, 32}, {1, 2, 1}, {false, true, false}, {}, {4, 8, 2}},
      {{128, 64, 8}, {2, 1, 1}, {true, true, false}, {}, {16, 16, 1}}};
  int compared = 0;
  for (const char* text : {"node:4 socket:2 core:2", "node:3 core:4", "node:6 core:2"}) {
    const Machine m = Machine::parse(text);
    for (const Mesh& mesh : meshes) {
      for (const bool loaded : {true, false}) {
        PlanOptions o;
        o.timings = loaded_timings(m);
        if (!loaded) {
          for (auto& level : o.timings->levels)
            level.latency = 2e-6;
        }
        const auto predicted = [&](const Plan& p) {
          return hcart::predict_exchange_time(hcart::level_loads(hcart::traffic_model(p, m, mesh)),
                                              *o.timings)
              .seconds;
        };
        const Plan chosen = hcart::make_plan(mesh, m, o);
        const double best = predicted(chosen);
        for (const Factors& d : ref_grids(mesh, m.ranks(), {})) {
          bool holds = true; // every block at least one unit of m cells
          for (std::size_t i = 0; i < d.size(); ++i)
            holds = holds && d[i] <= mesh.global_size[i] / mesh.block_multiple[i];
          if (!holds) continue;
          for (const auto& chain : hcart::test::ref_chains(m, 0, d)) {
            const Plan p = level_grid_plan(d, chain);
            EXPECT_LE(best, predicted(p) * (1 + 1e-12))
                << text << (loaded ? " loaded" : " quiet") << " mesh " << mesh.global_size[0] << "x"
                << mesh.global_size[1] << "x" << mesh.global_size[2] << ": the level grid " << d[0]
                << "x" << d[1] << "x" << d[2] << " is faster than the chosen "
                << chosen.describe_layout();
            ++compared;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 200);
}

// With a machine file the chooser times every grid's best: the plan's predicted time
// (counted rank by rank through the traffic model) is at most that of the objective's plan
// on every admitted process grid (make_plan with the grid fixed: its best level grid, node
// regions or row-major runs), on machines where node regions are searched (3 to 9 nodes,
// even and uneven), the 8 meshes of mesh_cases, under figures where the message count
// matters and under quiet ones. (Node regions are timed in closed form where each box holds
// one node, and grids are skipped by lower bounds of their time: a wrong bound or closed
// form shows as a grid faster than the choice.)
TEST(PlanSearch, AMachineFileTimesEveryGridsBest) {
  int compared = 0;
  for (const char* text : {"node:3 socket:2 core:2", "node:5 core:4", "node:6 core:3",
                           "node:9 core:2", "node:[3,3,2] core:4", "node:4 socket:2 core:3"}) {
    const Machine m = Machine::parse(text);
    const auto cases = mesh_cases();
    for (std::size_t j = 0; j < cases.size(); j += kMeshStep) {
      const MeshCase& mc = cases[j];
      for (const bool loaded : {true, false}) {
        PlanOptions o;
        o.traffic.corners = mc.corners;
        o.timings = loaded_timings(m);
        if (!loaded) {
          for (auto& level : o.timings->levels) {
            level.latency = 2e-6;
            for (auto& point : level.exchange)
              point.seconds *= 0.1;
          }
        }
        const auto predicted = [&](const Plan& p) {
          return hcart::predict_exchange_time(
                     hcart::level_loads(hcart::traffic_model(p, m, mc.mesh, o.traffic)), *o.timings)
              .seconds;
        };
        Plan chosen;
        try {
          chosen = hcart::make_plan(mc.mesh, m, o);
        } catch (const hcart::InputError&) {
          continue; // no process grid fits this mesh
        }
        const double best = predicted(chosen);
        for (const Factors& d : ref_grids(mc.mesh, m.ranks(), {})) {
          PlanOptions fixed;
          fixed.traffic = o.traffic;
          fixed.dims = d;
          const Plan p = hcart::make_plan(mc.mesh, m, fixed);
          EXPECT_LE(best, predicted(p) * (1 + 1e-12))
              << text << (loaded ? " loaded" : " quiet") << " mesh " << mc.mesh.global_size[0]
              << "x" << mc.mesh.global_size[1] << "x" << mc.mesh.global_size[2] << ": the "
              << hcart::to_string(p.layout) << " plan on " << d[0] << "x" << d[1] << "x" << d[2]
              << " is faster than the chosen " << p.describe_layout();
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, static_cast<int>(500 / kMeshStep));
}

// Weights can make directions of different bytes cost alike (here a halo of 2 in x against 1
// in y and z, equal weights): the objective's mirror images are then no mirror images of the
// time, and the chooser by time still sees every grid (the time choice at most every grid's
// objective plan, on machines where node regions win).
TEST(PlanSearch, AMachineFileSeesBytesWhereWeightsMakeCostsAlike) {
  int compared = 0;
  for (const char* text : {"node:7 core:4", "node:5 core:4", "node:3 socket:2 core:2"}) {
    const Machine m = Machine::parse(text);
    const Mesh mesh{{64, 64, 64}, {2, 1, 1}, {true, true, true}, {}};
    PlanOptions o;
    o.weights = {1, 1, 1};
    o.timings = loaded_timings(m);
    for (auto& level : o.timings->levels)
      level.latency = 2e-6; // the bytes decide
    const auto predicted = [&](const Plan& p) {
      return hcart::predict_exchange_time(hcart::level_loads(hcart::traffic_model(p, m, mesh)),
                                          *o.timings)
          .seconds;
    };
    const double best = predicted(hcart::make_plan(mesh, m, o));
    for (const Factors& d : ref_grids(mesh, m.ranks(), {})) {
      PlanOptions fixed;
      fixed.weights = o.weights;
      fixed.dims = d;
      const Plan p = hcart::make_plan(mesh, m, fixed);
      EXPECT_LE(best, predicted(p) * (1 + 1e-12))
          << text << ": the " << hcart::to_string(p.layout) << " plan on " << d[0] << "x" << d[1]
          << "x" << d[2] << " is faster than the choice";
      ++compared;
    }
  }
  EXPECT_GT(compared, 20);
}
