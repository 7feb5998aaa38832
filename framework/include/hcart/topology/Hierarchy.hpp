// hcart::build_hierarchy: from every rank's hardware facts to the machine hierarchy the
// planner uses (docs/design.md, 'The hardware hierarchy').
//
// The nodes are always the first level, whether they hold the same number of ranks or not
// (an uneven level: a partly filled last node, a mixed partition). Inside the nodes,
// package ("socket"), NUMA node, L3 and core are tried in turn; a type becomes a level when
// every rank is bound inside one object of that type and the objects nest inside the units
// of the level above; units holding different numbers of them, or of ranks, make the level
// uneven. A type that would not split anything is skipped. What is left below the finest
// level (ranks sharing a unit) becomes a final level "rank". A note says which levels were
// left out and why, and which are uneven: nothing is dropped silently.
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
