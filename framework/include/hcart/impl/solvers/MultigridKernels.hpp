// The point updates of hcart::Multigrid (hcart/solvers/Multigrid.hpp) on one level: the
// 7-point operator A u = alpha u - beta Delta_h u, a red-black Gauss-Seidel update, a weighted
// Jacobi sweep, the residual and its norm, each value from its operands in a fixed order so
// that the cycles are bitwise the same on every decomposition and backend. Internal.
#pragma once

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/FieldAccessor.hpp>
#include <hcart/grid/Reductions.hpp>

#include <cstring>

namespace hcart::impl {

/// \brief One level's operator: c_d = beta / h_d^2, inv_diag = 1 / (alpha + 2 (cx + cy + cz)).
struct MultigridStencil {
  double cx = 1, cy = 1, cz = 1;
  double alpha = 0;
  double inv_diag = 1.0 / 6.0;
};

/// \brief c_d = beta (m_d / L_d)^2 for m_d intervals of the length L_d per direction.
inline MultigridStencil multigrid_stencil(double alpha, double beta, double mx, double my,
                                          double mz, double lx, double ly, double lz) {
  MultigridStencil s;
  s.cx = beta * ((mx / lx) * (mx / lx));
  s.cy = beta * ((my / ly) * (my / ly));
  s.cz = beta * ((mz / lz) * (mz / lz));
  s.alpha = alpha;
  s.inv_diag = 1.0 / (alpha + 2.0 * (s.cx + s.cy + s.cz));
  return s;
}

/// \brief The value of u at a point that solves its row of A u = f from its neighbours.
KOKKOS_INLINE_FUNCTION double multigrid_point(double west, double east, double south, double north,
                                              double down, double up, double f,
                                              const MultigridStencil& s) {
  return ((west + east) * s.cx + (south + north) * s.cy + (down + up) * s.cz + f) * s.inv_diag;
}

/// \brief f - A u at one point.
KOKKOS_INLINE_FUNCTION double multigrid_residual(double west, double east, double south,
                                                 double north, double down, double up,
                                                 double centre, double f,
                                                 const MultigridStencil& s) {
  const double laplacian = (west + east - 2.0 * centre) * s.cx +
                           (south + north - 2.0 * centre) * s.cy +
                           (down + up - 2.0 * centre) * s.cz;
  return (f + laplacian) - s.alpha * centre;
}

/// \brief The point's solution from its neighbours (a red-black sweep's update, which the
/// loops of hcart/grid/ColouredLoops.hpp store).
struct MultigridPointValue {
  FieldAccessor<const double> u;
  FieldAccessor<const double> f;
  MultigridStencil s;
  KOKKOS_INLINE_FUNCTION double operator()(int i, int j, int k) const {
    return multigrid_point(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                           u(i, j, k - 1), u(i, j, k + 1), f(i, j, k), s);
  }
};

/// \brief v = u + omega (point solution - u): one weighted Jacobi sweep into v.
struct MultigridJacobi {
  FieldAccessor<const double> u;
  FieldAccessor<double> v;
  FieldAccessor<const double> f;
  MultigridStencil s;
  double omega;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double point =
        multigrid_point(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                        u(i, j, k - 1), u(i, j, k + 1), f(i, j, k), s);
    v(i, j, k) = u(i, j, k) + omega * (point - u(i, j, k));
  }
};

/// \brief to = from.
struct MultigridCopy {
  FieldAccessor<const double> from;
  FieldAccessor<double> to;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { to(i, j, k) = from(i, j, k); }
};

/// \brief u -= shift (a singular problem's mean taken out).
struct MultigridShift {
  FieldAccessor<double> u;
  double shift;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { u(i, j, k) -= shift; }
};

/// \brief A cell's value, the addend of a reproducible sum (hcart/grid/ReproducibleSums.hpp).
struct MultigridValue {
  FieldAccessor<const double> u;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, ReductionArray<double, 1>& x) const {
    x[0] = u(i, j, k);
  }
};

/// \brief r = f - A u.
struct MultigridResidual {
  FieldAccessor<const double> u, f;
  FieldAccessor<double> r;
  MultigridStencil s;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    r(i, j, k) = multigrid_residual(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                                    u(i, j, k - 1), u(i, j, k + 1), u(i, j, k), f(i, j, k), s);
  }
};

/// \brief |x|'s bits as an integer: for x >= 0 they order as x does, and a NaN's lie above
/// infinity's, so the largest of them is max |x| with a NaN anywhere counting as infinite.
KOKKOS_INLINE_FUNCTION long long magnitude_bits(double x) {
  long long bits = 0;
  memcpy(&bits, &x, sizeof bits);
  return bits & 0x7fffffffffffffffLL;
}

/// \brief max |f - A u| as magnitude_bits: an integer maximum, which the host rows vectorise
/// (a floating-point one stays scalar without -ffinite-math-only: 2.6 times the residual
/// kernel's time where this is about as fast; docs/benchmarks.md, "Multigrid").
struct MultigridResidualNorm {
  FieldAccessor<const double> u, f;
  MultigridStencil s;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k,
                                         ReductionArray<long long, 1>& v) const {
    const long long r = magnitude_bits(
        multigrid_residual(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                           u(i, j, k - 1), u(i, j, k + 1), u(i, j, k), f(i, j, k), s));
    v[0] = r > v[0] ? r : v[0];
  }
};

} // namespace hcart::impl
