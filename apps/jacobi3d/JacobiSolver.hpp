// Jacobi3D's solver: 7-point Jacobi on a Grid, two fields swapped every iteration (no
// copy), halos by the HaloExchanger, residual max |u_new - u_old| reduced over all ranks
// every check_every iterations. Every cell's new value depends only on the old values of
// its neighbours, so the field after k iterations is bitwise the same on any number of
// ranks and with any strategy (and with any thread count and loop pattern).
//
// The solver in files by concept: JacobiProblem.cpp (fields, boundary values, right-hand side,
// restart), JacobiSolver.cpp (the run loop: passes, exchanges, residuals), JacobiOutput.cpp
// (field files and checkpoints); the kernels are in Relax.hpp (one iteration) and
// Wavefront.hpp (several per pass over memory), the policy of iterations per pass and halo
// in Passes.hpp.
#pragma once

#include "JacobiConfig.hpp"
#include "Passes.hpp"
#include "PointUpdates.hpp"
#include "Relax.hpp"
#include "RunFiles.hpp"
#include "Wavefront.hpp"

#include <hcart/core/Timers.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <functional>
#include <memory>

namespace hcart::jacobi {

struct Progress {
  long iteration = 0;  ///< iterations done in total
  long done = 0;       ///< iterations done in this run
  double residual = 0; ///< the last one computed (or -1 before the first check)
  double seconds = 0;  ///< since the start of run()
};

struct Result {
  long iterations = 0;
  double residual = -1; ///< the last one computed
  bool converged = false;
  double seconds = 0;        ///< the run's, from its start to its end
  double output_seconds = 0; ///< of `seconds`, writing fields and checkpoints ("io")

  /// \brief The seconds of the iterations or cycles themselves, without the output's.
  double solve_seconds() const { return seconds - output_seconds; }
};

class Solver {
public:
  /// \brief Sets up fields, boundary values and (Poisson) the right-hand side for passes of
  /// `iterations_per_pass` iterations (jacobi::plan_passes; 1: one iteration per exchange);
  /// continues from `output.restart` when it names a checkpoint.
  /// \throws hcart::InputError (collective) when the grid's halo is shallower than the
  /// passes across a side with a neighbour, for more than one iteration per pass on a
  /// device, or for a checkpoint that is not Jacobi3D's or does not fit the mesh.
  Solver(const Grid& grid, const Settings& settings, long iterations_per_pass, Timers& timers,
         const Output& output = {});

  /// \brief Iterates until the residual is below the tolerance or max_iterations;
  /// `progress` (may be empty) is called on every rank about every progress_seconds.
  Result run(const std::function<void(const Progress&)>& progress = {});
  /// \brief Exactly `count` iterations (no residual unless a check falls on them).
  Result iterate(long count);

  /// \brief The current solution (owned cells and halos).
  const Field<double>& solution() const noexcept { return m_u; }
  /// \brief Halo traffic so far (all exchangers of the solver).
  HaloCounters halo_counters() const;
  const Grid& grid() const noexcept { return m_grid; }
  const Settings& settings() const noexcept { return m_settings; }
  /// \brief Global unknowns, for MLUP/s.
  double global_cells() const;
  /// \brief Iterations fused into one pass over memory (1: none), as constructed.
  long iterations_per_pass() const noexcept { return m_iterations_per_pass; }
  /// \brief Threads of this rank that share the work (of a wavefront pass, when it runs).
  int threads_per_rank() const noexcept;
  /// \brief Wavefront passes of this rank so far, and those run by one thread because a
  /// thread of the team was starved (Wavefront.hpp); 0, 0 without a wavefront.
  long passes() const noexcept { return m_wavefront ? m_wavefront->passes() : 0; }
  long starved_passes() const noexcept { return m_wavefront ? m_wavefront->starved_passes() : 0; }
  /// \brief Iterations done so far (including those before a restart).
  long iteration() const noexcept { return m_iteration; }
  /// \brief Writes the current field (HDF5 + XDMF, and the series file) now.
  void write_output();
  /// \brief Writes a checkpoint now; returns its path.
  std::string write_checkpoint(double residual);

private:
  void set_up_problem();
  void restart_from(const std::string& path);
  long iterations_to_next_check() const;
  double advance(long count, bool check);
  double step(bool check);
  double pass(long iterations, bool check);
  HaloExchanger& deep_exchanger();
  HaloBinding& bound_u();
  void after_step(double residual);

  const Grid& m_grid;
  Settings m_settings;
  Output m_output;
  apps::RunFiles m_files; // the field series and the checkpoints
  Timers& m_timers;
  Stencil m_stencil;
  Field<double> m_u, m_v, m_rhs;
  long m_iterations_per_pass = 1; // temporal blocking
  std::unique_ptr<Wavefront> m_wavefront;
  HaloExchanger m_halo;                  // Faces, one layer, before every single iteration
  HaloBinding m_bound[2];                // m_halo's bindings of u and of v (swapped each step)
  int m_u_binding = 0;                   // which of them holds the allocation m_u is now
  std::unique_ptr<HaloExchanger> m_deep; // Full, as deep as each pass's iterations (per call)
  HaloTimes m_accounted_halo, m_accounted_deep; // the times of each booked so far
  long m_iteration = 0;
};

} // namespace hcart::jacobi
