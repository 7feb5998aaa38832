#include "topology/Hwloc.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Communicator.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/topology/Detect.hpp>
#include <hcart/topology/Network.hpp>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace hcart {

namespace {

RankFacts local_facts(int node) {
  impl::HwlocTopology topology;
  HCART_HWLOC_CHECK(hwloc_topology_load(topology.get()));
  impl::HwlocBitmap binding;
  if (hwloc_get_cpubind(topology.get(), binding.get(), HWLOC_CPUBIND_PROCESS) < 0 &&
      hwloc_get_cpubind(topology.get(), binding.get(), HWLOC_CPUBIND_THREAD) < 0) {
    hwloc_bitmap_zero(binding.get()); // binding unknown: treated as unbound
  }
  return facts_from_binding(topology.get(), binding.get(), node);
}

// FNV-1a over a node's packed facts: leaders compare kinds by this key, then check it.
std::uint64_t fingerprint(const std::vector<int>& packed) {
  std::uint64_t h = 1469598103934665603ULL;
  for (int v : packed)
    for (int b = 0; b < 4; ++b) {
      h ^= (static_cast<std::uint32_t>(v) >> (8 * b)) & 0xffU;
      h *= 1099511628211ULL;
    }
  return h;
}

// What the node leaders agree on and send to their nodes: every node's kind, the kinds'
// packed facts, the launch order. As ints: order, N, K, node_kind[N], then per kind its
// rank count and facts.
std::vector<int> leaders_summary(MPI_Comm leaders, const std::vector<int>& node_facts,
                                 const std::vector<int>& node_world) {
  int node = 0, nodes = 1;
  HCART_MPI_CHECK(MPI_Comm_rank(leaders, &node));
  HCART_MPI_CHECK(MPI_Comm_size(leaders, &nodes));
  const auto count = static_cast<std::int64_t>(node_world.size());
  // Every node's (fingerprint, rank count): O(nodes).
  const std::uint64_t mine[2] = {fingerprint(node_facts), static_cast<std::uint64_t>(count)};
  std::vector<std::uint64_t> keys(2 * static_cast<std::size_t>(nodes));
  HCART_MPI_CHECK(MPI_Allgather(mine, 2, MPI_UINT64_T, keys.data(), 2, MPI_UINT64_T, leaders));
  std::vector<int> node_kind(nodes), first_of_kind;
  std::map<std::pair<std::uint64_t, std::uint64_t>, int> kind_of;
  std::vector<std::int64_t> first(nodes + 1, 0);
  for (int u = 0; u < nodes; ++u) {
    const auto [it, fresh] = kind_of.emplace(std::make_pair(keys[2 * u], keys[2 * u + 1]),
                                             static_cast<int>(first_of_kind.size()));
    if (fresh) first_of_kind.push_back(u);
    node_kind[u] = it->second;
    first[u + 1] = first[u] + static_cast<std::int64_t>(keys[2 * u + 1]);
  }
  // The launch order: node runs, round-robin, or neither (then every rank sends its node).
  bool runs = true, round_robin = true;
  for (std::int64_t j = 0; j < count; ++j) {
    runs = runs && node_world[j] == first[node] + j;
    round_robin = round_robin && node_world[j] == node + j * nodes;
  }
  for (int u = 0; u < nodes; ++u)
    round_robin = round_robin && keys[2 * u + 1] == keys[1];
  int flags[2] = {runs ? 1 : 0, round_robin ? 1 : 0};
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, flags, 2, MPI_INT, MPI_LAND, leaders));
  const LaunchOrder order = flags[0]   ? LaunchOrder::NodeRuns
                            : flags[1] ? LaunchOrder::RoundRobin
                                       : LaunchOrder::Table;
  // The facts of the first node of each kind, gathered on every leader.
  auto gather_kinds = [&](const std::vector<int>& senders) {
    std::vector<int> counts(nodes, 0), offsets(nodes, 0);
    for (int u : senders)
      counts[u] = static_cast<int>(keys[2 * u + 1]) * fact_ints;
    for (int u = 1; u < nodes; ++u)
      offsets[u] = offsets[u - 1] + counts[u - 1];
    std::vector<int> all(static_cast<std::size_t>(offsets[nodes - 1] + counts[nodes - 1]));
    const bool sends = counts[node] > 0;
    HCART_MPI_CHECK(MPI_Allgatherv(node_facts.data(), sends ? counts[node] : 0, MPI_INT, all.data(),
                                   counts.data(), offsets.data(), MPI_INT, leaders));
    return std::make_pair(all, offsets);
  };
  auto [kind_facts, offsets] = gather_kinds(first_of_kind);
  // A fingerprint shared by different facts would merge two kinds: each leader checks its
  // own against its kind's; then every node is its own kind (exact, O(ranks)).
  const int* own = kind_facts.data() + offsets[first_of_kind[node_kind[node]]];
  int collision = std::equal(node_facts.begin(), node_facts.end(), own) ? 0 : 1;
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &collision, 1, MPI_INT, MPI_LOR, leaders));
  if (collision != 0) {
    first_of_kind.resize(nodes);
    for (int u = 0; u < nodes; ++u)
      first_of_kind[u] = node_kind[u] = u;
    std::tie(kind_facts, offsets) = gather_kinds(first_of_kind);
  }
  std::vector<int> out{static_cast<int>(order), nodes, static_cast<int>(first_of_kind.size())};
  out.insert(out.end(), node_kind.begin(), node_kind.end());
  for (int u : first_of_kind) {
    out.push_back(static_cast<int>(keys[2 * u + 1]));
    out.insert(out.end(), kind_facts.begin() + offsets[u],
               kind_facts.begin() + offsets[u] + keys[2 * u + 1] * fact_ints);
  }
  return out;
}

