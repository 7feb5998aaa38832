// Jacobi3D's multigrid kernels on one level: a red-black Gauss-Seidel update, a weighted
// Jacobi sweep and the residual f - A u of the same 7-point discretisation as the Jacobi
// solver (PointUpdates.hpp: A u = (u_W + u_E - 2u) c_x + (u_S + u_N - 2u) c_y +
// (u_D + u_U - 2u) c_z), each value from its operands in a fixed order, so that the cycles
// are bitwise the same on every decomposition.
#pragma once

#include "PointUpdates.hpp"

#include <hcart/grid/FieldAccessor.hpp>
#include <hcart/grid/Reductions.hpp>

namespace hcart::jacobi {

/// \brief The residual f - A u at one point (A as above).
KOKKOS_INLINE_FUNCTION double residual_of(double west, double east, double south, double north,
                                          double down, double up, double centre, double f,
                                          const Stencil& s) {
  return f - ((west + east - 2.0 * centre) * s.cx + (south + north - 2.0 * centre) * s.cy +
              (down + up - 2.0 * centre) * s.cz);
}

/// \brief u = the Gauss-Seidel value from its neighbours (a colour of a red-black sweep: the
/// neighbours are of the other colour).
struct GaussSeidelPoint {
  FieldAccessor<double> u;
  FieldAccessor<const double> f;
  Stencil s;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    u(i, j, k) = update(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                        u(i, j, k - 1), u(i, j, k + 1), f(i, j, k), s);
  }
};

/// \brief v = u + omega (Jacobi value - u): one weighted Jacobi sweep into v.
struct WeightedJacobiPoint {
  FieldAccessor<const double> u;
  FieldAccessor<double> v;
  FieldAccessor<const double> f;
  Stencil s;
  double omega;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double jacobi = update(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                                 u(i, j, k - 1), u(i, j, k + 1), f(i, j, k), s);
    v(i, j, k) = u(i, j, k) + omega * (jacobi - u(i, j, k));
  }
};

/// \brief to = from.
struct CopyPoint {
  FieldAccessor<const double> from;
  FieldAccessor<double> to;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { to(i, j, k) = from(i, j, k); }
};

/// \brief r = f - A u.
struct ResidualPoint {
  FieldAccessor<const double> u, f;
  FieldAccessor<double> r;
  Stencil s;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    r(i, j, k) = residual_of(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                             u(i, j, k - 1), u(i, j, k + 1), u(i, j, k), f(i, j, k), s);
  }
};

/// \brief max |f - A u| and max |f| in one reduction (a NaN counts as infinite: a max drops it).
struct ResidualNorms {
  FieldAccessor<const double> u, f;
  Stencil s;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, ReductionArray<double, 2>& v) const {
    const double r = residual_of(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                                 u(i, j, k - 1), u(i, j, k + 1), u(i, j, k), f(i, j, k), s);
    const double a = r == r ? (r < 0 ? -r : r) : math::infinity();
    const double b = f(i, j, k) < 0 ? -f(i, j, k) : f(i, j, k);
    v[0] = a > v[0] ? a : v[0];
    v[1] = b > v[1] ? b : v[1];
  }
};

} // namespace hcart::jacobi
