// Jacobi3D's multigrid solver ([jacobi] solver = "multigrid"): hcart's multigrid solver
// (hcart/solvers/Multigrid.hpp) on a vertex-centred grid hierarchy (the unknowns are the
// interior points of the unit cube, the boundary points the halo), for the same discretisation
// and problems as the Jacobi solver: Delta u = rhs is the solver's -Delta u = f with f = -rhs
// (every value negated exactly, so the cycles' solutions are the bits of rhs's). This class
// adds what makes it an application: the problems' set-up, the run loop with its stopping
// test, progress, output, checkpoints and restart. The stopping measure is the true residual:
// after every cycle max |f - A u| over the finest level, against the tolerance times its
// value before the first cycle. The cycles, the field and the cycle count are bitwise the same
// on every rank count, strategy and agglomeration.
#pragma once

#include "JacobiConfig.hpp"
#include "JacobiSolver.hpp"
#include "RunFiles.hpp"

#include <hcart/core/Timers.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/solvers/Multigrid.hpp>

#include <functional>
#include <string>

namespace hcart::jacobi {

/// \brief The hierarchy a multigrid run of `settings` on `spec` uses.
HierarchyOptions hierarchy_options(const MultigridSettings& settings);

class Multigrid {
public:
  /// \brief Fields, boundary values and (Poisson) the right-hand side on every level this
  /// rank holds; continues from `output.restart` when it names a checkpoint.
  /// \throws hcart::InputError (collective) for a checkpoint that is not Jacobi3D's
  /// multigrid's or does not fit the mesh.
  Multigrid(const GridHierarchy& levels, const Settings& settings, Timers& timers,
            const Output& output = {});

  /// \brief Cycles until the residual falls below tolerance times the first one, or
  /// max_iterations cycles; `progress` as Solver::run's (an iteration is a cycle).
  Result run(const std::function<void(const Progress&)>& progress = {});
  /// \brief Exactly `count` cycles; the result's residual is the true one after them.
  Result cycles(long count);
  /// \brief One V-cycle, nothing else (no residual norm).
  void run_cycle();
  /// \brief max |f - A u| over the finest level now (collective).
  double residual_norm();

  const Field<double>& solution() const { return m_solver.solution(); }
  const Grid& grid() const noexcept { return m_hierarchy.grid(0); }
  const GridHierarchy& hierarchy() const noexcept { return m_hierarchy; }
  const Settings& settings() const noexcept { return m_settings; }
  double global_cells() const;
  /// \brief Cycles done (including those before a restart).
  long cycle() const noexcept { return m_cycle; }
  /// \brief The residual before the first cycle (the tolerance's reference).
  double initial_residual() const noexcept { return m_initial; }
  /// \brief Halo traffic of every level's exchanger, summed on this rank (the levels it
  /// holds; the finest's machine levels).
  HaloCounters halo_counters() const;
  void write_output();
  std::string write_checkpoint(double residual);

private:
  void set_up();
  void restart_from(const std::string& path);
  void after_cycle(double residual);

  const GridHierarchy& m_hierarchy;
  Settings m_settings;
  Output m_output;
  apps::RunFiles m_files;
  Timers& m_timers;
  hcart::Multigrid m_solver;
  long m_cycle = 0;
  double m_initial = -1; // max |f - A u| before the first cycle
};

} // namespace hcart::jacobi
