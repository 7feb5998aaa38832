// Launcher files for codes that cannot change a line: a code that lays its process grid
// out in world order (MPI_Cart_create on given dims, ranks as launched) gets hcart's
// placement when the launcher puts each world rank where hcart's plan wants that rank's
// coordinates (docs/c-fortran.md, "A rankfile").
//
//   auto slots = hcart::apps::launch_slots(plan, machine);   // plan: the code's dims, fixed
//   std::cout << hcart::apps::openmpi_rankfile(slots, hosts);
#pragma once

#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Plan.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace hcart::apps {

/// \brief Where one world rank runs: a node (index into the host list) and a slot on it
/// (the rank's place in the node's block order: socket-major core order).
struct LaunchSlot {
  std::int64_t node = 0;
  std::int64_t slot = 0;
};

/// \brief Every block number's node and slot: the nodes (units of Machine::node_level(),
/// below any switches) numbered in block order across the machine.
std::vector<LaunchSlot> block_slots(const Machine& machine);

/// \brief For every world rank r of a code whose Cartesian rank is r (row-major on
/// plan.dims, no reordering), the slot hcart's plan gives the coordinates of rank r.
std::vector<LaunchSlot> launch_slots(const Plan& plan, const Machine& machine);

/// \brief Open MPI's rankfile: "rank R=HOST slot=S" per rank (mpirun --rankfile FILE).
std::string openmpi_rankfile(const std::vector<LaunchSlot>& slots,
                             const std::vector<std::string>& hosts);

/// \brief A machine file of one host per line in rank order (MPICH's Hydra: mpiexec -f FILE;
/// Slurm: SLURM_HOSTFILE=FILE srun --distribution=arbitrary).
std::string host_per_rank_file(const std::vector<LaunchSlot>& slots,
                               const std::vector<std::string>& hosts);

/// \brief The hosts of a comma-separated list, one per node of `machine`.
/// \throws hcart::InputError naming the list when the count differs or a name is empty.
std::vector<std::string> parse_hosts(const std::string& text, const Machine& machine);

} // namespace hcart::apps
