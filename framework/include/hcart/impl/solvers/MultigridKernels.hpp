// The point updates of hcart::Multigrid (hcart/solvers/Multigrid.hpp) on one level: the
// 7-point operator A u = alpha u - beta Delta_h u (MultigridStencil) or, with variable
// coefficients, alpha(x) u - div(beta(x) grad u) (MultigridCoefficients), a red-black
// Gauss-Seidel update, a weighted Jacobi sweep, the residual and its norm, each value from its
// operands in a fixed order so that the cycles are bitwise the same on every decomposition and
// backend. Internal.
#pragma once

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/FieldAccessor.hpp>
#include <hcart/grid/Reductions.hpp>
#include <hcart/solvers/Multigrid.hpp>

#include <cstring>

namespace hcart::impl {

using ConstField = FieldAccessor<const double>;

/// \brief The value of u at a point that solves its row of A u = f from its neighbours.
KOKKOS_INLINE_FUNCTION double multigrid_point(double west, double east, double south, double north,
                                              double down, double up, double f, double cx,
                                              double cy, double cz, double inv_diag) {
  return ((west + east) * cx + (south + north) * cy + (down + up) * cz + f) * inv_diag;
}

/// \brief One level's constant operator: c_d = beta / h_d^2, inv_diag = 1 / (alpha + 2 (cx +
/// cy + cz)).
struct MultigridStencil {
  double cx = 1, cy = 1, cz = 1;
  double alpha = 0;
  double inv_diag = 1.0 / 6.0;
  /// \brief The point's solution from its neighbours.
  KOKKOS_INLINE_FUNCTION double point(const ConstField& u, const ConstField& f, int i, int j,
                                      int k) const {
    return multigrid_point(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                           u(i, j, k - 1), u(i, j, k + 1), f(i, j, k), cx, cy, cz, inv_diag);
  }
  /// \brief f - A u at the point.
  KOKKOS_INLINE_FUNCTION double residual(const ConstField& u, const ConstField& f, int i, int j,
                                         int k) const;
  /// \brief A u at the point.
  KOKKOS_INLINE_FUNCTION double apply(const ConstField& u, int i, int j, int k) const {
    const double centre = u(i, j, k);
    const double laplacian = (u(i - 1, j, k) + u(i + 1, j, k) - 2.0 * centre) * cx +
                             (u(i, j - 1, k) + u(i, j + 1, k) - 2.0 * centre) * cy +
                             (u(i, j, k - 1) + u(i, j, k + 1) - 2.0 * centre) * cz;
    return alpha * centre - laplacian;
  }
};

/// \brief The point's solution from its neighbours' values (as MultigridStencil::point).
KOKKOS_INLINE_FUNCTION double multigrid_point(double west, double east, double south, double north,
                                              double down, double up, double f,
                                              const MultigridStencil& s) {
  return multigrid_point(west, east, south, north, down, up, f, s.cx, s.cy, s.cz, s.inv_diag);
}

/// \brief f - A u at one point from its values (as MultigridStencil::residual).
KOKKOS_INLINE_FUNCTION double multigrid_residual(double west, double east, double south,
                                                 double north, double down, double up,
                                                 double centre, double f,
                                                 const MultigridStencil& s) {
  const double laplacian = (west + east - 2.0 * centre) * s.cx +
                           (south + north - 2.0 * centre) * s.cy +
                           (down + up - 2.0 * centre) * s.cz;
  return (f + laplacian) - s.alpha * centre;
}

KOKKOS_INLINE_FUNCTION double MultigridStencil::residual(const ConstField& u, const ConstField& f,
                                                         int i, int j, int k) const {
  return multigrid_residual(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                            u(i, j, k - 1), u(i, j, k + 1), u(i, j, k), f(i, j, k), *this);
}

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

/// \brief One level's variable operator, A u = alpha(x) u - div(beta(x) grad u) (cell-centred):
/// per cell alpha, the coefficients of its low faces b_d (b_x(i, j, k) couples (i - 1, j, k)
/// and (i, j, k): the harmonic mean of their betas over h_x^2) and 1 / the diagonal.
struct MultigridCoefficients {
  ConstField a, bx, by, bz, inv_diag;
  KOKKOS_INLINE_FUNCTION double point(const ConstField& u, const ConstField& f, int i, int j,
                                      int k) const {
    return (bx(i, j, k) * u(i - 1, j, k) + bx(i + 1, j, k) * u(i + 1, j, k) +
            by(i, j, k) * u(i, j - 1, k) + by(i, j + 1, k) * u(i, j + 1, k) +
            bz(i, j, k) * u(i, j, k - 1) + bz(i, j, k + 1) * u(i, j, k + 1) + f(i, j, k)) *
           inv_diag(i, j, k);
  }
  KOKKOS_INLINE_FUNCTION double residual(const ConstField& u, const ConstField& f, int i, int j,
                                         int k) const {
    const double centre = u(i, j, k);
    const double flux =
        bx(i, j, k) * (u(i - 1, j, k) - centre) + bx(i + 1, j, k) * (u(i + 1, j, k) - centre) +
        by(i, j, k) * (u(i, j - 1, k) - centre) + by(i, j + 1, k) * (u(i, j + 1, k) - centre) +
        bz(i, j, k) * (u(i, j, k - 1) - centre) + bz(i, j, k + 1) * (u(i, j, k + 1) - centre);
    return (f(i, j, k) + flux) - a(i, j, k) * centre;
  }
  KOKKOS_INLINE_FUNCTION double apply(const ConstField& u, int i, int j, int k) const {
    const double centre = u(i, j, k);
    const double flux =
        bx(i, j, k) * (u(i - 1, j, k) - centre) + bx(i + 1, j, k) * (u(i + 1, j, k) - centre) +
        by(i, j, k) * (u(i, j - 1, k) - centre) + by(i, j + 1, k) * (u(i, j + 1, k) - centre) +
        bz(i, j, k) * (u(i, j, k - 1) - centre) + bz(i, j, k + 1) * (u(i, j, k + 1) - centre);
    return a(i, j, k) * centre - flux;
  }
};

/// \brief b(i, j, k) = the harmonic mean of beta at the cell and at the one below it along
/// `dir`, times inv_h2 (the same bits from either side: the mean is symmetric).
struct MultigridFaceCoefficient {
  ConstField beta;
  FieldAccessor<double> b;
  int dir;
  double inv_h2;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double p = beta(i, j, k);
    const double q = beta(i - (dir == 0 ? 1 : 0), j - (dir == 1 ? 1 : 0), k - (dir == 2 ? 1 : 0));
    b(i, j, k) = ((2.0 * p * q) / (p + q)) * inv_h2;
  }
};

