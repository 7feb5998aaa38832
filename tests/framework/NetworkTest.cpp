// The network above the nodes (hcart/topology/Network.hpp): Slurm's per-task addresses, host
// lists and topology files in Slurm's format, and the levels they make, against paths and
// indices written out by hand; then those levels put above a machine's nodes.
#include <hcart/core/Error.hpp>
#include <hcart/mapping/Machine.hpp>
#include <hcart/topology/Network.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using Strings = std::vector<std::string>;
using Units = std::vector<std::vector<std::int64_t>>;

TEST(Network, SlurmAddresses) {
  std::string why;
  EXPECT_EQ(hcart::slurm_switch_path("s2.s0.tux3", "switch.switch.node", &why),
            (Strings{"s2", "s0"}));
  EXPECT_EQ(hcart::slurm_switch_path("tux3", "node", &why), Strings{});
  EXPECT_FALSE(hcart::slurm_switch_path(nullptr, "switch.node", &why));
  EXPECT_NE(why.find("not set"), std::string::npos) << why;
  EXPECT_FALSE(hcart::slurm_switch_path("s0.tux3", "switch.switch.node", &why));
  EXPECT_NE(why.find("does not fit its pattern"), std::string::npos) << why;
  EXPECT_FALSE(hcart::slurm_switch_path("s0.tux3", "rack.node", &why));
  EXPECT_NE(why.find("'rack' where a switch was expected"), std::string::npos) << why;
}

TEST(Network, HostLists) {
  EXPECT_EQ(hcart::expand_hostlist("tux[0-2,7],login1"),
            (Strings{"tux0", "tux1", "tux2", "tux7", "login1"}));
  EXPECT_EQ(hcart::expand_hostlist("n[08-10]-ib"), (Strings{"n08-ib", "n09-ib", "n10-ib"}));
  EXPECT_EQ(hcart::expand_hostlist("s[0-1]"), (Strings{"s0", "s1"}));
  for (const char* bad : {"tux[2-1]", "tux[0-", "a,,b", "tux[x]", "t[0][1]"})
    EXPECT_THROW(hcart::expand_hostlist(bad), hcart::InputError) << bad;
}

namespace {
std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}
} // namespace

TEST(Network, TopologyFiles) {
  const std::string path = write_file("hcart_topology.conf", R"(# a tapered tree
SwitchName=s0 Nodes=tux[0-1]  LinkSpeed=100
SwitchName=s1 Nodes=tux[2-3]
switchname=s2 Nodes=tux4
SwitchName=top Switches=s[0-2]
)");
  const hcart::TopologyFile topo = hcart::read_topology_file(path);
  EXPECT_EQ(topo.switch_path("tux3"), (Strings{"top", "s1"}));
  EXPECT_EQ(topo.switch_path("tux4"), (Strings{"top", "s2"}));
  EXPECT_EQ(topo.switch_path("login"), Strings{});
  for (const auto& [text, what] : std::vector<std::pair<std::string, std::string>>{
           {"Nodes=tux0\n", "line 1: no SwitchName"},
           {"SwitchName=a Nodes=t0\nSwitchName=a Nodes=t1\n", "switch 'a' is listed twice"},
           {"SwitchName=a Nodes=t0\nSwitchName=b Nodes=t0\n", "node 't0' is under two"},
           {"SwitchName=a Nodes=t0\nSwitchName=b Switches=a\nSwitchName=c Switches=a\n",
            "line 3: switch 'a' is under two switches ('b' and 'c')"},
           {"SwitchName=a Switches=b\n", "names 'b', which has no SwitchName line"},
           {"SwitchName=a Switches=b\nSwitchName=b Switches=a\n", "holds itself"}}) {
    const std::string bad = write_file("hcart_bad_topology.conf", text);
    try {
      hcart::read_topology_file(bad);
      ADD_FAILURE() << text;
    } catch (const hcart::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(hcart::read_topology_file(testing::TempDir() + "no/such/file"), hcart::InputError);
  std::remove(path.c_str());
}

TEST(Network, LevelsFromPaths) {
  std::string note;
  // A single root is no level; the leaf switches are.
  auto net = hcart::network_levels({{"top", "s1"}, {"top", "s0"}, {"top", "s1"}}, &note);
  EXPECT_EQ(net.names, Strings{"switch"});
  EXPECT_EQ(net.node_units, (Units{{0}, {1}, {0}}));
  // Three levels of several units: groups above the switch.
  net = hcart::network_levels(
      {{"a", "g0", "s0"}, {"a", "g0", "s1"}, {"b", "g1", "s2"}, {"b", "g2", "s3"}}, &note);
  EXPECT_EQ(net.names, (Strings{"group2", "group", "switch"}));
  EXPECT_EQ(net.node_units, (Units{{0, 0, 0}, {0, 0, 1}, {1, 1, 2}, {1, 2, 3}}));
  EXPECT_EQ(hcart::Machine::parse("group2:2 group:[1,2] switch:[2,1,1] node:[1x4]").ranks(), 4);
  // What makes no level, and says so.
  for (const auto& [paths, what] : std::vector<std::pair<std::vector<Strings>, std::string>>{
           {{{"s0"}, {"s0"}}, "every node is under the same switch"},
           {{{"s0"}, {}}, "node 1 has no switch"},
           {{{"t", "s0"}, {"s1"}}, "a tree of uneven depth"},
           {{{"t0", "s0"}, {"t1", "s0"}}, "switch 's0' sits under 't0' and 't1'"}}) {
    note.clear();
    EXPECT_TRUE(hcart::network_levels(paths, &note).names.empty());
    EXPECT_NE(note.find(what), std::string::npos) << note;
  }
}

// Detected levels on a machine whose nodes came from MPI (kinds of node, node runs): the
// switch of every rank follows its node.
TEST(Network, LevelsAboveDetectedNodes) {
  const hcart::Machine nodes = hcart::Machine::parse("node:[4,4,2,2] socket:2 core:2");
  std::string note;
  const auto net =
      hcart::network_levels({{"top", "s1"}, {"top", "s0"}, {"top", "s1"}, {"top", "s0"}}, &note);
  const hcart::Machine m = nodes.with_network(net.names, net.node_units);
  EXPECT_EQ(m.to_string(), "switch:2 node:[4,2,4,2] socket:2 core:2");
  EXPECT_EQ(m.node_level(), 1);
  for (std::int64_t r = 0; r < m.ranks(); ++r) {
    const auto inner = nodes.unit_indices(r);
    const std::int64_t node = inner[0];
    EXPECT_EQ(m.unit_indices(r),
              (std::vector<std::int64_t>{node % 2, node / 2, inner[1], inner[2]}))
        << r;
  }
}
