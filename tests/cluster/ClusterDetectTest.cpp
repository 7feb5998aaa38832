// Detection across real hosts: run by tests/cluster/cluster_case.sh through
// scripts/cluster.sh, one network namespace with its own host name per node. The truth the
// tests compare with is independent of hcart: every rank's host name (gethostname), gathered
// with plain MPI. Nodes are numbered by their lowest world rank, as detect_machine promises.
#include "Specs.hpp"
#include "WorldRanks.hpp"

#include <hcart/grid/Decomposition.hpp>
#include <hcart/topology/Detect.hpp>
#include <hcart/topology/LevelCommunicators.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using hcart::test::world_rank;
using hcart::test::world_size;

constexpr int name_length = 256;

/// \brief Every rank's host name, in the rank order of `comm`.
std::vector<std::string> host_names(MPI_Comm comm) {
  std::array<char, name_length> mine{};
  gethostname(mine.data(), mine.size() - 1);
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<char> all(static_cast<std::size_t>(size) * name_length);
  MPI_Allgather(mine.data(), name_length, MPI_CHAR, all.data(), name_length, MPI_CHAR, comm);
  std::vector<std::string> names;
  for (int r = 0; r < size; ++r)
    names.emplace_back(all.data() + static_cast<std::size_t>(r) * name_length);
  return names;
}

/// \brief The hosts of the world as MPI sees them: node index of each world rank (hosts in
/// order of their lowest rank) and the number of ranks on each host.
struct Hosts {
  std::vector<std::string> name_of_rank;
  std::vector<int> node_of_rank;
  std::vector<int> ranks_on_node;
};

Hosts world_hosts() {
  Hosts h;
  h.name_of_rank = host_names(MPI_COMM_WORLD);
  std::vector<std::string> order;
  for (const auto& name : h.name_of_rank) {
    auto at = std::find(order.begin(), order.end(), name);
    if (at == order.end()) {
      order.push_back(name);
      h.ranks_on_node.push_back(0);
      at = order.end() - 1;
    }
    const int node = static_cast<int>(at - order.begin());
    h.node_of_rank.push_back(node);
    ++h.ranks_on_node[node];
  }
  return h;
}

} // namespace

// The cluster is what the test claims to run on: several hosts, and no synthetic machine
// that would make the node level up.
TEST(ClusterDetect, TheJobSpansSeveralHostsWithoutASyntheticMachine) {
  EXPECT_EQ(std::getenv("HCART_MACHINE"), nullptr);
  const Hosts h = world_hosts();
  ASSERT_GE(h.ranks_on_node.size(), 2U) << "run through scripts/cluster.sh with --nodes >= 2";
}

// detect_machine: a node level with one unit per host holding that host's ranks (an uneven
// level when hosts hold different counts), and every rank's node index the index of its
// host.
TEST(ClusterDetect, NodesAreTheHosts) {
  const Hosts h = world_hosts();
  const hcart::DetectedHierarchy detected = hcart::detect_machine(MPI_COMM_WORLD);
  const hcart::Machine& m = detected.machine;
  ASSERT_GE(m.level_count(), 1);
  EXPECT_EQ(m.levels()[0].name, "node");
  EXPECT_EQ(m.levels()[0].size, static_cast<std::int64_t>(h.ranks_on_node.size()));
  EXPECT_EQ(m.ranks(), world_size());
  EXPECT_EQ(m.source(), "detected");
  const bool even = std::all_of(h.ranks_on_node.begin(), h.ranks_on_node.end(),
                                [&](int n) { return n == h.ranks_on_node[0]; });
  EXPECT_EQ(m.even(), even) << m.to_string();
  for (std::size_t u = 0; u < h.ranks_on_node.size(); ++u)
    EXPECT_EQ(m.ranks_on_node(static_cast<std::int64_t>(u)), h.ranks_on_node[u])
        << m.to_string() << ", node " << u;
  for (int r = 0; r < world_size(); ++r)
    EXPECT_EQ(m.unit_indices(r)[0], h.node_of_rank[r])
        << "rank " << r << " on " << h.name_of_rank[r];
}

// Level communicators on the detected machine: the node unit holds exactly the ranks of this
// host, in world order; its leader is the host's lowest rank; the leaders' communicator has
// one rank per host.
TEST(ClusterDetect, NodeCommunicatorsAndLeadersAreTheHosts) {
  const Hosts h = world_hosts();
  const hcart::DetectedHierarchy detected = hcart::detect_machine(MPI_COMM_WORLD);
  const hcart::LevelCommunicators levels(MPI_COMM_WORLD, detected.machine, world_rank());
  ASSERT_GE(levels.level_count(), 1);
  EXPECT_EQ(levels.name(0), "node");
  EXPECT_EQ(levels.unit_index(0), h.node_of_rank[world_rank()]);

  const MPI_Comm node = levels.unit(0);
  int size = 0;
  MPI_Comm_size(node, &size);
  std::vector<int> members(size);
  const int me = world_rank();
  MPI_Allgather(&me, 1, MPI_INT, members.data(), 1, MPI_INT, node);
  std::vector<int> expected;
  for (int r = 0; r < world_size(); ++r)
    if (h.node_of_rank[r] == h.node_of_rank[me]) expected.push_back(r);
  EXPECT_EQ(members, expected);

  const bool lowest_on_host = expected.front() == me;
  EXPECT_EQ(levels.leaders(0) != MPI_COMM_NULL, lowest_on_host);
  if (levels.leaders(0) != MPI_COMM_NULL) {
    const std::vector<std::string> leader_hosts = host_names(levels.leaders(0));
    std::vector<std::string> distinct = leader_hosts;
    std::sort(distinct.begin(), distinct.end());
    EXPECT_EQ(std::unique(distinct.begin(), distinct.end()), distinct.end());
    EXPECT_EQ(leader_hosts.size(), h.ranks_on_node.size());
  }
}

// A decomposition without a machine detects one: its node indices are the hosts, and two
// ranks are separated at the node level exactly when they run on different hosts, whatever
// order the launcher gave the ranks (--map-by slot or node).
TEST(ClusterDetect, DecompositionSeparatesRanksByHost) {
  const Hosts h = world_hosts();
  const hcart::Decomposition d(
      MPI_COMM_WORLD, hcart::test::make_spec({48, 48, 48}, {1, 1, 1}, {false, false, false}));
  EXPECT_EQ(d.report().machine_source, "detected");
  ASSERT_GE(d.machine().level_count(), 1);
  EXPECT_EQ(d.machine().levels()[0].name, "node");
  for (int a = 0; a < d.size(); ++a) {
    const int host_a = h.node_of_rank[d.original_rank(a)];
    EXPECT_EQ(d.unit_indices_of(a)[0], host_a) << "cart rank " << a;
    for (int b = 0; b < d.size(); ++b) {
      const bool same_host = host_a == h.node_of_rank[d.original_rank(b)];
      EXPECT_EQ(d.separating_level(a, b) == 0, !same_host) << "cart ranks " << a << ", " << b;
    }
  }
}
