// hcart::RankFacts: what one rank knows about where it runs, the raw material of the
// detected machine hierarchy (docs/design.md, 'The hardware hierarchy').
//
// The node comes from MPI (ranks sharing memory); inside the node, for each hardware
// object type hcart may use as a level (package, NUMA node, L3 cache, core), the logical
// index of the object of that type whose CPU set contains the rank's whole binding, or -1
// when the binding spans several such objects (or the rank is unbound).
//
// hcart reads them with hwloc (hcart::detect_hierarchy, topology/Detect.hpp); tests build
// them by hand or from hwloc synthetic topologies.
#pragma once

#include <array>
#include <string>

namespace hcart {

/// \brief The hardware object types tried as levels inside a node, coarse to fine.
enum class HardwareLevel { Package = 0, Numa = 1, L3 = 2, Core = 3 };
inline constexpr int hardware_level_count = 4;

/// \brief The level's name in machine descriptions: "socket", "numa", "l3", "core".
std::string level_name(HardwareLevel level);

struct RankFacts {
  int node = 0; ///< index of the rank's node, 0 .. nodes-1
  /// Per HardwareLevel: logical index of the object containing the binding, or -1.
  std::array<int, hardware_level_count> object{{-1, -1, -1, -1}};
  bool bound = false; ///< false when the binding covers the whole node
};

/// \brief A rank's facts as ints, the node left out: bound, then the object per level. Two
/// nodes are of one kind when their ranks' ints are the same in the same order (detection
/// gathers them; build_hierarchy's summary keys kinds by them).
inline constexpr int fact_ints = 1 + hardware_level_count;
inline void facts_to_ints(const RankFacts& f, int* out) {
  out[0] = f.bound ? 1 : 0;
  for (int l = 0; l < hardware_level_count; ++l)
    out[1 + l] = f.object[l];
}
/// \brief The facts of facts_to_ints (node 0).
inline RankFacts facts_from_ints(const int* in) {
  RankFacts f;
  f.bound = in[0] != 0;
  for (int l = 0; l < hardware_level_count; ++l)
    f.object[l] = in[1 + l];
  return f;
}

} // namespace hcart
