// The network above the nodes (docs/design.md, 'The hardware hierarchy'): where each node
// sits among the switches, from Slurm's per-task variables or from a topology file in
// Slurm's topology.conf format, and the levels that makes (Machine::with_network).
//
//   // srun with the tree plugin: SLURM_TOPOLOGY_ADDR=s2.s0.tux3,
//   // SLURM_TOPOLOGY_ADDR_PATTERN=switch.switch.node
//   auto path = hcart::slurm_switch_path("s2.s0.tux3", "switch.switch.node", &why); // {s2, s0}
//   auto topo = hcart::read_topology_file("topology.conf");   // SwitchName=s0 Nodes=tux[0-3]
//   topo.switch_path("tux3");                                  // {"s2", "s0"}
//   auto net = hcart::network_levels({{"s2", "s0"}, {"s2", "s1"}}, &note);
//   // net.names {"switch"} (s2 holds every node: no level), net.node_units {{0}, {1}}
//
// Pure C++: detect_machine (topology/Detect.hpp) gathers every node's path through the node
// leaders and applies the levels.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hcart {

/// \brief The switches above a node, coarse first, from Slurm's SLURM_TOPOLOGY_ADDR and
/// SLURM_TOPOLOGY_ADDR_PATTERN (components joined by '.', the pattern naming each "switch"
/// or "node"); nullopt, with *why saying what is missing or malformed, when there is none.
std::optional<std::vector<std::string>> slurm_switch_path(const char* address, const char* pattern,
                                                          std::string* why);

/// \brief Slurm's hostlist expression: "tux[0-3,7],login1" is tux0 .. tux3, tux7, login1
/// (ranges keep their zero padding: n[01-03] is n01, n02, n03).
/// \throws hcart::InputError naming the text when malformed.
std::vector<std::string> expand_hostlist(const std::string& text);

/// \brief A topology file in Slurm's topology.conf format (the tree plugin): lines
/// "SwitchName=NAME Nodes=HOSTLIST" and "SwitchName=NAME Switches=HOSTLIST", other keys
/// (LinkSpeed) ignored, '#' to the end of a line a comment.
struct TopologyFile {
  std::string path;
  std::map<std::string, std::string> parent;      ///< switch -> the switch holding it
  std::map<std::string, std::string> node_switch; ///< host -> its leaf switch
  /// \brief The switches above `host`, coarse first; empty when the file does not list it.
  std::vector<std::string> switch_path(const std::string& host) const;
};

/// \brief Reads a topology file. \throws hcart::InputError naming the file and line for an
/// unreadable file, a line without SwitchName, a switch or node listed twice, a switch
/// that holds itself through its children, or a Switches= entry that names no switch.
TopologyFile read_topology_file(const std::string& path);

/// \brief The network levels of nodes 0 .. N-1 whose switch paths are node_paths (coarse
/// first): levels where every node shares one switch are dropped (a single root); the rest
/// are named, coarse first, ..., "group2", "group", "switch". node_units[u][k] is node u's
/// unit of level k (for Machine::with_network). Empty names, with *note saying why, when a
/// node has no path, the paths differ in length, or a switch sits under two parents.
struct NetworkLevels {
  std::vector<std::string> names;
  std::vector<std::vector<std::int64_t>> node_units;
};
NetworkLevels network_levels(const std::vector<std::vector<std::string>>& node_paths,
                             std::string* note);

} // namespace hcart