// This node's switches (coarse first) and where they came from: the topology file named
// by HCART_TOPOLOGY_FILE (looked up by host name), else Slurm's per-task address.
// Empty when there is none; *why then says so. \throws hcart::InputError for a topology
// file that cannot be read or is malformed.
std::vector<std::string> node_switch_path(std::string* source, std::string* why) {
  const char* file = std::getenv("HCART_TOPOLOGY_FILE");
  if (file != nullptr && *file != '\0') {
    const TopologyFile topo = read_topology_file(file);
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
    std::string name = host;
    auto path = topo.switch_path(name);
    if (path.empty()) path = topo.switch_path(name.substr(0, name.find('.'))); // short name
    *source = std::string("topology file ") + file;
    if (path.empty()) *why = "host '" + name + "' is not in topology file " + file;
    return path;
  }
  const char* address = std::getenv("SLURM_TOPOLOGY_ADDR");
  if (address == nullptr) return {}; // no network named: nothing to say
  *source = "Slurm (SLURM_TOPOLOGY_ADDR)";
  const auto path = slurm_switch_path(address, std::getenv("SLURM_TOPOLOGY_ADDR_PATTERN"), why);
  return path ? *path : std::vector<std::string>{};
}

// The network above the nodes: every node leader's switch path, gathered among the leaders
// (O(nodes)) and sent to its node; every rank then puts the same levels above the nodes.
void add_network(DetectedHierarchy& result, MPI_Comm comm, MPI_Comm node_comm,
                 MPI_Comm leaders_comm) {
  std::string blob; // per node: source, why, then the switches, each ending in '\n'
  agree_on_errors(comm, [&] {
    if (leaders_comm == MPI_COMM_NULL) return;
    std::string source, why;
    const auto path = node_switch_path(&source, &why);
    blob = source + "\n" + why + "\n";
    for (const auto& s : path)
      blob += s + "\n";
    blob += "\x1f"; // the end of a node
  });
  if (leaders_comm != MPI_COMM_NULL) blob = impl::allgather_text(leaders_comm, blob);
  int length = static_cast<int>(blob.size());
  HCART_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, 0, node_comm));
  blob.resize(length);
  HCART_MPI_CHECK(MPI_Bcast(blob.data(), length, MPI_CHAR, 0, node_comm));

  std::vector<std::vector<std::string>> paths;
  std::string source, why;
  std::int64_t missing = 0;
  std::istringstream nodes_in(blob);
  std::string node_text;
  while (std::getline(nodes_in, node_text, '\x1f')) {
    std::istringstream lines(node_text);
    std::string node_source, node_why, s;
    std::getline(lines, node_source);
    std::getline(lines, node_why);
    std::vector<std::string> path;
    while (std::getline(lines, s))
      path.push_back(s);
    if (source.empty()) source = node_source;
    if (why.empty() && !node_why.empty()) why = node_why;
    missing += path.empty() ? 1 : 0;
    paths.push_back(std::move(path));
  }
  if (source.empty()) return; // no topology named anywhere: the nodes are the top
  if (missing > 0) {
    result.notes.push_back("no network level: " + std::to_string(missing) + " of " +
                           std::to_string(paths.size()) + " nodes have no switch from " + source +
                           (why.empty() ? std::string() : " (" + why + ")"));
    return;
  }
  std::string note;
  const NetworkLevels net = network_levels(paths, &note);
  if (net.names.empty()) {
    result.notes.push_back(note + " (from " + source + ")");
    return;
  }
  result.machine = result.machine.with_network(net.names, net.node_units);
  result.notes.push_back("network levels from " + source + ": " + result.machine.to_string());
}

} // namespace

int bound_processing_units() {
  impl::HwlocTopology topology;
  if (hwloc_topology_load(topology.get()) < 0) return -1;
  impl::HwlocBitmap binding;
  if (hwloc_get_cpubind(topology.get(), binding.get(), HWLOC_CPUBIND_PROCESS) < 0) return -1;
  return hwloc_bitmap_weight(binding.get());
}

