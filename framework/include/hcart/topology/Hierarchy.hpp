// hcart::build_hierarchy: from every rank's hardware facts to a symmetric machine
// hierarchy the planner can use (docs/design.md, 'The hardware hierarchy').
//
// The node level is used when every node holds the same number of ranks. Inside the nodes,
// package ("socket"), NUMA node, L3 and core are tried in turn; a type becomes a level when
// every rank is bound inside one object of that type, the objects nest inside the units of
// the level above, and every unit of the level above holds the same number of them with
// the same number of ranks each. A type that would not split anything is skipped. What is
// left below the finest level (ranks sharing a unit) becomes a final level "rank". Every
// level that cannot be proven symmetric is left out, and a note says which and why:
// nothing is dropped silently.
//
// Pure: the facts may come from MPI (topology/Detect.hpp) or from tests with hwloc
// synthetic topologies.
#pragma once

#include <hcart/mapping/Machine.hpp>
#include <hcart/topology/HardwareFacts.hpp>

#include <string>
#include <vector>

namespace hcart {

struct DetectedHierarchy {
  Machine machine = Machine::flat(1); ///< measured unit table, source "detected"
  std::vector<std::string> notes;     ///< each level left out and why
};

/// \brief Builds the hierarchy from the facts of ranks 0 .. facts.size()-1.
/// \throws hcart::InputError for an empty list or node indices that are not 0 .. N-1.
DetectedHierarchy build_hierarchy(const std::vector<RankFacts>& facts);

} // namespace hcart
