// Jacobi3D's multigrid solver: set-up, the V-cycle, the run loop, output and restart.
#include "Multigrid.hpp"

#include "AppTimers.hpp"
#include "MultigridKernels.hpp"
#include "PoissonRhs.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/ColouredLoops.hpp>
#include <hcart/grid/FieldChecks.hpp>
#include <hcart/grid/LevelTransfers.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>
#include <hcart/io/FieldFile.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace hcart::jacobi {

namespace {

using Clock = std::chrono::steady_clock;

// The damping of the weighted Jacobi smoother: the best smoothing factor of the 7-point
// Laplacian (5/7).
constexpr double kJacobiOmega = 6.0 / 7.0;

} // namespace

HierarchyOptions hierarchy_options(const MultigridSettings& s) {
  HierarchyOptions h;
  h.levels = static_cast<int>(s.levels);
  h.centering = LevelCentering::Vertex;
  h.min_size = 1;
  h.agglomerate_below = s.agglomeration == MultigridSettings::Agglomeration::None ? 0 : s.agglomerate_below;
  h.agglomeration = s.agglomeration == MultigridSettings::Agglomeration::Stride
                        ? AgglomerationRule::Stride
                        : AgglomerationRule::Machine;
  return h;
}

Multigrid::Multigrid(const GridHierarchy& levels, const Settings& settings, Timers& timers,
                     const Output& output)
    : m_hierarchy(levels), m_settings(settings), m_output(output),
      m_files(levels.grid(0), "jacobi3d", output), m_timers(timers),
      m_levels(static_cast<std::size_t>(levels.size())) {
  set_up();
  if (!output.restart.empty()) restart_from(output.restart);
}

double Multigrid::global_cells() const {
  const auto g = m_hierarchy.global_size(0);
  return static_cast<double>(g[0]) * static_cast<double>(g[1]) * static_cast<double>(g[2]);
}

std::string Multigrid::region(int l, const char* what) const {
  return "mg level " + std::to_string(l) + " " + what;
}

void Multigrid::set_up() {
  const MultigridSettings& mg = m_settings.multigrid;
  for (int l = 0; l < m_hierarchy.size(); ++l) {
    if (!m_hierarchy.holds(l)) continue;
    Level& level = m_levels[static_cast<std::size_t>(l)];
    const Grid& grid = m_hierarchy.grid(l);
    level.grid = &grid;
    const auto n = grid.global_size();
    level.stencil = make_stencil(static_cast<double>(n[0]), static_cast<double>(n[1]),
                                 static_cast<double>(n[2]));
    level.u = grid.make_field<double>("u");
    level.f = grid.make_field<double>("f");
    level.r = grid.make_field<double>("r");
    if (mg.smoother == MultigridSettings::Smoother::Jacobi) level.v = grid.make_field<double>("v");
    level.halo = std::make_unique<HaloExchanger>(grid, HaloMode::Faces);
    level.u_faces = level.halo->bind(level.u);
    level.u_full = level.halo->bind(HaloMode::Full, level.u);
    level.r_full = level.halo->bind(HaloMode::Full, level.r);
  }
  // The finest level's boundary points: the Dirichlet values (Laplace) or zero (Poisson),
  // in every field the smoothers read; coarse levels keep zeros (the corrections vanish on
  // the boundary).
  Level& top = m_levels.front();
  SideConditions dirichlet;
  for (int s = 0; s < 6; ++s) {
    dirichlet[s] = BoundaryCondition::fixed_value(
        m_settings.problem == Problem::Laplace ? m_settings.boundary_values[s] : 0.0);
  }
  const PhysicalBoundaries boundaries(*top.grid, HaloMode::Full);
  boundaries.apply(top.u, dirichlet);
  if (top.v.data() != nullptr) boundaries.apply(top.v, dirichlet);
  if (m_settings.problem == Problem::Poisson) {
    fill_poisson_rhs(top.f, top.grid->with_halo_box(), sine_table(*top.grid, 0),
                     sine_table(*top.grid, 1), sine_table(*top.grid, 2));
  }
  fence("mg_setup");
}

// Sweeps of the smoother on level l (u in place; weighted Jacobi through v).
void Multigrid::smooth(int l, long sweeps) {
  Level& level = m_levels[static_cast<std::size_t>(l)];
  const Grid& grid = *level.grid;
  const Box owned = grid.owned_box();
  for (long s = 0; s < sweeps; ++s) {
    if (m_settings.multigrid.smoother == MultigridSettings::Smoother::RedBlack) {
      for (int colour = 0; colour < 2; ++colour) {
        {
          auto scope = m_timers.region(region(l, "halo"));
          level.u_faces.exchange();
        }
        auto scope = m_timers.region(region(l, "smooth"));
        for_each_coloured_cell("mg_gauss_seidel", grid, owned, colour,
                               GaussSeidelPoint{accessor(level.u), accessor(level.f), level.stencil});
      }
    } else {
      {
        auto scope = m_timers.region(region(l, "halo"));
        level.u_faces.exchange();
      }
      auto scope = m_timers.region(region(l, "smooth"));
      for_each_cell("mg_jacobi", owned,
                    WeightedJacobiPoint{accessor(level.u), accessor(level.v), accessor(level.f),
                                        level.stencil, kJacobiOmega});
      // Back into u (its bindings and the transfers keep one allocation).
      for_each_cell("mg_copy", owned, CopyPoint{accessor(level.v), accessor(level.u)});
    }
  }
  fence("mg_smooth");
}