/// \brief inv_diag = 1 / (alpha + the six face coefficients).
struct MultigridDiagonal {
  ConstField a, bx, by, bz;
  FieldAccessor<double> inv_diag;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    inv_diag(i, j, k) =
        1.0 / (a(i, j, k) + ((bx(i, j, k) + bx(i + 1, j, k)) + (by(i, j, k) + by(i, j + 1, k)) +
                             (bz(i, j, k) + bz(i, j, k + 1))));
  }
};

/// \brief The largest of -beta, -alpha and alpha, and whether a value is not finite (the
/// coefficients' check: beta > 0, alpha >= 0, both finite; alpha = 0 everywhere is singular
/// without a Dirichlet side).
struct MultigridCoefficientCheck {
  ConstField alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, ReductionArray<double, 4>& v) const {
    const double a = alpha(i, j, k), b = beta(i, j, k);
    v[0] = -b > v[0] ? -b : v[0];
    v[1] = -a > v[1] ? -a : v[1];
    const bool finite = a - a == 0.0 && b - b == 0.0; // false for NaN and infinity
    v[2] = finite ? v[2] : 1.0;
    v[3] = a > v[3] ? a : v[3];
  }
};

/// \brief The point's solution from its neighbours (a red-black sweep's update, which the
/// loops of hcart/grid/ColouredLoops.hpp store), for either operator.
template <class Operator>
struct MultigridPointValue {
  ConstField u, f;
  Operator op;
  KOKKOS_INLINE_FUNCTION double operator()(int i, int j, int k) const {
    return op.point(u, f, i, j, k);
  }
};

/// \brief v = u + omega (point solution - u): one weighted Jacobi sweep into v.
template <class Operator>
struct MultigridJacobi {
  ConstField u;
  FieldAccessor<double> v;
  ConstField f;
  Operator op;
  double omega;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double point = op.point(u, f, i, j, k);
    v(i, j, k) = u(i, j, k) + omega * (point - u(i, j, k));
  }
};

/// \brief q = A p (the conjugate gradients' product).
template <class Operator>
struct MultigridApply {
  ConstField p;
  FieldAccessor<double> q;
  Operator op;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    q(i, j, k) = op.apply(p, i, j, k);
  }
};