DetectedHierarchy detect_machine(MPI_Comm comm) {
  int rank = 0;
  HCART_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  // The nodes (ranks sharing memory) and their leaders (each node's lowest rank); a node's
  // index is its leader's rank among the leaders.
  MPI_Comm node_comm = MPI_COMM_NULL, leaders_comm = MPI_COMM_NULL;
  HCART_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node_comm));
  const Communicator node_owner(node_comm);
  int node_rank = 0, node_size = 1;
  HCART_MPI_CHECK(MPI_Comm_rank(node_comm, &node_rank));
  HCART_MPI_CHECK(MPI_Comm_size(node_comm, &node_size));
  HCART_MPI_CHECK(MPI_Comm_split(comm, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders_comm));
  const Communicator leaders_owner(leaders_comm);
  int node = 0;
  if (leaders_comm != MPI_COMM_NULL) HCART_MPI_CHECK(MPI_Comm_rank(leaders_comm, &node));
  HCART_MPI_CHECK(MPI_Bcast(&node, 1, MPI_INT, 0, node_comm));

  RankFacts facts;
  agree_on_errors(comm, [&] { facts = local_facts(node); });
  // The node's facts and world ranks, in node-rank order (= world order), at its leader.
  int packed[fact_ints];
  facts_to_ints(facts, packed);
  std::vector<int> node_facts(node_rank == 0 ? node_size * fact_ints : 0);
  std::vector<int> node_world(node_rank == 0 ? node_size : 0);
  HCART_MPI_CHECK(
      MPI_Gather(packed, fact_ints, MPI_INT, node_facts.data(), fact_ints, MPI_INT, 0, node_comm));
  HCART_MPI_CHECK(MPI_Gather(&rank, 1, MPI_INT, node_world.data(), 1, MPI_INT, 0, node_comm));

  std::vector<int> summary;
  if (node_rank == 0) summary = leaders_summary(leaders_comm, node_facts, node_world);
  int length = static_cast<int>(summary.size());
  HCART_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, 0, node_comm));
  summary.resize(length);
  HCART_MPI_CHECK(MPI_Bcast(summary.data(), length, MPI_INT, 0, node_comm));

  NodeFactsSummary s;
  s.order = static_cast<LaunchOrder>(summary[0]);
  const int nodes = summary[1], kinds = summary[2];
  s.node_kind.assign(summary.begin() + 3, summary.begin() + 3 + nodes);
  std::size_t at = 3 + static_cast<std::size_t>(nodes);
  for (int k = 0; k < kinds; ++k) {
    const int ranks = summary[at++];
    std::vector<RankFacts> kind;
    for (int j = 0; j < ranks; ++j, at += fact_ints)
      kind.push_back(facts_from_ints(summary.data() + at));
    s.kinds.push_back(std::move(kind));
  }
  if (s.order == LaunchOrder::Table) {
    // Ranks on the nodes in no order hcart knows: every rank's node, O(ranks) on each.
    int size = 1;
    HCART_MPI_CHECK(MPI_Comm_size(comm, &size));
    s.world_node.resize(size);
    HCART_MPI_CHECK(MPI_Allgather(&node, 1, MPI_INT, s.world_node.data(), 1, MPI_INT, comm));
  }
  DetectedHierarchy result = build_hierarchy(s);
  if (s.order == LaunchOrder::Table) {
    result.notes.push_back("ranks sit on the nodes in no order hcart knows (neither runs of "
                           "consecutive ranks nor round-robin): every rank keeps every rank's "
                           "node");
  }
  add_network(result, comm, node_comm, leaders_comm);
  return result;
}

MachineDescription machine_description(const std::string& description, const std::string& origin) {
  if (!description.empty()) return {description, origin};
  const char* env = std::getenv("HCART_MACHINE");
  if (env != nullptr && *env != '\0') return {env, "HCART_MACHINE"};
  return {};
}

DetectedHierarchy resolve_machine(MPI_Comm comm, const std::string& description,
                                  Placement placement) {
  const auto [text, origin] = machine_description(description, "the decomposition options");
  if (text.empty()) return detect_machine(comm);
  int size = 1;
  HCART_MPI_CHECK(MPI_Comm_size(comm, &size));
  DetectedHierarchy result;
  agree_on_errors(comm, [&] {
    result.machine = Machine::parse(text, placement);
    HCART_REQUIRE(result.machine.ranks() == size,
                  "machine '" << text << "' (from " << origin << ") has " << result.machine.ranks()
                              << " ranks, but the communicator has " << size);
  });
  result.notes.push_back("synthetic machine from " + origin);
  return result;
}

} // namespace hcart
