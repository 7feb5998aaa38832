// hcart::LevelCommunicators: a communicator per hardware level, for users who want to
// organise their own communication by the hierarchy (the hierarchical-split idea proposed
// for MPI).
//
// For every level l of the machine, coarse first:
//   unit(l)     the ranks that share this rank's unit of level l (same node; same node and
//               socket; ...), ordered by rank in the parent communicator
//   leaders(l)  for the rank of lowest rank in its level-l unit: the leaders of all
//               level-l units inside the same level-(l-1) unit (for l = 0: all node
//               leaders); MPI_COMM_NULL on every other rank
//   name(l), units(l) (units per parent unit) and unit_index(l) of this rank.
//
//   hcart::LevelCommunicators levels(decomp.comm(), decomp.machine(), decomp.comm_rank_of...);
#pragma once

#include <hcart/core/Communicator.hpp>
#include <hcart/mapping/Machine.hpp>

#include <mpi.h>

#include <string>
#include <vector>

namespace hcart {

class LevelCommunicators {
public:
  /// \brief Splits `comm` by the units of `machine`; `machine_rank` is this rank's index in
  /// the machine (its rank in the communicator the machine was detected on). Collective.
  LevelCommunicators(MPI_Comm comm, const Machine& machine, std::int64_t machine_rank);

  int level_count() const noexcept { return static_cast<int>(m_names.size()); }
  const std::string& name(int level) const { return m_names.at(level); }
  std::int64_t units(int level) const { return m_units.at(level); }
  std::int64_t unit_index(int level) const { return m_unit_index.at(level); }
  /// \brief The ranks sharing this rank's unit of `level`.
  MPI_Comm unit(int level) const { return m_unit.at(level).get(); }
  /// \brief The leaders of the sibling units of `level`, or MPI_COMM_NULL on non-leaders.
  MPI_Comm leaders(int level) const { return m_leaders.at(level).get(); }

private:
  std::vector<std::string> m_names;
  std::vector<std::int64_t> m_units, m_unit_index;
  std::vector<Communicator> m_unit, m_leaders;
};

} // namespace hcart
