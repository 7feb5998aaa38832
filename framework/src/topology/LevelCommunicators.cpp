#include <hcart/core/MpiCheck.hpp>
#include <hcart/topology/LevelCommunicators.hpp>

namespace hcart {

LevelCommunicators::LevelCommunicators(MPI_Comm comm, const Machine& machine,
                                       std::int64_t machine_rank) {
  const std::vector<std::int64_t> units = machine.unit_indices(machine_rank);
  MPI_Comm parent = comm;
  for (int l = 0; l < machine.level_count(); ++l) {
    m_names.push_back(machine.levels()[l].name);
    m_units.push_back(machine.levels()[l].size);
    m_unit_index.push_back(units[l]);
    int parent_rank = 0;
    HCART_MPI_CHECK(MPI_Comm_rank(parent, &parent_rank));
    MPI_Comm unit = MPI_COMM_NULL;
    HCART_MPI_CHECK(MPI_Comm_split(parent, static_cast<int>(units[l]), parent_rank, &unit));
    int unit_rank = 0;
    HCART_MPI_CHECK(MPI_Comm_rank(unit, &unit_rank));
    MPI_Comm leaders = MPI_COMM_NULL;
    HCART_MPI_CHECK(MPI_Comm_split(parent, unit_rank == 0 ? 0 : MPI_UNDEFINED,
                                   static_cast<int>(units[l]), &leaders));
    m_unit.emplace_back(unit);
    m_leaders.emplace_back(leaders);
    parent = unit;
  }
}

} // namespace hcart
