// Jacobi3D's problem set-up: fields, Dirichlet values, the Poisson right-hand side, and the
// continuation from a checkpoint.
#include "JacobiSolver.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/io/FieldFile.hpp>

namespace hcart::jacobi {

namespace {

struct FillBoth {
  Field<double> u, v;
  double value;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    u(i, j, k) = v(i, j, k) = value;
  }
};

// The manufactured right-hand side, a function of the global index.
struct PoissonRhs {
  Field<double> f;
  Kokkos::Array<long long, 3> first; // global index of local index 0
  Kokkos::Array<long long, 3> size;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    f(i, j, k) = poisson_rhs(coordinate(first[0] + i, size[0]), coordinate(first[1] + j, size[1]),
                             coordinate(first[2] + k, size[2]));
  }
};

// The exchanger of single iterations moves one layer, whatever the halo width.
HaloOptions one_layer() {
  HaloOptions o;
  o.width = 1;
  return o;
}

} // namespace

Solver::Solver(const Grid& grid, const Settings& settings, Timers& timers, const Output& output)
    : m_grid(grid), m_settings(settings), m_output(output), m_timers(timers),
      m_u(grid.make_field<double>("u")), m_v(grid.make_field<double>("v")),
      m_halo(grid, HaloMode::Faces, one_layer()) {
  set_up_problem();
  if (!output.restart.empty()) restart_from(output.restart);
  // One depth on all ranks: blocks of different sizes may choose differently, and every
  // pass begins with an exchange that all of them take part in.
  m_block = block_shape(grid.decomposition());
  const auto h = grid.halo_width();
  m_depth = jacobi::iterations_per_pass(m_settings, m_block, h);
  HCART_MPI_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, &m_depth, 1, MPI_LONG, MPI_MIN, grid.decomposition().comm()));
  m_deep.resize(static_cast<std::size_t>(m_depth) + 1);
  m_accounted.resize(m_deep.size() + 1);
  if (m_depth > 1) {
    WavefrontBlock block;
    block.halo = h;
    block.local = grid.local_size();
    block.open = m_block.open;
    m_wavefront = std::make_unique<Wavefront>(m_u, block, m_depth);
  }
}

void Solver::set_up_problem() {
  const auto n = m_grid.global_size();
  m_stencil =
      make_stencil(static_cast<double>(n[0]), static_cast<double>(n[1]), static_cast<double>(n[2]));
  // Dirichlet values in the halo slabs of faces without a neighbour, in both fields, across
  // the whole extent of the other directions: the wavefront also updates halo cells of
  // neighbouring ranks next to such a face, and reads the boundary value beside them.
  const Decomposition& decomp = m_grid.decomposition();
  const Box all = m_grid.with_halo_box();
  const Box owned = m_grid.owned_box();
  for (int d = 0; d < 3; ++d) {
    for (int side = 0; side < 2; ++side) {
      std::array<int, 3> o{0, 0, 0};
      o[d] = side == 0 ? -1 : 1;
      if (decomp.neighbour(o) != MPI_PROC_NULL) continue;
      const double value =
          m_settings.problem == Problem::Laplace ? m_settings.boundary_values[2 * d + side] : 0.0;
      Box slab = all;
      slab.lo[d] = side == 0 ? 0 : owned.hi[d];
      slab.hi[d] = side == 0 ? owned.lo[d] : all.hi[d];
      for_each_cell("jacobi_bc", slab, FillBoth{m_u, m_v, value});
    }
  }
  if (m_settings.problem == Problem::Poisson) {
    m_rhs = m_grid.make_field<double>("rhs");
    // On halo cells too (the wavefront updates those of neighbours): a function of the
    // global index, so bitwise the value the owner has.
    PoissonRhs rhs{m_rhs, {}, {}};
    for (int d = 0; d < 3; ++d) {
      rhs.first[d] = m_grid.global_index(d, 0);
      rhs.size[d] = n[d];
    }
    for_each_cell("jacobi_rhs", all, rhs);
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
  read_field(path, m_grid, "u", m_u);
  m_iteration = static_cast<long>(file.metadata.step);
}

} // namespace hcart::jacobi
