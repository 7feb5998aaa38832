// hcart::Machine: machine descriptions parsed and checked, every rank's unit index per level
// under block and round-robin numbering, and machines kept as kinds of node: each inverse
// against indices worked out independently.
#include <hcart/core/Error.hpp>
#include <hcart/mapping/Machine.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using hcart::Machine;
using hcart::Placement;
using Factors = std::vector<std::int64_t>;

TEST(Machine, ParsesAndNumbersRanks) {
  const Machine m = Machine::parse("node:2 socket:2 core:4");
  EXPECT_EQ(m.ranks(), 16);
  EXPECT_EQ(m.level_count(), 3);
  EXPECT_EQ(m.unit_indices(5), (Factors{0, 1, 1}));
  const Machine rr = Machine::parse("node:2,socket:2,core:4", Placement::RoundRobin);
  EXPECT_EQ(rr.unit_indices(5), (Factors{1, 0, 2}));
  EXPECT_EQ(rr.to_string(), "node:2 socket:2 core:4");
  for (const char* bad : {"", "node", "node:", ":4", "node:0", "node:-1", "node:x", "node:2 node:2",
                          "no de:2", "node:99999999999", "a:65536 b:65536"}) {
    EXPECT_THROW(Machine::parse(bad), hcart::InputError) << bad;
  }
  EXPECT_THROW(hcart::parse_placement("scatter"), hcart::InputError);
}

// Nodes holding different rank counts: "node:[4,4,2]", filled in block order inside.
TEST(Machine, UnevenNodes) {
  const Machine m = Machine::parse("node:[4,4,2] socket:2 core:2");
  EXPECT_FALSE(m.even());
  EXPECT_EQ(m.ranks(), 10);
  EXPECT_EQ(m.level_count(), 3);
  EXPECT_EQ(m.levels()[0].size, 3);
  EXPECT_EQ(m.node_ranks(), (Factors{4, 4, 2}));
  EXPECT_EQ(m.unit_indices(5), (Factors{1, 0, 1}));
  EXPECT_EQ(m.unit_indices(9), (Factors{2, 0, 1})); // the last node: socket 0 only
  EXPECT_EQ(m.to_string(), "node:[4x2,2] socket:2 core:2");
  EXPECT_EQ(Machine::parse(m.to_string()).to_string(), m.to_string());
  for (std::int64_t r = 0; r < m.ranks(); ++r)
    EXPECT_EQ(m.block_number(r), r); // a block launch: world order is block order
  EXPECT_EQ(m.node_first_block(2), 8);

  // Round-robin deals the ranks to the nodes with room: 0,1,2 | 3,4,5 | 6,7 | 8,9 on 0,1.
  const Machine rr = Machine::parse("node:[4,4,2] core:4", Placement::RoundRobin);
  const Factors node_of{0, 1, 2, 0, 1, 2, 0, 1, 0, 1};
  const Factors block_of{0, 4, 8, 1, 5, 9, 2, 6, 3, 7};
  for (std::int64_t r = 0; r < rr.ranks(); ++r) {
    EXPECT_EQ(rr.unit_indices(r)[0], node_of[r]) << r;
    EXPECT_EQ(rr.block_number(r), block_of[r]) << r;
  }

  // "AxN": N nodes of A ranks; a list of equal counts is an even machine.
  EXPECT_EQ(Machine::parse("node:[16x3,8] core:16").node_ranks(), (Factors{16, 16, 16, 8}));
  const Machine even = Machine::parse("node:[4x3] core:8");
  EXPECT_TRUE(even.even());
  EXPECT_EQ(even.to_string(), "node:3 core:4");
  EXPECT_TRUE(Machine::parse("node:4 socket:2 core:4").even());
}

