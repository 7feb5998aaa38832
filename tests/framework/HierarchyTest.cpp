// Hardware detection, deterministic: hwloc synthetic topologies stand in for nodes, and the
// tests choose every rank's binding, so the facts are what real ranks would report.
#include "topology/Hwloc.hpp"

#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/TrafficModel.hpp>
#include <hcart/topology/Hierarchy.hpp>

#include <gtest/gtest.h>

#include <functional>

using hcart::RankFacts;

namespace {

// A node: a synthetic topology of 2 packages with 2 L3 caches of 2 cores of 2 PUs each.
class SyntheticNode {
public:
  explicit SyntheticNode(const char* description) {
    HCART_HWLOC_CHECK(hwloc_topology_set_synthetic(m_topology.get(), description));
    HCART_HWLOC_CHECK(hwloc_topology_load(m_topology.get()));
  }
  hwloc_topology_t get() const { return m_topology.get(); }
  // Facts of a rank bound to object `index` of `type` (nullptr type: unbound).
  RankFacts bound_to(hwloc_obj_type_t type, int index, int node) const {
    hcart::impl::HwlocBitmap set;
    hwloc_bitmap_copy(set.get(), hwloc_get_obj_by_type(get(), type, index)->cpuset);
    return hcart::facts_from_binding(get(), set.get(), node);
  }
  RankFacts unbound(int node) const {
    return hcart::facts_from_binding(get(), hwloc_topology_get_topology_cpuset(get()), node);
  }

private:
  hcart::impl::HwlocTopology m_topology;
};

const char* const two_sockets = "pack:2 l3:2 core:2 pu:2";

std::vector<std::string> names(const hcart::Machine& m) {
  std::vector<std::string> out;
  for (const auto& l : m.levels())
    out.push_back(l.name + ":" + std::to_string(l.size));
  return out;
}

} // namespace

TEST(Hierarchy, CoreBoundBlockLaunchGivesNodeSocketL3Core) {
  SyntheticNode node(two_sockets);
  std::vector<RankFacts> facts;
  for (int n = 0; n < 2; ++n) {
    for (int c = 0; c < 8; ++c)
      facts.push_back(node.bound_to(HWLOC_OBJ_CORE, c, n));
  }
  const auto h = hcart::build_hierarchy(facts);
  EXPECT_EQ(names(h.machine), (std::vector<std::string>{"node:2", "socket:2", "l3:2", "core:2"}));
  EXPECT_EQ(h.machine.source(), "detected");
  EXPECT_EQ(h.machine.unit_indices(13), (std::vector<std::int64_t>{1, 1, 0, 1}));
}

TEST(Hierarchy, RoundRobinLaunchGetsTheSameHierarchyAndTraffic) {
  SyntheticNode node(two_sockets);
  std::vector<RankFacts> block, round_robin;
  for (int r = 0; r < 16; ++r) {
    block.push_back(node.bound_to(HWLOC_OBJ_CORE, r % 8, r / 8));
    round_robin.push_back(node.bound_to(HWLOC_OBJ_CORE, r / 2, r % 2));
  }
  const auto hb = hcart::build_hierarchy(block);
  const auto hr = hcart::build_hierarchy(round_robin);
  EXPECT_EQ(names(hb.machine), names(hr.machine));
  const hcart::Mesh mesh{{512, 256, 128}, {1, 1, 1}, {false, true, false}, {}};
  const auto pb = hcart::make_plan(mesh, hb.machine, {});
  const auto pr = hcart::make_plan(mesh, hr.machine, {});
  const auto tb = hcart::traffic_model(pb, hb.machine, mesh);
  const auto tr = hcart::traffic_model(pr, hr.machine, mesh);
  for (std::size_t l = 0; l < tb.levels.size(); ++l) {
    EXPECT_EQ(tb.levels[l].bytes, tr.levels[l].bytes) << tb.levels[l].name;
    EXPECT_EQ(tb.levels[l].max_unit_bytes, tr.levels[l].max_unit_bytes);
  }
  // World-order placement on the round-robin launch sends more across nodes.
  hcart::PlanOptions weighted;
  weighted.strategy = hcart::Strategy::Weighted;
  const auto wr =
      hcart::traffic_model(hcart::make_plan(mesh, hr.machine, weighted), hr.machine, mesh);
  EXPECT_GT(wr.levels[0].bytes, tr.levels[0].bytes);
}

