#include "Relax.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/core/HostClones.hpp>
#include <hcart/grid/Loops.hpp>

#include <cstdint>
#include <cstring>
#include <limits>

namespace hcart::jacobi {

namespace {

// |next - old| as the bit pattern of a double, sign cleared. For doubles >= 0 the IEEE order
// is the order of their bit patterns as integers, and every NaN lies above infinity, so an
// integer max over these patterns is the max of the changes with any NaN on top. The compiler
// vectorises that integer max; a max of doubles, whose NaN rules it must keep, it leaves
// scalar (what that cost: docs/benchmarks.md, "Portable kernels").
inline std::int64_t change_bits(double next, double old) {
  const double change = next - old;
  std::int64_t bits;
  std::memcpy(&bits, &change, sizeof bits);
  return bits & std::numeric_limits<std::int64_t>::max();
}

// Out of line so that HCART_HOST_CLONES can build it for AVX2 as well; a plane per call
// keeps the cost of the dispatched call out of the row loop.
HCART_HOST_CLONES double relax_rows(const double* __restrict below, const double* __restrict centre,
                                    const double* __restrict above, double* __restrict out,
                                    const double* __restrict rhs, long sj, int rows, int k0, int k1,
                                    const Stencil s, bool check) {
  const double* a = centre;
  std::int64_t worst = 0;
  for (int r = 0; r < rows; ++r, below += sj, a += sj, above += sj, out += sj,
           rhs = rhs != nullptr ? rhs + sj : nullptr) {
    if (rhs == nullptr && !check) {
      for (int k = k0; k < k1; ++k) {
        out[k] = update(below[k], above[k], a[k - sj], a[k + sj], a[k - 1], a[k + 1], 0.0, s);
      }
      continue;
    }
    for (int k = k0; k < k1; ++k) {
      const double next = update(below[k], above[k], a[k - sj], a[k + sj], a[k - 1], a[k + 1],
                                 rhs != nullptr ? rhs[k] : 0.0, s);
      const std::int64_t change = change_bits(next, a[k]);
      worst = change > worst ? change : worst;
      out[k] = next;
    }
  }
  if (!check) return 0.0;
  double change;
  std::memcpy(&change, &worst, sizeof change);
  // change_of()'s rule: a NaN change counts as infinite.
  return change == change ? change : std::numeric_limits<double>::infinity();
}

using HostPlanes = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<int>>;

// The host pattern: a task per plane i of the box (host execution only).
struct RelaxPlanes {
  const double* u;
  double* v;
  const double* rhs; // null: Laplace
  long si, sj;
  int j0, rows, k0, k1;
  Stencil s;

  double plane(int i, bool check) const {
    const long base = i * si + j0 * sj;
    return relax_plane(u + base - si, u + base, u + base + si, v + base,
                       rhs != nullptr ? rhs + base : nullptr, sj, rows, k0, k1, s, check);
  }
  void operator()(int i) const { plane(i, false); }
};

struct RelaxPlanesChecked : RelaxPlanes {
  void operator()(int i, double& worst) const {
    const double change = plane(i, true);
    worst = change > worst ? change : worst;
  }
};

} // namespace

double relax_plane(const double* below, const double* centre, const double* above, double* out,
                   const double* rhs, long sj, int rows, int k0, int k1, const Stencil& s,
                   bool check) {
  return relax_rows(below, centre, above, out, rhs, sj, rows, k0, k1, s, check);
}

double relax(LoopPattern pattern, const RelaxFields& fields, const Box& box, const Stencil& s,
             bool check) {
  if (box.empty()) return 0.0;
  double worst = 0.0;
  if (pattern == LoopPattern::HostRows) {
    HCART_CHECK(host_execution, "jacobi::relax: the host row pattern cannot run on the "
                                    << execution_space_name() << " execution space");
    const Field<double>& u = fields.u;
    const RelaxPlanesChecked planes{{u.data(), fields.v.data(),
                                     fields.poisson ? fields.rhs.data() : nullptr,
                                     static_cast<long>(u.stride(0)), static_cast<long>(u.stride(1)),
                                     box.lo[1], box.extent(1), box.lo[2], box.hi[2], s}};
    const HostPlanes range(box.lo[0], box.hi[0]);
    if (check) {
      Kokkos::parallel_reduce("jacobi_check", range, planes, Kokkos::Max<double>(worst));
    } else {
      Kokkos::parallel_for("jacobi", range, static_cast<const RelaxPlanes&>(planes));
      Kokkos::DefaultHostExecutionSpace().fence();
    }
    return worst;
  }
  const RelaxCellsChecked cells{{fields.u, fields.v, fields.rhs, s, fields.poisson}};
  if (check) {
    reduce_cells("jacobi_check", box, cells, Kokkos::Max<double>(worst), LoopPattern::Portable);
  } else {
    for_each_cell("jacobi", box, static_cast<const RelaxCells&>(cells), LoopPattern::Portable);
    fence("jacobi");
  }
  return worst;
}

} // namespace hcart::jacobi
