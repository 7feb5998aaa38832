// Jacobi3D's problem set-up: fields, Dirichlet values, the Poisson right-hand side, and the
// continuation from a checkpoint.
#include "JacobiSolver.hpp"
#include "PoissonRhs.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/FieldChecks.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>
#include <hcart/io/FieldFile.hpp>

namespace hcart::jacobi {

namespace {

// The right-hand side from per-direction tables (PoissonRhs.hpp).
struct PoissonRhs {
  Field<double> f;
  SineTable sx, sy, sz;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    f(i, j, k) = poisson_rhs_of_sines(sx(i), sy(j), sz(k));
  }
};

// The exchanger of single iterations moves one layer, whatever the halo width.
HaloOptions one_layer() {
  HaloOptions o;
  o.width = 1;
  return o;
}

} // namespace

SineTable sine_table(const Grid& grid, int dir) {
  const int extent = grid.extent().at(dir);
  SineTable table("jacobi_sines", static_cast<std::size_t>(extent));
  const auto host = hcart::host_mirror(table);
  for (int i = 0; i < extent; ++i)
    host(i) = poisson_sine(coordinate(grid.global_index(dir, i), grid.global_size()[dir]));
  Kokkos::deep_copy(table, host);
  return table;
}

void fill_poisson_rhs(const Field<double>& f, const Box& box, const SineTable& sx,
                      const SineTable& sy, const SineTable& sz) {
  for_each_cell("jacobi_rhs", box, PoissonRhs{f, sx, sy, sz});
}

Solver::Solver(const Grid& grid, const Settings& settings, long iterations_per_pass, Timers& timers,
               const Output& output)
    : m_grid(grid), m_settings(settings), m_output(output), m_files(grid, "jacobi3d", output),
      m_timers(timers), m_u(grid.make_field<double>("u")), m_v(grid.make_field<double>("v")),
      m_iterations_per_pass(iterations_per_pass), m_halo(grid, HaloMode::Faces, one_layer()) {
  const Block& block = grid.block();
  agree_on_errors(grid.decomposition().comm(), [&] {
    HCART_REQUIRE(iterations_per_pass >= 1, "jacobi::Solver: " << iterations_per_pass
                                                               << " iterations per pass, "
                                                                  "expected 1 or more");
    HCART_REQUIRE(iterations_per_pass == 1 || host_execution,
                  "jacobi::Solver: " << iterations_per_pass
                                     << " iterations per pass; the wavefront runs on the host "
                                        "only, expected 1 on the "
                                     << execution_space_name() << " execution space");
    for (int d = 0; d < 3; ++d) {
      const bool crossed = !block.is_physical(d, 0) || !block.is_physical(d, 1);
      HCART_REQUIRE(!crossed || block.halo_width[d] >= iterations_per_pass,
                    "jacobi::Solver: " << iterations_per_pass
                                       << " iterations per pass need halos as deep; the "
                                          "grid's halo in direction "
                                       << d << " is " << block.halo_width[d]
                                       << " (jacobi::plan_passes gives both)");
    }
  });
  set_up_problem();
  if (!output.restart.empty()) restart_from(output.restart);
  if (m_iterations_per_pass > 1) {
    m_wavefront = std::make_unique<Wavefront>(m_u, block, m_iterations_per_pass);
  }
}

void Solver::set_up_problem() {
  const auto n = m_grid.global_size();
  m_stencil =
      make_stencil(static_cast<double>(n[0]), static_cast<double>(n[1]), static_cast<double>(n[2]));
  // Dirichlet values in the halo slabs of faces without a neighbour, in both fields, across
  // the whole extent of the other directions (Full): the wavefront also updates halo cells
  // of neighbouring ranks next to such a face, and reads the boundary value beside them.
  // (A periodic side has no boundary value: it keeps the default.)
  SideConditions dirichlet;
  for (int s = 0; s < 6; ++s) {
    if (m_grid.decomposition().spec().periodic[s / 2]) continue;
    dirichlet[s] = BoundaryCondition::fixed_value(
        m_settings.problem == Problem::Laplace ? m_settings.boundary_values[s] : 0.0);
  }
  const PhysicalBoundaries boundaries(m_grid, HaloMode::Full);
  boundaries.apply(m_u, dirichlet);
  boundaries.apply(m_v, dirichlet);
  const Box all = m_grid.with_halo_box();
  if (m_settings.problem == Problem::Poisson) {
    m_rhs = m_grid.make_field<double>("rhs");
    // On halo cells too (the wavefront updates those of neighbours): a function of the
    // global index, so bitwise the value the owner has.
    fill_poisson_rhs(m_rhs, all, sine_table(m_grid, 0), sine_table(m_grid, 1),
                     sine_table(m_grid, 2));
  }
  fence("jacobi_setup");
}

void Solver::restart_from(const std::string& path) {
  auto scope = m_timers.region("io");
  const MPI_Comm comm = m_grid.decomposition().comm();
  const FileContents file = inspect_fields(comm, path);
  agree_on_errors(comm, [&] {
    HCART_REQUIRE(file.metadata.application == "jacobi3d" && file.metadata.kind == "checkpoint",
                  "[output] restart = \"" << path << "\": a " << file.metadata.kind << " of '"
                                          << file.metadata.application
                                          << "', expected a jacobi3d checkpoint");
  });
  // Settings that change the solution, said when they differ from the checkpoint's run (the
  // iteration count, tolerance and the passes' shape do not change it).
  apps::note_restart_differences(comm, "jacobi3d", file.metadata.deck, m_output.deck,
                                 {"jacobi.max_iterations", "jacobi.tolerance", "jacobi.check_every",
                                  "jacobi.overlap", "jacobi.iterations_per_pass"});
  read_field(path, m_grid, "u", m_u);
  m_iteration = static_cast<long>(file.metadata.step);
  const std::int64_t broken = count_non_finite(m_grid, m_u);
  agree_on_errors(comm, [&] {
    HCART_REQUIRE(broken == 0, "[output] restart = \"" << path << "\": field 'u' holds " << broken
                                                       << " values that are NaN or infinite");
    HCART_REQUIRE(m_iteration < m_settings.max_iterations,
                  "[jacobi] max_iterations = " << m_settings.max_iterations
                                               << ": the checkpoint is at iteration " << m_iteration
                                               << " already; raise it to continue");
  });
}

} // namespace hcart::jacobi