TEST(Hierarchy, UnboundRanksGiveTheNodeLevelOnly) {
  SyntheticNode node(two_sockets);
  std::vector<RankFacts> facts;
  for (int r = 0; r < 8; ++r)
    facts.push_back(node.unbound(r / 4));
  const auto h = hcart::build_hierarchy(facts);
  EXPECT_EQ(names(h.machine), (std::vector<std::string>{"node:2", "rank:4"}));
  ASSERT_FALSE(h.notes.empty());
  EXPECT_NE(h.notes[0].find("socket: not every rank is bound"), std::string::npos) << h.notes[0];
}

TEST(Hierarchy, SocketBoundRanksStopAtTheSocket) {
  SyntheticNode node(two_sockets);
  std::vector<RankFacts> facts;
  for (int r = 0; r < 8; ++r)
    facts.push_back(node.bound_to(HWLOC_OBJ_PACKAGE, r % 2, r / 4));
  const auto h = hcart::build_hierarchy(facts);
  EXPECT_EQ(names(h.machine), (std::vector<std::string>{"node:2", "socket:2", "rank:2"}));
}

TEST(Hierarchy, TwoRanksPerCoreAddARankLevel) {
  SyntheticNode node(two_sockets);
  std::vector<RankFacts> facts;
  for (int pu = 0; pu < 16; ++pu)
    facts.push_back(node.bound_to(HWLOC_OBJ_PU, pu, 0));
  const auto h = hcart::build_hierarchy(facts);
  EXPECT_EQ(names(h.machine),
            (std::vector<std::string>{"node:1", "socket:2", "l3:2", "core:2", "rank:2"}));
}

