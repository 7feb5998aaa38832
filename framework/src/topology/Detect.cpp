#include "topology/Hwloc.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/topology/Detect.hpp>

#include <cstdlib>
#include <vector>

namespace hcart {

namespace {

// Index of this rank's node: its rank among the node leaders (the lowest world rank of
// each node), shared with the whole node.
int node_index(MPI_Comm comm) {
  int rank = 0;
  HCART_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  MPI_Comm node = MPI_COMM_NULL, leaders = MPI_COMM_NULL;
  HCART_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  int node_rank = 0;
  HCART_MPI_CHECK(MPI_Comm_rank(node, &node_rank));
  HCART_MPI_CHECK(MPI_Comm_split(comm, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders));
  int index = 0;
  if (leaders != MPI_COMM_NULL) {
    HCART_MPI_CHECK(MPI_Comm_rank(leaders, &index));
    HCART_MPI_CHECK(MPI_Comm_free(&leaders));
  }
  HCART_MPI_CHECK(MPI_Bcast(&index, 1, MPI_INT, 0, node));
  HCART_MPI_CHECK(MPI_Comm_free(&node));
  return index;
}

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

} // namespace

int bound_processing_units() {
  impl::HwlocTopology topology;
  if (hwloc_topology_load(topology.get()) < 0) return -1;
  impl::HwlocBitmap binding;
  if (hwloc_get_cpubind(topology.get(), binding.get(), HWLOC_CPUBIND_PROCESS) < 0) return -1;
  return hwloc_bitmap_weight(binding.get());
}

DetectedHierarchy detect_machine(MPI_Comm comm) {
  const int node = node_index(comm);
  RankFacts mine;
  agree_on_errors(comm, [&] { mine = local_facts(node); });
  int size = 1;
  HCART_MPI_CHECK(MPI_Comm_size(comm, &size));
  constexpr int fields = 2 + hardware_level_count;
  int packed[fields] = {mine.node, mine.bound ? 1 : 0};
  for (int l = 0; l < hardware_level_count; ++l)
    packed[2 + l] = mine.object[l];
  std::vector<int> all(static_cast<std::size_t>(fields) * size);
  HCART_MPI_CHECK(MPI_Allgather(packed, fields, MPI_INT, all.data(), fields, MPI_INT, comm));
  std::vector<RankFacts> facts(size);
  for (int r = 0; r < size; ++r) {
    const int* p = all.data() + static_cast<std::size_t>(r) * fields;
    facts[r].node = p[0];
    facts[r].bound = p[1] != 0;
    for (int l = 0; l < hardware_level_count; ++l)
      facts[r].object[l] = p[2 + l];
  }
  return build_hierarchy(facts);
}

DetectedHierarchy resolve_machine(MPI_Comm comm, const std::string& description,
                                  Placement placement) {
  std::string text = description;
  std::string origin = "the decomposition options";
  if (text.empty()) {
    const char* env = std::getenv("HCART_MACHINE");
    if (env != nullptr && *env != '\0') {
      text = env;
      origin = "HCART_MACHINE";
    }
  }
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
