// hcart::Machine: the hardware hierarchy as the planner sees it.
//
// Levels run from the coarsest (level 0, e.g. nodes) to the finest (each unit one rank):
// level l has `size` units inside every unit of level l-1, and the product of the sizes is
// the number of ranks. Every rank has a unit index per level (0 .. size-1 within its
// parent). The indices come either from a rule (a synthetic machine, "node:4 socket:2
// core:6", with Block or RoundRobin numbering of ranks) or from a table gathered from the
// hardware (topology/ detects it; see docs/design.md, 'The hardware hierarchy').
//
//   auto m = hcart::Machine::parse("node:2 socket:2 core:4", hcart::Placement::RoundRobin);
//   m.unit_indices(5);   // {1, 0, 2}: rank 5 is on node 1, socket 0, core 2
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

/// \brief One level of the hierarchy: its name and the number of its units per parent unit.
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

  /// \brief A machine whose unit indices were measured: unit_table[rank * L + l].
  /// \throws hcart::InputError when the table does not fit the levels.
  Machine(std::vector<MachineLevel> levels, std::vector<int> unit_table, std::string source);

  /// \brief Parses "name:count name:count ..." (coarse first; separated by spaces or
  /// commas), e.g. "node:4 socket:2 core:6". \throws hcart::InputError naming the text.
  static Machine parse(const std::string& text, Placement placement = Placement::Block);

  /// \brief One level, "core:P": a plain factorization of P ranks.
  static Machine flat(std::int64_t ranks);

  const std::vector<MachineLevel>& levels() const noexcept { return m_levels; }
  int level_count() const noexcept { return static_cast<int>(m_levels.size()); }
  /// \brief The number of ranks, prod of the level sizes.
  std::int64_t ranks() const noexcept { return m_ranks; }
  Placement placement() const noexcept { return m_placement; }
  /// \brief "synthetic" for rule-based machines, else what the table came from.
  const std::string& source() const noexcept { return m_source; }
  /// \brief True when unit indices come from a measured table rather than a rule.
  bool measured() const noexcept { return !m_table.empty(); }

  /// \brief The unit index of `rank` at every level, coarse first.
  std::vector<std::int64_t> unit_indices(std::int64_t rank) const;

  /// \brief "node:4 socket:2 core:6".
  std::string to_string() const;

private:
  std::vector<MachineLevel> m_levels;
  Placement m_placement = Placement::Block;
  std::vector<int> m_table;
  std::string m_source = "synthetic";
  std::int64_t m_ranks = 1;
};

/// \brief The coarsest level at which ranks with these unit indices sit in different units,
/// or the level count when they are the same rank (a local copy, no message).
int separating_level(const std::vector<std::int64_t>& units_a,
                     const std::vector<std::int64_t>& units_b);

} // namespace hcart
