// hcart::Machine: the hardware hierarchy as the planner sees it.
//
// Levels run from the coarsest (level 0, e.g. nodes) to the finest (each unit one rank).
// Every rank has a unit index per level (0 .. size-1 within its parent). On an even machine
// level l has `size` units inside every unit of level l-1 and the product of the sizes is
// the number of ranks. On an uneven machine units of a level hold different numbers of
// units or ranks (nodes holding 4, 4 and 2 ranks: Slurm's partly filled last node, mixed
// partitions); `size` is then the most units any parent holds and node_ranks() says what
// each node holds. The indices come either from a rule (a synthetic machine, "node:4
// socket:2 core:6", with Block or RoundRobin numbering of ranks) or from kinds of node: the
// unit indices of one node's ranks, shared by every node that has the same, and how the world
// ranks sit on the nodes (topology/ detects them; "node:[4,4,2] core:4" makes them; see
// docs/design.md, 'The hardware hierarchy'). A machine of N nodes and K kinds holds O(N) plus
// the kinds' ranks, not a table of every rank, unless the launch put the ranks on the nodes
// in no order hcart knows (LaunchOrder::Table).
//
//   auto m = hcart::Machine::parse("node:2 socket:2 core:4", hcart::Placement::RoundRobin);
//   m.unit_indices(5);   // {1, 0, 2}: rank 5 is on node 1, socket 0, core 2
//   auto u = hcart::Machine::parse("node:[4,4,2] socket:2 core:2");
//   u.even();            // false; u.node_ranks() is {4, 4, 2}; u.unit_indices(9) {2, 0, 1}
//
// Levels above the node (the network: leaf switches of a fat tree, dragonfly groups) are
// levels like any other, coarser than the node: "switch:2 node:4 core:8" is 2 switches of 4
// nodes. Level 0 is then a switch, and what this class calls a node (kinds of node, the
// launch order, node_ranks()) is a unit of level 0; node_level() says which level holds the
// nodes. with_network() puts a network above a machine's nodes (from Slurm's per-task
// addresses or a topology file, topology/Network.hpp).
//
//   auto s = hcart::Machine::parse("switch:[3,2] node:[8x5] core:8");
//   s.node_level();       // 1; s.unit_indices(30) {1, 0, 6}: switch 1, its node 0, core 6
//
// Pure C++: no MPI or hwloc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hcart {

/// \brief How the ranks of a synthetic machine are numbered.
enum class Placement {
  Block,     ///< consecutive ranks fill a node, then the next (mpirun --map-by core)
  RoundRobin ///< rank r on node r mod N0; the ranks of a node fill it in block order
};

/// \brief "block" or "round-robin".
std::string to_string(Placement placement);
/// \brief Parses "block" or "round-robin" (also "roundrobin", "round_robin").
/// \throws hcart::InputError naming the text.
Placement parse_placement(const std::string& text);

/// \brief How the world ranks of a machine built from kinds of node sit on its nodes.
enum class LaunchOrder {
  NodeRuns,   ///< node u holds consecutive world ranks, node 0 the first (a block launch)
  RoundRobin, ///< every node holds the same count, world rank r is on node r mod N
  Table       ///< any other: the node of every world rank is kept (O(ranks) memory)
};

/// \brief "node runs", "round-robin" or "table".
std::string to_string(LaunchOrder order);

/// \brief One level of the hierarchy: its name and the number of its units per parent unit
/// (on an uneven machine, the most units any parent unit holds).
struct MachineLevel {
  std::string name;
  std::int64_t size = 1;
};

class Machine {
public:
  /// \brief A synthetic machine with the given levels and rank numbering.
  /// \throws hcart::InputError for no levels, a size < 1, an empty or duplicate name, or
  /// more than 2^31-1 ranks.
  Machine(std::vector<MachineLevel> levels, Placement placement = Placement::Block);

  /// \brief A machine whose unit indices were measured: unit_table[rank * L + l], the ranks
  /// being table.size() / L. The machine is even when every combination of indices below
  /// the level sizes is some rank's, uneven otherwise. It keeps the kinds of node and the
  /// launch order found in the table (the constructor below), not the table.
  /// \throws hcart::InputError when the table does not fit the levels (an index outside its
  /// level's size, two ranks with the same indices, a node index no rank has).
  Machine(std::vector<MachineLevel> levels, std::vector<int> unit_table, std::string source);

