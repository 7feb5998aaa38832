#include "topology/Hwloc.hpp"

#include <hcart/topology/HardwareFacts.hpp>

namespace hcart {

std::string level_name(HardwareLevel level) {
  switch (level) {
  case HardwareLevel::Package: return "socket";
  case HardwareLevel::Numa: return "numa";
  case HardwareLevel::L3: return "l3";
  case HardwareLevel::Core: return "core";
  }
  return "unknown";
}

RankFacts facts_from_binding(hwloc_topology_t topology, hwloc_const_cpuset_t binding, int node) {
  RankFacts facts;
  facts.node = node;
  if (binding == nullptr || hwloc_bitmap_iszero(binding)) return facts;
  const hwloc_const_cpuset_t everything = hwloc_topology_get_topology_cpuset(topology);
  facts.bound = !hwloc_bitmap_isincluded(everything, binding);
  const hwloc_obj_type_t types[hardware_level_count] = {HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE,
                                                        HWLOC_OBJ_L3CACHE, HWLOC_OBJ_CORE};
  for (int level = 0; level < hardware_level_count; ++level) {
    const int count = hwloc_get_nbobjs_by_type(topology, types[level]);
    for (int i = 0; i < count; ++i) {
      const hwloc_obj_t obj =
          hwloc_get_obj_by_type(topology, types[level], static_cast<unsigned>(i));
      if (obj != nullptr && obj->cpuset != nullptr &&
          hwloc_bitmap_isincluded(binding, obj->cpuset)) {
        facts.object[level] = static_cast<int>(obj->logical_index);
        break;
      }
    }
  }
  return facts;
}

} // namespace hcart
