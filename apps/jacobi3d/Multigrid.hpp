// Jacobi3D's multigrid solver ([jacobi] solver = "multigrid"): V-cycles on a grid hierarchy
// (hcart/grid/GridHierarchy.hpp, vertex-centred: the unknowns are the interior points of the
// unit cube, the boundary points the halo), the same discretisation and problems as the
// Jacobi solver. A cycle on level l: `pre_smooth` sweeps of red-black Gauss-Seidel (or
// weighted Jacobi, omega = 6/7), the residual f - A u restricted by full weighting to level
// l + 1's right-hand side, a cycle there from zero, its solution interpolated linearly and
// added, `post_smooth` sweeps; on the coarsest level `coarse_sweeps` sweeps. Coarse levels
// hold homogeneous Dirichlet values; those with too few points per rank live on fewer ranks
// (hcart's agglomeration, chosen through the machine), the others wait for them in the
// level's scatter. The stopping measure is the true residual: after every cycle
// max |f - A u| over the finest level, against the tolerance times its value before the
// first cycle. Every operation is pointwise with a fixed order of operands and the norm is a
// maximum: the cycles, the field and the cycle count are bitwise the same on every rank
// count, strategy and agglomeration.
#pragma once

#include "JacobiConfig.hpp"
#include "JacobiSolver.hpp"
#include "PointUpdates.hpp"
#include "RunFiles.hpp"

#include <hcart/core/Timers.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

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

  const Field<double>& solution() const noexcept { return m_levels.front().u; }
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
  struct Level {
    const Grid* grid = nullptr; // null where this rank does not hold the level
    Field<double> u, f, r, v;
    Stencil stencil;
    std::unique_ptr<HaloExchanger> halo; // Faces for the smoother, Full per binding
    HaloBinding u_faces, u_full, r_full;
  };
  void set_up();
  void restart_from(const std::string& path);
  void v_cycle(int l);
  void smooth(int l, long sweeps);
  void residual(int l);
  std::string region(int l, const char* what) const;
  void after_cycle(double residual);

  const GridHierarchy& m_hierarchy;
  Settings m_settings;
  Output m_output;
  apps::RunFiles m_files;
  Timers& m_timers;
  std::vector<Level> m_levels;
  long m_cycle = 0;
  double m_initial = -1; // max |f - A u| before the first cycle
};

} // namespace hcart::jacobi