namespace {
bool has_note(const hcart::DetectedHierarchy& h, const std::string& text) {
  for (const auto& n : h.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}
} // namespace

// A job of 12 ranks on nodes of 8 cores: 8 and 4. The node level stays, uneven, with the
// levels inside; the partly filled node uses one socket.
TEST(Hierarchy, UnevenNodesKeepTheNodeLevel) {
  SyntheticNode node(two_sockets);
  std::vector<RankFacts> facts;
  for (int c = 0; c < 8; ++c)
    facts.push_back(node.bound_to(HWLOC_OBJ_CORE, c, 0));
  for (int c = 0; c < 4; ++c)
    facts.push_back(node.bound_to(HWLOC_OBJ_CORE, c, 1));
  const auto h = hcart::build_hierarchy(facts);
  EXPECT_EQ(names(h.machine), (std::vector<std::string>{"node:2", "socket:2", "l3:2", "core:2"}));
  EXPECT_FALSE(h.machine.even());
  EXPECT_EQ(h.machine.node_ranks(), (std::vector<std::int64_t>{8, 4}));
  EXPECT_EQ(h.machine.to_string(), "node:[8,4] socket:2 l3:2 core:2");
  EXPECT_EQ(h.machine.unit_indices(11), (std::vector<std::int64_t>{1, 0, 1, 1}));
  EXPECT_TRUE(has_note(h, "nodes hold 4 to 8 ranks: an uneven level"));
  EXPECT_TRUE(has_note(h, "socket: the units above hold 1 to 2 of them"));
  // The plan gives each node a box of its size.
  const hcart::Mesh mesh{{64, 64, 96}, {1, 1, 1}, {false, false, false}, {}};
  const auto plan = hcart::make_plan(mesh, h.machine, {});
  EXPECT_EQ(plan.layout, hcart::PlanLayout::NodeRegions) << plan.describe_layout();
  ASSERT_EQ(plan.node_regions.size(), 2u);
  for (std::size_t u = 0; u < 2; ++u) {
    std::int64_t volume = 1;
    for (std::int64_t e : plan.node_regions[u].extent)
      volume *= e;
    EXPECT_EQ(volume, h.machine.ranks_on_node(static_cast<std::int64_t>(u)));
  }
}

// 6 ranks on one node, cores 0..5: socket 0 holds 4 ranks, socket 1 holds 2. Every level
// stays, the sockets and L3 caches uneven.
TEST(Hierarchy, PartlyFilledSocketsStayAnUnevenLevel) {
  SyntheticNode node(two_sockets);
  std::vector<RankFacts> facts;
  for (int c = 0; c < 6; ++c)
    facts.push_back(node.bound_to(HWLOC_OBJ_CORE, c, 0));
  const auto h = hcart::build_hierarchy(facts);
  EXPECT_EQ(names(h.machine), (std::vector<std::string>{"node:1", "socket:2", "l3:2", "core:2"}));
  EXPECT_FALSE(h.machine.even());
  EXPECT_TRUE(has_note(h, "socket: the units above hold 2 of them, with 2 to 4 ranks each"));
  EXPECT_TRUE(has_note(h, "l3: the units above hold 1 to 2 of them, with 2 ranks each"));
  EXPECT_EQ(h.machine.unit_indices(5), (std::vector<std::int64_t>{0, 1, 0, 1}));
}

// What detection builds from: one node of each kind and the launch order. 4 nodes, two
// kinds (8 cores in order; 4 cores in reverse order), ranks dealt round-robin while every
// node has room (a table), against the hierarchy from every rank's facts.
TEST(Hierarchy, SummaryOfKindsGivesTheMachineOfEveryRanksFacts) {
  SyntheticNode node(two_sockets);
  const std::vector<int> node_size{8, 4, 8, 4};
  std::vector<RankFacts> facts;
  std::vector<int> filled(4, 0);
  while (facts.size() < 24) {
    for (int u = 0; u < 4; ++u) {
      if (filled[u] == node_size[u]) continue;
      const int k = filled[u]++;
      facts.push_back(node.bound_to(HWLOC_OBJ_CORE, node_size[u] == 8 ? k : 3 - k, u));
    }
  }
  hcart::NodeFactsSummary summary;
  summary.node_kind = {0, 1, 0, 1};
  summary.kinds.resize(2);
  for (int c = 0; c < 8; ++c)
    summary.kinds[0].push_back(node.bound_to(HWLOC_OBJ_CORE, c, 0));
  for (int c = 3; c >= 0; --c)
    summary.kinds[1].push_back(node.bound_to(HWLOC_OBJ_CORE, c, 0));
  summary.order = hcart::LaunchOrder::Table;
  for (const auto& f : facts)
    summary.world_node.push_back(f.node);
  const auto from_summary = hcart::build_hierarchy(summary);
  const auto from_facts = hcart::build_hierarchy(facts);
  EXPECT_EQ(names(from_summary.machine), names(from_facts.machine));
  EXPECT_EQ(from_summary.notes, from_facts.notes);
  EXPECT_EQ(from_summary.machine.to_string(), "node:[8,4,8,4] socket:2 l3:2 core:2");
  EXPECT_EQ(from_summary.machine.kind_count(), 2);
  EXPECT_EQ(from_summary.machine.launch_order(), hcart::LaunchOrder::Table);
  for (std::int64_t r = 0; r < 24; ++r) {
    const auto units = from_summary.machine.unit_indices(r);
    EXPECT_EQ(units, from_facts.machine.unit_indices(r)) << r;
    EXPECT_EQ(units[0], facts[r].node) << r;
    // Core c of 8 is socket c/4, L3 (c/2)%2, core c%2 of its L3.
    int core = 0;
    for (int c = 0; c < 8; ++c)
      if (node.bound_to(HWLOC_OBJ_CORE, c, 0).object == facts[r].object) core = c;
    EXPECT_EQ(units, (std::vector<std::int64_t>{facts[r].node, core / 4, core / 2 % 2, core % 2}))
        << r;
  }
  // summarize_facts finds the same two kinds.
  const auto found = hcart::summarize_facts(facts);
  EXPECT_EQ(found.kinds.size(), 2u);
  EXPECT_EQ(found.node_kind, summary.node_kind);
}

TEST(Hierarchy, BadFactsAreRejected) {
  EXPECT_THROW(hcart::build_hierarchy(std::vector<hcart::RankFacts>{}), hcart::InputError);
  EXPECT_THROW(hcart::build_hierarchy(hcart::NodeFactsSummary{}), hcart::InputError);
  hcart::NodeFactsSummary no_node_of_kind;
  no_node_of_kind.kinds = {{RankFacts{}}};
  no_node_of_kind.node_kind = {0, 1};
  EXPECT_THROW(hcart::build_hierarchy(no_node_of_kind), hcart::InputError);
  RankFacts f;
  f.node = 1; // node 0 missing
  EXPECT_THROW(hcart::build_hierarchy({f}), hcart::InputError);
}