void Multigrid::residual(int l) {
  Level& level = m_levels[static_cast<std::size_t>(l)];
  {
    auto scope = m_timers.region(region(l, "halo"));
    level.u_faces.exchange();
  }
  auto scope = m_timers.region(region(l, "residual"));
  for_each_cell("mg_residual", level.grid->owned_box(),
                ResidualPoint{accessor(level.u), accessor(level.f), accessor(level.r), level.stencil});
  fence("mg_residual");
}

void Multigrid::v_cycle(int l) {
  const MultigridSettings& mg = m_settings.multigrid;
  const int coarsest = m_hierarchy.size() - 1;
  if (l == coarsest) {
    const auto n = m_hierarchy.global_size(l);
    const long sweeps = mg.coarse_sweeps > 0
                            ? mg.coarse_sweeps
                            : 4 * (std::max({n[0], n[1], n[2]}) + 1);
    smooth(l, sweeps);
    return;
  }
  Level& level = m_levels[static_cast<std::size_t>(l)];
  Level& below = m_levels[static_cast<std::size_t>(l + 1)];
  smooth(l, mg.pre_smooth);
  residual(l);
  {
    // Full weighting reads the residual's neighbours across ranks, edges and corners too.
    auto scope = m_timers.region(region(l, "halo"));
    level.r_full.exchange();
  }
  {
    auto scope = m_timers.region(region(l + 1, "restrict"));
    if (below.grid != nullptr) Kokkos::deep_copy(below.u, 0.0);
    restrict_cells(m_hierarchy, l + 1, level.r, below.f);
  }
  if (below.grid != nullptr) {
    v_cycle(l + 1);
    auto scope = m_timers.region(region(l + 1, "halo"));
    below.u_full.exchange();
  }
  {
    auto scope = m_timers.region(region(l + 1, "prolong"));
    prolong_cells(m_hierarchy, l + 1, below.u, level.u);
  }
  smooth(l, mg.post_smooth);
}

double Multigrid::residual_norm() {
  Level& top = m_levels.front();
  {
    auto scope = m_timers.region(region(0, "halo"));
    top.u_faces.exchange();
  }
  auto scope = m_timers.region("residual");
  ReductionArray<double, 2> norms{};
  reduce_cells("mg_norm", top.grid->owned_box(),
               ResidualNorms{accessor(top.u), accessor(top.f), top.stencil},
               Maxima<double, 2>(norms));
  max_over_ranks(top.grid->decomposition().comm(), norms);
  if (!std::isfinite(norms[0])) {
    Error error("the solution is no longer finite at cycle " + std::to_string(m_cycle) +
                " (a value overflowed or became NaN; check [jacobi] boundary_values and the "
                "restart file)");
    error.set_collective(true);
    throw error;
  }
  return norms[0];
}

void Multigrid::run_cycle() {
  v_cycle(0);
  ++m_cycle;
}

Result Multigrid::cycles(long count) {
  Result r;
  const auto t0 = Clock::now();
  if (m_initial < 0) m_initial = residual_norm();
  for (long c = 0; c < count; ++c) {
    v_cycle(0);
    ++m_cycle;
  }
  r.iterations = count;
  r.residual = residual_norm();
  r.seconds = seconds_since(t0);
  return r;
}

Result Multigrid::run(const std::function<void(const Progress&)>& progress) {
  Result r;
  const auto t0 = Clock::now();
  auto last_report = t0;
  const long first = m_cycle;
  if (m_initial < 0) m_initial = residual_norm();
  double residual = m_initial;
  const double target = m_settings.tolerance * m_initial;
  while (m_cycle < m_settings.max_iterations &&
         !(m_settings.tolerance > 0 && residual <= target)) {
    v_cycle(0);
    ++m_cycle;
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
  return r;
}

HaloCounters Multigrid::halo_counters() const {
  HaloCounters sum = m_levels.front().halo->counters();
  for (std::size_t l = 1; l < m_levels.size(); ++l) {
    if (m_levels[l].halo) sum += m_levels[l].halo->counters();
  }
  return sum;
}

void Multigrid::write_output() {
  auto scope = m_timers.region("io");
  XdmfGeometry geometry;
  const auto g = grid().global_size();
  for (int d = 0; d < 3; ++d)
    geometry.origin[d] = geometry.spacing[d] = 1.0 / static_cast<double>(g[d] + 1);
  m_files.write_output({{"u", m_levels.front().u}}, static_cast<double>(m_cycle), m_cycle, geometry);
}

std::string Multigrid::write_checkpoint(double residual) {
  auto scope = m_timers.region("io");
  return m_files.write_checkpoint({{"u", m_levels.front().u}}, static_cast<double>(m_cycle),
                                  m_cycle,
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
  read_field(path, top, "u", m_levels.front().u);
  m_cycle = static_cast<long>(file.metadata.step);
  m_initial = initial->second;
  const std::int64_t broken = count_non_finite(top, m_levels.front().u);
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
