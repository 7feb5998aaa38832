// What Jacobi3D reports: one run's summary (timers, MLUP/s, halo traffic per level,
// decomposition), and the side-by-side table of compare mode.
#pragma once

#include "Compare.hpp"
#include "ExchangePrediction.hpp"
#include "JacobiSolver.hpp"
#include "Multigrid.hpp"

#include <hcart/core/Timers.hpp>
#include <hcart/grid/Decomposition.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace hcart::jacobi {

/// \brief What a report needs of a solver, the Jacobi or the multigrid one.
struct SolverFacts {
  double global_cells = 0;
  Settings settings;
  int threads_per_rank = 1;
  long passes = 0, starved_passes = 0;
  long iterations_per_pass = 1;
  std::array<int, 3> halo_width{};
  HaloCounters halo;               ///< this rank's, every exchanger
  std::vector<std::string> levels; ///< multigrid: the hierarchy, a line per level
  double initial_residual = -1;    ///< multigrid: the tolerance's reference
  /// multigrid: this rank's gathers and scatters between levels (GridHierarchy's counters
  /// bytes and messages per machine level; exchanges: the gathers and scatters)
  HaloCounters transfers;
};
SolverFacts facts_of(const Solver& solver);
SolverFacts facts_of(const Multigrid& solver);

/// \brief Everything about one finished run, identical on every rank after collect().
struct RunReport {
  std::string solver = "jacobi";   ///< "jacobi" or "multigrid"
  std::vector<std::string> levels; ///< multigrid: the hierarchy, a line per level
  double initial_residual = -1;
  double dofs_per_second = 0; ///< multigrid: unknowns solved per second (HPGMG's figure)
  std::string cycle;          ///< multigrid: e.g. "V(2,2), red-black Gauss-Seidel"
  long full_multigrid = 0;    ///< multigrid: cycles a level of a full-multigrid start (0: none)
  std::string strategy, machine, machine_source;
  std::vector<std::string> notes;
  std::array<int, 3> dims{};
  apps::DecompositionIdentity grid; ///< dims and placement, to tell identical decompositions apart
  std::vector<std::array<int, 3>> level_factors;
  std::string layout;    ///< Plan::describe_layout(): level factors, node boxes or world order
  std::string chosen_by; ///< Plan::chosen_by: which rule chose the plan
  Result result;
  double tolerance = 0; ///< the deck's (0: a fixed iteration count)
  double mlups = 0;
  std::string execution_space;  ///< Kokkos' default execution space, e.g. "OpenMP", "Cuda"
  int threads_per_rank = 1;     ///< host threads of each rank
  long iterations_per_pass = 1; ///< temporal blocking (1: none)
  std::array<int, 3> halo_width{};
  std::vector<Timers::Summary> timers;
  HaloCounters halo;                ///< summed over ranks: machine levels, then "self"
  HaloCounters transfers;           ///< multigrid: the level transfers, summed over ranks
  double compute_per_iteration = 0; ///< max over ranks, seconds
  double halo_per_iteration = 0;    ///< max over ranks of pack + wait + unpack, seconds
  /// multigrid, per cycle and max over ranks: the levels' smoothing and residuals (compute),
  /// exchanges (halo), restrictions and prolongations with their gathers and scatters
  double transfer_per_iteration = 0;
  apps::ExchangeTiming exchange; ///< per halo exchange, measured and (machine file) predicted
};

/// \brief Gathers the report of a finished run (collective over the decomposition).
RunReport collect(const Decomposition& decomp, const SolverFacts& solver, const Result& result,
                  const Timers& timers, const std::optional<MachineTimings>& timings);
void print_run(std::ostream& out, const RunReport& report);
nlohmann::json to_json(const RunReport& report, const std::string& deck);
/// \brief Compare mode's table: one column per strategy, over its repeated runs (min and
/// median); strategies with the same decomposition as an earlier one say so instead of a
/// saving.
void print_comparison(std::ostream& out, const std::vector<std::vector<RunReport>>& runs);

} // namespace hcart::jacobi