  /// \brief A machine from kinds of node: node u is of kind node_kind[u], and kinds[k] lists
  /// the unit indices below the node level (levels 1 .. L-1) of such a node's ranks, L-1 per
  /// rank, in the order of their world ranks. `order` says how the world ranks sit on the
  /// nodes; for LaunchOrder::Table, world_node[r] is world rank r's node (a table that
  /// follows node runs or round-robin is recognised and not kept). levels[0].size is the
  /// node count. \throws hcart::InputError for kinds or nodes that do not fit the levels
  /// (an index outside its level's size, two ranks of a node with the same indices, an
  /// empty kind, a kind index out of range, a round-robin order on nodes of different
  /// counts, a table that does not fill every node with its kind's ranks).
  Machine(std::vector<MachineLevel> levels, std::vector<std::vector<int>> kinds,
          std::vector<int> node_kind, LaunchOrder order, const std::vector<int>& world_node,
          std::string source);

  /// \brief A synthetic machine whose node u holds node_ranks[u] ranks; `inner` (the levels
  /// below the node, coarse first) describes a whole node, and a node holding fewer ranks
  /// fills its units in block order (the last one partly, as a launcher filling cores in
  /// turn). Block placement fills the nodes in turn, round-robin deals the ranks to the nodes
  /// that still have room in turn. The level sizes become the most units that are used.
  /// \throws hcart::InputError for no nodes, a node of fewer than 1 or more ranks than a
  /// whole node, or more than uneven_max_ranks ranks.
  static Machine with_node_ranks(const std::vector<std::int64_t>& node_ranks,
                                 const std::vector<MachineLevel>& inner,
                                 Placement placement = Placement::Block,
                                 const std::string& node_level = "node");

  /// \brief Parses "name:count name:count ..." (coarse first; separated by spaces or
  /// commas), e.g. "node:4 socket:2 core:6"; a count is the units inside each unit of the
  /// level before. The node level may list its units' ranks instead, "node:[4,4,2] core:4"
  /// (an uneven machine, with_node_ranks), with "AxN" for N nodes of A ranks:
  /// "node:[16x3,8] socket:2 core:8". Levels above the node ("group", "switch") come first;
  /// one may list the units of the next level each of its units holds,
  /// "switch:[3,2] node:[8x5] core:8" (a level after a listed one lists its units too; a
  /// node list under counted switches is shared among them evenly, "switch:2
  /// node:[8,8,8,4]"). \throws hcart::InputError naming the text.
  static Machine parse(const std::string& text, Placement placement = Placement::Block);

  /// \brief One level, "core:P": a plain factorization of P ranks.
  static Machine flat(std::int64_t ranks);

  /// \brief This machine with network levels above its nodes (its level 0): `names` (coarse
  /// first) and, for every node u, node_units[u][k], the unit of level k that holds it (any
  /// distinct non-negative ids). The units must nest (nodes in one unit of level k share
  /// their unit of level k-1). A unit's index within its parent follows its lowest node;
  /// the nodes are renumbered by unit (node u keeps its ranks). The launch order is node
  /// runs when every unit of level 0 holds consecutive world ranks, else a table (at most
  /// uneven_max_ranks ranks). \throws hcart::InputError for a wrong count of nodes or ids,
  /// a negative id, units that do not nest, or a name the machine already has.
  Machine with_network(const std::vector<std::string>& names,
                       const std::vector<std::vector<std::int64_t>>& node_units) const;

  /// \brief This machine as if the nodes were its top level: the network's levels dropped,
  /// the same world ranks on the same nodes (numbered in block order), the same levels
  /// inside them, every rank's block number unchanged. Builds a table of every rank
  /// (O(ranks)) when there is a network; *this otherwise. For comparing a plan made for the
  /// nodes alone, and for counting the nodes below the switches.
  Machine without_network() const;

  /// \brief The level that holds the nodes: after the network levels (with_network, or the
  /// level named "node"), else 0.
  int node_level() const noexcept { return m_node_level; }