/// \brief The addends of two dot products, a.b and c.d (hcart::reproducible_sums).
struct MultigridDots {
  ConstField a, b, c, d;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, ReductionArray<double, 2>& x) const {
    x[0] = a(i, j, k) * b(i, j, k);
    x[1] = c(i, j, k) * d(i, j, k);
  }
};

/// \brief p = z + beta p.
struct MultigridDirection {
  ConstField z;
  FieldAccessor<double> p;
  double beta;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    p(i, j, k) = z(i, j, k) + beta * p(i, j, k);
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

/// \brief Where level 0's cell centres are, from the box's centre: (offset + i + 0.5) h -
/// length / 2 in direction d.
struct MultigridCellCentres {
  long long offset[3];
  double h[3], half[3];
  KOKKOS_INLINE_FUNCTION double at(int d, int i) const {
    return (static_cast<double>(offset[d] + i) + 0.5) * h[d] - half[d];
  }
};

/// \brief A cell's f V and its moments about the box's centre, in MultigridFreeSpace's order:
/// m, m r (3), m (3 r_a r_b - r^2 delta_ab) for ab = xx, yy, zz, xy, xz, yz.
struct MultigridMoments {
  FieldAccessor<const double> f;
  MultigridCellCentres c;
  double volume;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, ReductionArray<double, 10>& x) const {
    const double r[3] = {c.at(0, i), c.at(1, j), c.at(2, k)};
    const double m = f(i, j, k) * volume;
    const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    x[0] = m;
    x[1] = m * r[0];
    x[2] = m * r[1];
    x[3] = m * r[2];
    x[4] = m * (3 * r[0] * r[0] - r2);
    x[5] = m * (3 * r[1] * r[1] - r2);
    x[6] = m * (3 * r[2] * r[2] - r2);
    x[7] = m * 3 * r[0] * r[1];
    x[8] = m * 3 * r[0] * r[2];
    x[9] = m * 3 * r[1] * r[2];
  }
};

/// \brief The cells beside one free-space side: f += 2 beta u_b / h^2 (`factor`), u_b the
/// expansion's value at the centre of the cell's face on that side (the Dirichlet data of the
/// cell-centred operator, whose ghost is 2 u_b - the inside cell).
struct MultigridFreeSpaceFold {
  FieldAccessor<double> f;
  MultigridCellCentres c;
  MultigridFreeSpace u;
  int dir;
  double face; // the side's coordinate from the centre
  double factor;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    double p[3] = {c.at(0, i), c.at(1, j), c.at(2, k)};
    p[dir] = face;
    f(i, j, k) += factor * u(p[0], p[1], p[2]);
  }
};

/// \brief r = f - A u.
template <class Operator>
struct MultigridResidual {
  ConstField u, f;
  FieldAccessor<double> r;
  Operator op;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    r(i, j, k) = op.residual(u, f, i, j, k);
  }
};

/// \brief |x|'s bits as an integer: for x >= 0 they order as x does, and a NaN's lie above
/// infinity's, so the largest of them is max |x| with a NaN anywhere counting as infinite.
KOKKOS_INLINE_FUNCTION long long magnitude_bits(double x) {
  long long bits = 0;
  memcpy(&bits, &x, sizeof bits);
  return bits & 0x7fffffffffffffffLL;
}

/// \brief The magnitude whose magnitude_bits are `bits` (0 for bits <= 0: a maximum's
/// identity over no cell).
inline double from_magnitude_bits(long long bits) {
  double x = 0;
  if (bits > 0) memcpy(&x, &bits, sizeof x);
  return x;
}

/// \brief max |f - A u| as magnitude_bits: an integer maximum, which the host rows vectorise
/// (a floating-point one stays scalar without -ffinite-math-only: 2.6 times the residual
/// kernel's time where this is about as fast; docs/benchmarks.md, "Multigrid").
template <class Operator>
struct MultigridResidualNorm {
  ConstField u, f;
  Operator op;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k,
                                         ReductionArray<long long, 1>& v) const {
    const long long r = magnitude_bits(op.residual(u, f, i, j, k));
    v[0] = r > v[0] ? r : v[0];
  }
};

/// \brief x += alpha p and r -= alpha q (a conjugate-gradient step), and the largest |r| as
/// magnitude_bits.
struct MultigridStep {
  FieldAccessor<double> x, r;
  ConstField p, q;
  double alpha;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k,
                                         ReductionArray<long long, 1>& v) const {
    x(i, j, k) += alpha * p(i, j, k);
    r(i, j, k) -= alpha * q(i, j, k);
    const long long m = magnitude_bits(r(i, j, k));
    v[0] = m > v[0] ? m : v[0];
  }
};

} // namespace hcart::impl
