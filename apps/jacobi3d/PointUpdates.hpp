// Jacobi3D's point updates: the arithmetic of one cell as pure functions (the AMReX _K.H
// idiom). No loops, halos or I/O here: the kernels (Relax.hpp, Wavefront.hpp), the tests'
// serial reference and the set-up share the exact same floating-point operations, on every
// backend.
#pragma once

#include <hcart/core/ExecutionModel.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>

namespace hcart::jacobi {

/// \brief The 7-point stencil of the unit cube with N_d unknowns per direction and Dirichlet
/// boundaries one spacing outside them: h_d = 1 / (N_d + 1), c_d = 1 / h_d^2.
struct Stencil {
  double cx = 1, cy = 1, cz = 1;
  double inv_diag = 1.0 / 6.0; ///< 1 / (2 (cx + cy + cz))
};

inline Stencil make_stencil(double nx, double ny, double nz) {
  Stencil s;
  s.cx = (nx + 1) * (nx + 1);
  s.cy = (ny + 1) * (ny + 1);
  s.cz = (nz + 1) * (nz + 1);
  s.inv_diag = 1.0 / (2.0 * (s.cx + s.cy + s.cz));
  return s;
}

/// \brief One Jacobi update of the discrete Poisson equation  Delta_h u = rhs.
KOKKOS_INLINE_FUNCTION double update(double west, double east, double south, double north,
                                     double down, double up, double rhs, const Stencil& s) {
  return ((west + east) * s.cx + (south + north) * s.cy + (down + up) * s.cz - rhs) * s.inv_diag;
}

/// \brief The change |next - old| of one cell, or +infinity when it is not finite: a NaN
/// would vanish from a max reduction (every comparison with it is false), and a solution
/// that stopped being finite would look converged. (The host row sweep, Relax.cpp, computes
/// the same values through their bit patterns.)
KOKKOS_INLINE_FUNCTION double change_of(double next, double old) {
  const double change = next > old ? next - old : old - next;
  return change == change ? change : math::infinity();
}

/// \brief The coordinate of unknown `g` (0-based global index) in a direction of n unknowns.
KOKKOS_INLINE_FUNCTION double coordinate(long long g, long long n) {
  return static_cast<double>(g + 1) / static_cast<double>(n + 1);
}

/// \brief pi in double precision.
constexpr double kPi = 3.14159265358979323846;

/// \brief sin(pi x), one factor of the manufactured right-hand side. Host code only: a
/// device's sin may round differently from the host's in the last bit, so the set-up
/// computes these factors on the host and every backend multiplies the same bits
/// (PoissonRhs.hpp).
inline double poisson_sine(double x) {
  return std::sin(kPi * x);
}

/// \brief The manufactured right-hand side f = -3 pi^2 sin(pi x) sin(pi y) sin(pi z), from
/// its three sines (poisson_sine of each coordinate).
KOKKOS_INLINE_FUNCTION double poisson_rhs_of_sines(double sx, double sy, double sz) {
  return -3.0 * kPi * kPi * sx * sy * sz;
}

/// \brief The same right-hand side from the coordinates (host code: the tests' serial
/// reference).
inline double poisson_rhs(double x, double y, double z) {
  return poisson_rhs_of_sines(poisson_sine(x), poisson_sine(y), poisson_sine(z));
}

/// \brief The continuum solution of Delta u = f: sin(pi x) sin(pi y) sin(pi z) (compared
/// within a tolerance only, so the device's sin will do).
KOKKOS_INLINE_FUNCTION double poisson_continuum(double x, double y, double z) {
  return math::sin(kPi * x) * math::sin(kPi * y) * math::sin(kPi * z);
}

/// \brief The exact solution of the discrete problem: the continuum one scaled by
/// 3 pi^2 / sum_d (4 sin^2(pi h_d / 2) / h_d^2) (= 3 pi^2 h^2 / (12 sin^2(pi h / 2)) for
/// equal spacings).
inline double poisson_discrete_scale(double nx, double ny, double nz) {
  const double pi = kPi;
  double sum = 0;
  for (double n : {nx, ny, nz}) {
    const double h = 1.0 / (n + 1);
    const double s = std::sin(pi * h / 2);
    sum += 4 * s * s / (h * h);
  }
  return 3 * pi * pi / sum;
}

} // namespace hcart::jacobi