  const std::vector<MachineLevel>& levels() const noexcept { return m_levels; }
  int level_count() const noexcept { return static_cast<int>(m_levels.size()); }
  /// \brief The number of ranks, prod of the level sizes.
  std::int64_t ranks() const noexcept { return m_ranks; }
  Placement placement() const noexcept { return m_placement; }
  /// \brief "synthetic" for rule-based machines, else what the table came from.
  const std::string& source() const noexcept { return m_source; }
  /// \brief True when unit indices come from kinds of node (measured, or an uneven
  /// synthetic machine's) rather than a rule.
  bool measured() const noexcept { return !m_kinds.empty(); }
  /// \brief How the world ranks sit on the nodes (a rule machine: NodeRuns for Block
  /// placement, RoundRobin for round-robin).
  LaunchOrder launch_order() const noexcept { return m_order; }
  /// \brief True when every unit of a level holds the same number of units of the next
  /// (the product of the level sizes is the number of ranks).
  bool even() const noexcept { return m_even; }
  /// \brief The ranks node u (unit u of level 0) holds.
  std::int64_t ranks_on_node(std::int64_t node) const;
  /// \brief The ranks every node holds, node 0 first.
  std::vector<std::int64_t> node_ranks() const;

  /// \brief The unit index of `rank` at every level, coarse first.
  std::vector<std::int64_t> unit_indices(std::int64_t rank) const;

  /// \brief The rank's place when the ranks are ordered by their unit indices (coarse level
  /// first; on an even machine the mixed-radix number of the indices): every unit holds a
  /// run of consecutive block numbers, node u's from node_first_block(u).
  std::int64_t block_number(std::int64_t rank) const;
  /// \brief The first block number of node u's ranks.
  std::int64_t node_first_block(std::int64_t node) const;
  /// \brief The unit indices of the rank with block number `block` (coarse first).
  std::vector<std::int64_t> block_units(std::int64_t block) const;
  /// \brief The block number of the rank with these unit indices (the inverse of
  /// block_units). \throws hcart::InputError when no rank has them.
  std::int64_t block_of_units(const std::vector<std::int64_t>& units) const;
  /// \brief The world rank whose block number is `block` (the inverse of block_number).
  std::int64_t rank_of_block(std::int64_t block) const;
  /// \brief The node holding block number `block`.
  std::int64_t node_of_block(std::int64_t block) const;

  /// \brief Kinds of node: 1 on a rule machine. node_kind(u) is node u's kind, and
  /// kind_units(k) the unit indices below the node level of such a node's ranks in block
  /// order, L-1 per rank (empty on a rule machine: the mixed radix of the position).
  int kind_count() const noexcept { return m_kinds.empty() ? 1 : static_cast<int>(m_kinds.size()); }
  int node_kind(std::int64_t node) const;
  const std::vector<int>& kind_units(int kind) const;

  /// \brief The bytes this machine holds beyond its object (its kinds, node lists and any
  /// launch table): what every rank keeps of the hardware.
  std::int64_t footprint_bytes() const noexcept;

  /// \brief "node:4 socket:2 core:6"; an uneven node level as "node:[4x2,2]" (the finer
  /// levels' sizes are then the most units a parent holds).
  std::string to_string() const;

private:
  struct Kind {
    std::int64_t ranks = 0;
    std::vector<int> units;                   ///< L-1 per rank, block order (sorted)
    std::vector<std::int64_t> block_of_local; ///< world order on the node -> block order
    std::vector<std::int64_t> local_of_block; ///< the inverse
  };
  void set_launch(LaunchOrder order, const std::vector<int>& world_node);
  std::int64_t local_index(std::int64_t rank, std::int64_t* node) const;

  std::vector<MachineLevel> m_levels;
  Placement m_placement = Placement::Block;
  std::string m_source = "synthetic";
  std::int64_t m_ranks = 1;
  bool m_even = true;
  LaunchOrder m_order = LaunchOrder::NodeRuns;
  std::vector<Kind> m_kinds;               ///< empty: a rule machine
  std::vector<int> m_node_kind;            ///< kinds: every node's kind
  std::vector<std::int64_t> m_node_first;  ///< kinds: node u's first block number, N + 1
  std::vector<std::int64_t> m_world_block; ///< LaunchOrder::Table: world rank -> block
  std::vector<std::int64_t> m_block_world; ///< LaunchOrder::Table: block -> world rank
  int m_node_level = 0;
  std::string m_description; ///< to_string() of a machine with a network (else built)
};

/// \brief The most ranks a synthetic uneven machine may have.
inline constexpr std::int64_t uneven_max_ranks = std::int64_t{1} << 24;

/// \brief The coarsest level at which ranks with these unit indices sit in different units,
/// or the level count when they are the same rank (a local copy, no message).
int separating_level(const std::vector<std::int64_t>& units_a,
                     const std::vector<std::int64_t>& units_b);

} // namespace hcart