TEST(Machine, UnevenDescriptionsAreCheckedWithOneLine) {
  const std::pair<const char*, const char*> bad[] = {
      {"node:[4,4,2]", "holds 4 ranks, expected 1 to 1 (no finer level holds them: name one, e.g. "
                       "'node:[4,4,2] core:4')"},
      {"node:[4,5] core:4", "node 1 holds 5 ranks, expected 1 to 4 (a whole node)"},
      {"node:[4,0] core:4", "'0' in '[4,0]'"},
      {"node:[] core:4", "is not a list of ranks per unit"},
      {"node:[4,,2] core:4", "an empty entry in '[4,,2]'"},
      {"node:[4x0] core:4", "'4x0' in '[4x0]'"},
      {"node:[4,a] core:4", "count 'a' of level 'node'"},
      {"node:[4,4 core:4", "'[' without its ']'"},
      {"node:2 core:[2,1]", "only the first (coarsest) level may"},
      {"node:[4x20000000] core:4", "more than 16777216"},
  };
  for (const auto& [text, expected] : bad) {
    try {
      Machine::parse(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const hcart::InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(expected), std::string::npos) << text << ": " << what;
      EXPECT_NE(what.find(std::string("machine '") + text + "'"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

// A measured table: uneven when some combination of indices is no rank's; the same indices
// twice, or a node without ranks, are refused.
TEST(Machine, MeasuredTables) {
  const std::vector<hcart::MachineLevel> levels{{"node", 2}, {"core", 2}};
  const Machine even(levels, {1, 0, 1, 1, 0, 0, 0, 1}, "detected");
  EXPECT_TRUE(even.even());
  EXPECT_EQ(even.block_number(0), 2);
  const Machine uneven(levels, {0, 0, 0, 1, 1, 0}, "detected");
  EXPECT_FALSE(uneven.even());
  EXPECT_EQ(uneven.node_ranks(), (Factors{2, 1}));
  EXPECT_THROW(Machine(levels, {0, 0, 0, 0, 1, 0}, "detected"), hcart::InputError);
  EXPECT_THROW(Machine(levels, {0, 0, 0, 1}, "detected"), hcart::InputError);
  EXPECT_THROW(Machine(levels, {0, 0, 0}, "detected"), hcart::InputError);
}

namespace {

// The unit indices of every world rank, worked out independently of Machine: node u of
// kind node_kind[u] holds its kind's rows in the order of its world ranks.
std::vector<Factors> reference_units(const std::vector<std::vector<int>>& kinds,
                                     const std::vector<int>& node_kind,
                                     const std::vector<int>& world_node, int depth) {
  std::vector<std::size_t> next(node_kind.size(), 0);
  std::vector<Factors> out;
  for (int u : world_node) {
    const std::vector<int>& rows = kinds[node_kind[u]];
    Factors units{u};
    for (int l = 1; l < depth; ++l)
      units.push_back(rows[next[u] * depth + l]);
    ++next[u];
    out.push_back(units);
  }
  return out;
}

// Every inverse the planner relies on, and block order sorted by unit indices.
void expect_consistent(const Machine& m, const std::vector<Factors>& reference) {
  ASSERT_EQ(m.ranks(), static_cast<std::int64_t>(reference.size()));
  std::vector<int> seen(m.ranks(), 0);
  for (std::int64_t r = 0; r < m.ranks(); ++r) {
    ASSERT_EQ(m.unit_indices(r), reference[r]) << m.to_string() << " rank " << r;
    const std::int64_t b = m.block_number(r);
    ASSERT_EQ(m.block_units(b), reference[r]) << r;
    ASSERT_EQ(m.rank_of_block(b), r) << r;
    ASSERT_EQ(m.block_of_units(reference[r]), b) << r;
    ASSERT_EQ(m.node_of_block(b), reference[r][0]) << r;
    ++seen[b];
  }
  for (std::int64_t b = 0; b < m.ranks(); ++b) {
    ASSERT_EQ(seen[b], 1) << "block " << b;
    if (b > 0) {
      EXPECT_LT(m.block_units(b - 1), m.block_units(b)) << "block " << b;
    }
  }
}

} // namespace

// Kinds of node and launch orders: a compact machine gives every rank the indices a table of
// every rank would, and a table that follows a known order is recognised and not kept.
TEST(Machine, KindsOfNodeAndLaunchOrders) {
  const std::vector<hcart::MachineLevel> levels{{"node", 4}, {"socket", 2}, {"core", 3}};
  // Kind 0: 6 ranks on the cores in order; kind 1: 5 ranks, the cores in reverse order.
  const std::vector<std::vector<int>> kinds{{0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1, 0, 0, 1, 1, 0, 1, 2},
                                            {0, 1, 2, 0, 1, 1, 0, 1, 0, 0, 0, 2, 0, 0, 1}};
  const std::vector<int> node_kind{0, 1, 1, 0};
  const std::vector<int> runs{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3};
  const Machine m(levels, kinds, node_kind, hcart::LaunchOrder::NodeRuns, {}, "test");
  EXPECT_FALSE(m.even());
  EXPECT_EQ(m.node_ranks(), (Factors{6, 5, 5, 6}));
  EXPECT_EQ(m.kind_count(), 2);
  expect_consistent(m, reference_units(kinds, node_kind, runs, 3));
  // The same launch given as a table: recognised as node runs.
  const Machine listed(levels, kinds, node_kind, hcart::LaunchOrder::Table, runs, "test");
  EXPECT_EQ(listed.launch_order(), hcart::LaunchOrder::NodeRuns);
  expect_consistent(listed, reference_units(kinds, node_kind, runs, 3));
  // A shuffled launch: kept as a table.
  std::vector<int> shuffled = runs;
  std::mt19937 random(7);
  std::shuffle(shuffled.begin(), shuffled.end(), random);
  const Machine table(levels, kinds, node_kind, hcart::LaunchOrder::Table, shuffled, "test");
  EXPECT_EQ(table.launch_order(), hcart::LaunchOrder::Table);
  const auto reference = reference_units(kinds, node_kind, shuffled, 3);
  expect_consistent(table, reference);
  // The table constructor from every rank's indices finds the same kinds and order.
  std::vector<int> rows;
  for (const auto& units : reference)
    rows.insert(rows.end(), units.begin(), units.end());
  const Machine from_rows(levels, rows, "test");
  EXPECT_EQ(from_rows.kind_count(), 2);
  expect_consistent(from_rows, reference);

  // Round-robin over even nodes, given as a table: recognised.
  const std::vector<std::vector<int>> whole{kinds[0]};
  std::vector<int> dealt;
  for (int r = 0; r < 24; ++r)
    dealt.push_back(r % 4);
  const Machine rr(levels, whole, {0, 0, 0, 0}, hcart::LaunchOrder::Table, dealt, "test");
  EXPECT_EQ(rr.launch_order(), hcart::LaunchOrder::RoundRobin);
  EXPECT_TRUE(rr.even());
  expect_consistent(rr, reference_units(whole, {0, 0, 0, 0}, dealt, 3));
}

// Rule machines (no kinds) answer the same questions from their numbering.
TEST(Machine, RuleAndSyntheticMachinesInvert) {
  for (const char* text : {"node:3 socket:2 core:4", "node:[4,4,2] socket:2 core:2",
                           "node:[6,3,6,1] core:6", "core:7"}) {
    for (Placement placement : {Placement::Block, Placement::RoundRobin}) {
      const Machine m = Machine::parse(text, placement);
      std::vector<Factors> reference;
      for (std::int64_t r = 0; r < m.ranks(); ++r)
        reference.push_back(m.unit_indices(r));
      expect_consistent(m, reference);
    }
  }
  EXPECT_THROW(Machine::parse("node:[4,2] core:4").block_of_units({1, 3}), hcart::InputError);
}

TEST(Machine, KindsAreCheckedWithOneLine) {
  const std::vector<hcart::MachineLevel> levels{{"node", 2}, {"core", 2}};
  using hcart::LaunchOrder;
  const std::vector<std::vector<int>> good{{0, 0, 0, 1}};
  EXPECT_NO_THROW(Machine(levels, good, {0, 0}, LaunchOrder::NodeRuns, {}, "t"));
  EXPECT_THROW(Machine(levels, {}, {0, 0}, LaunchOrder::NodeRuns, {}, "t"), hcart::InputError);
  EXPECT_THROW(Machine(levels, {{0, 0, 0}}, {0, 0}, LaunchOrder::NodeRuns, {}, "t"),
               hcart::InputError); // not whole rows
  EXPECT_THROW(Machine(levels, {{0, 0, 0, 2}}, {0, 0}, LaunchOrder::NodeRuns, {}, "t"),
               hcart::InputError); // core 2 of 2
  EXPECT_THROW(Machine(levels, {{0, 1, 0, 1}}, {0, 0}, LaunchOrder::NodeRuns, {}, "t"),
               hcart::InputError); // the same core twice
  EXPECT_THROW(Machine(levels, good, {0, 1}, LaunchOrder::NodeRuns, {}, "t"), hcart::InputError);
  EXPECT_THROW(Machine(levels, good, {0}, LaunchOrder::NodeRuns, {}, "t"), hcart::InputError);
  EXPECT_THROW(Machine(levels, {{0, 0, 0, 1}, {0, 0}}, {0, 1}, LaunchOrder::RoundRobin, {}, "t"),
               hcart::InputError); // round-robin on nodes of 2 and 1 ranks
  EXPECT_THROW(Machine(levels, good, {0, 0}, LaunchOrder::Table, {0, 1, 1}, "t"),
               hcart::InputError); // three ranks listed
  EXPECT_THROW(Machine(levels, good, {0, 0}, LaunchOrder::Table, {0, 0, 0, 1}, "t"),
               hcart::InputError); // node 0 over-full
}

// 10^6 ranks on 8192 nodes of 128 ranks (a partly filled last node): the machine keeps two
// kinds and the node list, not a table of every rank.
TEST(Machine, AMillionRanksKeepKindsNotRanks) {
  std::vector<std::int64_t> node_ranks(7812, 128);
  node_ranks.push_back(1000000 - 7812 * 128);
  const Machine m = Machine::with_node_ranks(node_ranks, {{"socket", 2}, {"core", 64}});
  EXPECT_EQ(m.ranks(), 1000000);
  EXPECT_EQ(m.kind_count(), 2);
  EXPECT_LT(m.footprint_bytes(), 200 * 1024) << m.footprint_bytes();
  EXPECT_EQ(m.unit_indices(999999), (Factors{7812, 0, 63})); // the last node's 64th rank
  EXPECT_EQ(m.block_number(999999), 999999);
}

// Levels above the node: "switch:2 node:4 core:2", counts or lists; every rank's indices
// worked out by hand from the tree and the launcher's rule (block: fill node after node;
// round-robin: rank r on node r mod N, nodes numbered switch by switch).
TEST(Machine, NetworkLevelsAboveTheNode) {
  const Machine even = Machine::parse("switch:2 node:2 core:2");
  EXPECT_TRUE(even.even());
  EXPECT_EQ(even.node_level(), 1);
  EXPECT_EQ(even.unit_indices(5), (Factors{1, 0, 1}));
  const Machine rr = Machine::parse("switch:2 node:2 core:2", Placement::RoundRobin);
  EXPECT_TRUE(rr.even());
  EXPECT_EQ(rr.to_string(), "switch:2 node:2 core:2");
  for (std::int64_t r = 0; r < 8; ++r) {
    const std::int64_t node = r % 4; // global node, 2 per switch
    EXPECT_EQ(rr.unit_indices(r), (Factors{node / 2, node % 2, r / 4})) << r;
  }
  // Listed switches, uneven nodes, two network levels.
  const Machine listed = Machine::parse("switch:[3,2] node:[4,4,2,4,4] core:4");
  EXPECT_FALSE(listed.even());
  EXPECT_EQ(listed.node_level(), 1);
  EXPECT_EQ(listed.ranks(), 18);
  EXPECT_EQ(listed.levels()[1].size, 3);
  EXPECT_EQ(listed.to_string(), "switch:[3,2] node:[4x2,2,4x2] core:4");
  EXPECT_EQ(listed.unit_indices(9), (Factors{0, 2, 1}));  // node 2 holds ranks 8, 9
  EXPECT_EQ(listed.unit_indices(10), (Factors{1, 0, 0})); // node 3: switch 1's first
  const Machine shared = Machine::parse("switch:2 node:[4,4,2,2] core:4");
  EXPECT_EQ(shared.unit_indices(9), (Factors{1, 0, 1}));
  const Machine deep = Machine::parse("group:2 switch:[2,1,1,1] node:[2x5] core:2");
  EXPECT_EQ(deep.node_level(), 2);
  EXPECT_EQ(deep.levels()[1].size, 2);
  EXPECT_EQ(deep.unit_indices(5), (Factors{0, 1, 0, 1}));
  EXPECT_EQ(deep.unit_indices(8), (Factors{1, 1, 0, 0}));
  for (const Machine* m : {&even, &listed, &shared, &deep}) {
    const Machine again = Machine::parse(m->to_string());
    for (std::int64_t r = 0; r < m->ranks(); ++r) {
      EXPECT_EQ(again.unit_indices(r), m->unit_indices(r)) << m->to_string() << " rank " << r;
      EXPECT_EQ(m->rank_of_block(m->block_number(r)), r);
    }
  }
  for (const auto& [bad, what] : std::vector<std::pair<std::string, std::string>>{
           {"switch:2 core:2", "need a node level after them"},
           {"node:2 switch:2 core:2", "after 'node'"},
           {"switch:[3,2] node:8 core:2", "list its units too, e.g. node:[8x5]"},
           {"switch:2 node:[4,4,2] core:4", "do not share evenly among the 2"},
           {"switch:[3,2] node:[2x4] core:2", "lists 4 units, but the units of 'switch' hold 5"},
           {"switch:2 node:2 core:[2,1]", "only the network's levels and the node may"}}) {
    try {
      Machine::parse(bad);
      ADD_FAILURE() << bad << " parsed";
    } catch (const hcart::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("machine '" + bad + "': ", 0), 0u) << e.what();
    }
  }
}

// with_network: any node numbering, a unit's nodes need not be consecutive; the launch order
// stays node runs only when they are.
TEST(Machine, WithNetworkRenumbersNodesByTheirUnits) {
  const Machine nodes = Machine::parse("node:[2,4,2,4] core:4");
  // Switch 7 holds nodes 1 and 3, switch 3 nodes 0 and 2: switch 3 is unit 0 (node 0).
  const Machine m = nodes.with_network({"switch"}, {{3}, {7}, {3}, {7}});
  EXPECT_EQ(m.launch_order(), hcart::LaunchOrder::Table);
  EXPECT_EQ(m.to_string(), "switch:2 node:[2x2,4x2] core:4");
  const Factors node_switch{0, 1, 0, 1}, node_index{0, 0, 1, 1};
  for (std::int64_t r = 0; r < nodes.ranks(); ++r) {
    const auto inner = nodes.unit_indices(r);
    EXPECT_EQ(m.unit_indices(r), (Factors{node_switch[inner[0]], node_index[inner[0]], inner[1]}))
        << r;
  }
  const Machine runs = nodes.with_network({"switch"}, {{0}, {0}, {1}, {1}});
  EXPECT_EQ(runs.launch_order(), hcart::LaunchOrder::NodeRuns);
  EXPECT_EQ(runs.kind_count(), 1);
  EXPECT_THROW(nodes.with_network({"switch"}, {{0}, {0}, {1}}), hcart::InputError);
  EXPECT_THROW(nodes.with_network({"node"}, {{0}, {0}, {1}, {1}}), hcart::InputError);
  EXPECT_THROW(runs.with_network({"group"}, {{0}, {0}}), hcart::InputError); // has a network
  // Without the network: the same world ranks on the same nodes.
  const Machine back = m.without_network();
  EXPECT_EQ(back.node_level(), 0);
  EXPECT_EQ(back.to_string(), "node:[2x2,4x2] core:4");
  for (std::int64_t r = 0; r < m.ranks(); ++r) {
    const auto u = m.unit_indices(r);
    EXPECT_EQ(back.unit_indices(r), (Factors{u[0] * 2 + u[1], u[2]})) << r;
  }
  try {
    nodes.with_network({"group", "switch"}, {{0, 5}, {1, 5}, {1, 6}, {1, 6}});
    ADD_FAILURE() << "units that do not nest";
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("must nest"), std::string::npos) << e.what();
  }
}
