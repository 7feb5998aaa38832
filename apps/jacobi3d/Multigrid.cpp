// Jacobi3D's multigrid solver: the problems on hcart's multigrid solver, the run loop, output
// and restart.
#include "Multigrid.hpp"

#include "AppTimers.hpp"
#include "PoissonRhs.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/FieldAccessor.hpp>
#include <hcart/grid/FieldChecks.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>
#include <hcart/io/FieldFile.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace hcart::jacobi {

namespace {

using Clock = std::chrono::steady_clock;

// The solver's options from the deck's [multigrid] table: -Delta u = f on the unit cube,
// Dirichlet on every side.
MultigridOptions solver_options(const MultigridSettings& mg) {
  MultigridOptions o;
  o.smoother = mg.smoother == MultigridSettings::Smoother::Jacobi ? MultigridSmoother::Jacobi
                                                                  : MultigridSmoother::RedBlack;
  o.pre_smooth = static_cast<int>(mg.pre_smooth);
  o.post_smooth = static_cast<int>(mg.post_smooth);
  o.coarse_sweeps = mg.coarse_sweeps;
  return o;
}

// f = -f over a box (exact: the solver's f of Jacobi3D's right-hand side).
struct Negate {
  FieldAccessor<double> f;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { f(i, j, k) = -f(i, j, k); }
};

} // namespace

HierarchyOptions hierarchy_options(const MultigridSettings& s) {
  HierarchyOptions h;
  h.levels = static_cast<int>(s.levels);
  h.centering = LevelCentering::Vertex;
  h.min_size = 1;
  h.agglomerate_below = s.agglomerate_below;
  apps::apply_agglomeration(s.agglomeration, h);
  return h;
}

Multigrid::Multigrid(const GridHierarchy& levels, const Settings& settings, Timers& timers,
                     const Output& output)
    : m_hierarchy(levels), m_settings(settings), m_output(output),
      m_files(levels.grid(0), "jacobi3d", output), m_timers(timers),
      m_solver(levels, solver_options(settings.multigrid), &timers) {
  set_up();
  if (!output.restart.empty()) restart_from(output.restart);
}

double Multigrid::global_cells() const {
  const auto g = m_hierarchy.global_size(0);
  return static_cast<double>(g[0]) * static_cast<double>(g[1]) * static_cast<double>(g[2]);
}

void Multigrid::set_up() {
  // The boundary points: the Dirichlet values (Laplace) or zero (Poisson); the solver keeps
  // them and holds zeros on the coarse levels (the corrections vanish on the boundary).
  const Grid& top = grid();
  SideConditions dirichlet;
  for (int s = 0; s < 6; ++s) {
    dirichlet[s] = BoundaryCondition::fixed_value(
        m_settings.problem == Problem::Laplace ? m_settings.boundary_values[s] : 0.0);
  }
  PhysicalBoundaries(top, HaloMode::Full).apply(m_solver.solution(), dirichlet);
  if (m_settings.problem == Problem::Poisson) {
    const Field<double>& f = m_solver.rhs();
    fill_poisson_rhs(f, top.with_halo_box(), sine_table(top, 0), sine_table(top, 1),
                     sine_table(top, 2));
    for_each_cell("mg_negate", top.owned_box(), Negate{accessor(f)});
  }
  fence("mg_setup");
}

double Multigrid::residual_norm() {
  try {
    return m_solver.residual_norm();
  } catch (const Error& e) {
    // The solver's non-finite norm, thrown on every rank at once: in the run's own words.
    if (!e.collective()) throw;
    Error error("the solution is no longer finite at cycle " + std::to_string(m_cycle) +
                " (a value overflowed or became NaN; check [jacobi] boundary_values and the "
                "restart file)");
    error.set_collective(true);
    throw error;
  }
}

void Multigrid::run_cycle() {
  m_solver.cycle();
  ++m_cycle;
}

Result Multigrid::cycles(long count) {
  Result r;
  const auto t0 = Clock::now();
  if (m_initial < 0) m_initial = residual_norm();
  for (long c = 0; c < count; ++c)
    run_cycle();
  r.iterations = count;
  r.residual = residual_norm();
  r.seconds = seconds_since(t0);
  return r;
}

