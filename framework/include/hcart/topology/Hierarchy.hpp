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
// The levels are found on one node of each kind (nodes whose ranks have the same facts in
// the same order): detection gathers per-node summaries through the node leaders, never
// every rank's facts on every rank (docs/design.md, 'The hardware hierarchy').
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

/// \brief What the nodes report, O(nodes) plus the kinds' ranks: the kinds of node (each a
/// node's ranks' facts in the order of their world ranks, the node index ignored), every
/// node's kind, and how the world ranks sit on the nodes (for LaunchOrder::Table,
/// world_node[r] is world rank r's node).
struct NodeFactsSummary {
  std::vector<std::vector<RankFacts>> kinds;
  std::vector<int> node_kind;
  LaunchOrder order = LaunchOrder::NodeRuns;
  std::vector<int> world_node;
};

/// \brief The summary of the facts of ranks 0 .. facts.size()-1 (facts[r].node is rank r's
/// node): nodes with the same facts in the same order share a kind.
/// \throws hcart::InputError for an empty list or node indices that are not 0 .. N-1.
NodeFactsSummary summarize_facts(const std::vector<RankFacts>& facts);

/// \brief Builds the hierarchy from the nodes' summary: the levels are found on one node of
/// each kind, so the work and memory grow with the kinds' ranks, not with every rank.
/// \throws hcart::InputError for no kinds, an empty kind, or a node of no kind.
DetectedHierarchy build_hierarchy(const NodeFactsSummary& summary);

/// \brief Builds the hierarchy from the facts of ranks 0 .. facts.size()-1:
/// build_hierarchy(summarize_facts(facts)).
/// \throws hcart::InputError for an empty list or node indices that are not 0 .. N-1.
DetectedHierarchy build_hierarchy(const std::vector<RankFacts>& facts);

} // namespace hcart
