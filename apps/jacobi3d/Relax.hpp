// Jacobi3D's kernels: one Jacobi iteration over a box of cells, v = update(u), in either
// loop pattern, and the residual max |v - u| over the box when asked.
//
//   const jacobi::RelaxFields fields{u, v, rhs, poisson};
//   double change = jacobi::relax(hcart::default_loop_pattern, fields, box, stencil, true);
//
// LoopPattern::Portable: the grid's 3D policy, a RelaxCells functor per cell (any backend).
// LoopPattern::HostRows: planes in parallel, each a row loop along k on raw pointers through
// relax_plane (compiled for AVX2 and the baseline, the loader picks). Both evaluate
// update() on the same operands, so their results are bitwise equal (tests compare them).
// The hand-written rows stay although hcart::for_each_cell's own host rows run a
// FieldAccessor kernel almost as fast: they still win by 3-4% (restrict-qualified pointers,
// a plane per task; hcart-bench-user-kernels, docs/benchmarks.md "Users' kernels"), the
// checked sweep's max vectorises only as the integer max over bit patterns done here, and the
// wavefront (Wavefront.hpp) needs a plane at a time on pointers of its own.
#pragma once

#include "PointUpdates.hpp"

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/Box.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/FieldAccessor.hpp>

namespace hcart::jacobi {

/// \brief The fields of one iteration: u (read, halos filled), v (written), the right-hand
/// side (Poisson; may be empty otherwise).
struct RelaxFields {
  Field<double> u, v, rhs;
  bool poisson = false;
};

/// \brief The portable kernel: v(i, j, k) = update of u around (i, j, k).
struct RelaxCells {
  FieldAccessor<const double> u;
  FieldAccessor<double> v;
  FieldAccessor<const double> rhs; // Poisson only
  Stencil s;
  bool poisson;

  KOKKOS_INLINE_FUNCTION double next(int i, int j, int k) const {
    return update(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k), u(i, j, k - 1),
                  u(i, j, k + 1), poisson ? rhs(i, j, k) : 0.0, s);
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { v(i, j, k) = next(i, j, k); }
};

/// \brief The portable kernel with the residual: also max |v - u| over the cells.
struct RelaxCellsChecked : RelaxCells {
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& worst) const {
    const double value = next(i, j, k);
    const double change = change_of(value, u(i, j, k));
    worst = change > worst ? change : worst;
    v(i, j, k) = value;
  }
};

/// \brief The host row loop: rows [0, rows) of one plane, out = update(centre) for k in
/// [k0, k1) on each row, the planes below and above in i at `below` and `above`, the
/// right-hand side at `rhs` (or null), rows sj elements apart in all of them. Returns
/// max |out - centre| when `check`, else 0. The neighbouring planes are pointers of their
/// own, not a stride, so that the wavefront's planes may lie in its ring buffer.
double relax_plane(const double* below, const double* centre, const double* above, double* out,
                   const double* rhs, long sj, int rows, int k0, int k1, const Stencil& s,
                   bool check);

/// \brief One iteration over `box` in `pattern`; returns max |v - u| over the box when
/// `check`, else 0. Blocks until done. \throws hcart::Error for HostRows on a device build.
double relax(LoopPattern pattern, const RelaxFields& fields, const Box& box, const Stencil& s,
             bool check);

} // namespace hcart::jacobi