Result Multigrid::run(const std::function<void(const Progress&)>& progress) {
  Result r;
  const auto t0 = Clock::now();
  const double io_before = m_timers.seconds("io");
  auto last_report = t0;
  const long first = m_cycle;
  if (m_initial < 0) m_initial = residual_norm();
  double residual = m_initial;
  const double target = m_settings.tolerance * m_initial;
  // A full-multigrid start on a run from zero (not a restart's), its cycles on level 0
  // counted as cycles (hcart::Multigrid::solve counts them so too).
  const long start = m_settings.multigrid.full_multigrid;
  if (m_cycle == 0 && start > 0 && !(m_settings.tolerance > 0 && residual <= target)) {
    m_solver.full_multigrid(static_cast<int>(start));
    m_cycle = start;
    residual = residual_norm();
    r.iterations = m_cycle - first;
    r.residual = residual;
    after_cycle(residual);
  }
  while (m_cycle < m_settings.max_iterations && !(m_settings.tolerance > 0 && residual <= target)) {
    run_cycle();
    residual = residual_norm();
    r.iterations = m_cycle - first;
    r.residual = residual;
    after_cycle(residual);
    if (progress && m_settings.progress_seconds > 0) {
      double elapsed = std::chrono::duration<double>(Clock::now() - last_report).count();
      HCART_MPI_CHECK(MPI_Bcast(&elapsed, 1, MPI_DOUBLE, 0, grid().decomposition().comm()));
      if (elapsed >= m_settings.progress_seconds) {
        progress({m_cycle, m_cycle - first, residual, seconds_since(t0)});
        last_report = Clock::now();
      }
    }
  }
  r.residual = residual;
  r.converged = m_settings.tolerance > 0 && residual <= target;
  if (m_output.every > 0 && m_cycle % m_output.every != 0) write_output();
  r.seconds = seconds_since(t0);
  r.output_seconds = m_timers.seconds("io") - io_before;
  return r;
}

HaloCounters Multigrid::halo_counters() const {
  return m_solver.halo_counters();
}

void Multigrid::write_output() {
  auto scope = m_timers.region("io");
  XdmfGeometry geometry;
  const auto g = grid().global_size();
  for (int d = 0; d < 3; ++d)
    geometry.origin[d] = geometry.spacing[d] = 1.0 / static_cast<double>(g[d] + 1);
  m_files.write_output({{"u", solution()}}, static_cast<double>(m_cycle), m_cycle, geometry);
}

std::string Multigrid::write_checkpoint(double residual) {
  auto scope = m_timers.region("io");
  return m_files.write_checkpoint({{"u", solution()}}, static_cast<double>(m_cycle), m_cycle,
                                  {{"cycle", static_cast<double>(m_cycle)},
                                   {"residual", residual},
                                   {"initial_residual", m_initial}});
}

void Multigrid::after_cycle(double residual) {
  if (m_output.every > 0 && m_cycle % m_output.every == 0) write_output();
  if (m_output.checkpoint_every > 0 && m_cycle % m_output.checkpoint_every == 0)
    write_checkpoint(residual);
}

void Multigrid::restart_from(const std::string& path) {
  auto scope = m_timers.region("io");
  const Grid& top = grid();
  const MPI_Comm comm = top.decomposition().comm();
  const FileContents file = inspect_fields(comm, path);
  const auto initial = file.metadata.state.find("initial_residual");
  agree_on_errors(comm, [&] {
    HCART_REQUIRE(file.metadata.application == "jacobi3d" && file.metadata.kind == "checkpoint" &&
                      initial != file.metadata.state.end(),
                  "[output] restart = \"" << path << "\": a " << file.metadata.kind << " of '"
                                          << file.metadata.application
                                          << "', expected a checkpoint of jacobi3d's multigrid");
  });
  apps::note_restart_differences(comm, "jacobi3d", file.metadata.deck, m_output.deck,
                                 {"jacobi.max_iterations", "jacobi.tolerance"});
  Field<double> u = solution(); // the same allocation
  read_field(path, top, "u", u);
  m_cycle = static_cast<long>(file.metadata.step);
  m_initial = initial->second;
  const std::int64_t broken = count_non_finite(top, solution());
  agree_on_errors(comm, [&] {
    HCART_REQUIRE(broken == 0, "[output] restart = \"" << path << "\": field 'u' holds " << broken
                                                       << " values that are NaN or infinite");
    HCART_REQUIRE(m_cycle < m_settings.max_iterations,
                  "[jacobi] max_iterations = " << m_settings.max_iterations
                                               << ": the checkpoint is at cycle " << m_cycle
                                               << " already; raise it to continue");
  });
}

} // namespace hcart::jacobi
