// ZEUS-like hydrodynamics, the kernels of the set-up (ZeusProblem.cpp): the initial state
// of every problem, and the zones of the Sedov deposit.
#pragma once

#include "ZeusConfig.hpp"
#include "ZeusLoops.hpp"

namespace hcart::zeus {

/// \brief The initial state of every problem, at zone centres (velocities on low faces).
struct InitialState {
  Spacing lower, upper, velocity, dx;
  Kokkos::Array<double, 2> sod_left, sod_right;
  double density, pressure, noh_speed, bump_amplitude, bump_width;
  double gm1, r0, deposit; // gamma - 1, Sedov deposit radius and energy density
  double sphere_radius, sphere_density, jeans_amplitude, gravity_constant;
  int direction;
  Problem problem;
  bool sine;
  Kokkos::Array<long long, 3> first; // global index of local index 0
  Cells D, E;
  Vectors V;

  KOKKOS_INLINE_FUNCTION double centre(int a, int local) const {
    return lower[a] + (static_cast<double>(first[a] + local) + 0.5) * dx[a];
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const;
  KOKKOS_INLINE_FUNCTION double sphere_fraction(const double x[3]) const;
};

/// \brief Counts the zones inside the Sedov deposit radius.
struct SedovZones {
  InitialState s;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& count) const {
    const double x = s.centre(0, i) - s.lower[0], y = s.centre(1, j) - s.lower[1],
                 z = s.centre(2, k) - s.lower[2];
    if (x * x + y * y + z * z < s.r0 * s.r0) count += 1.0;
  }
};

KOKKOS_INLINE_FUNCTION void InitialState::operator()(int i, int j, int k) const {
  const long c = D.offset(i, j, k);
  const double x[3] = {centre(0, i), centre(1, j), centre(2, k)};
  const double pi = 3.14159265358979323846;
  double rho = density, p = pressure, v[3] = {0, 0, 0};
  switch (problem) {
  case Problem::Sod: {
    const double mid = 0.5 * (lower[direction] + upper[direction]);
    const bool left = x[direction] < mid;
    rho = left ? sod_left[0] : sod_right[0];
    p = left ? sod_left[1] : sod_right[1];
    break;
  }
  case Problem::Sedov: {
    const double r2 = (x[0] - lower[0]) * (x[0] - lower[0]) +
                      (x[1] - lower[1]) * (x[1] - lower[1]) + (x[2] - lower[2]) * (x[2] - lower[2]);
    if (r2 < r0 * r0) p += gm1 * deposit;
    break;
  }
  case Problem::Noh: v[direction] = -noh_speed; break;
  case Problem::Sphere:
    // The cells the surface cuts hold the share of their volume inside it.
    rho = density + (sphere_density - density) * sphere_fraction(x);
    break;
  case Problem::Jeans: {
    // A density wave along x, adiabatic, with the velocity of the growing mode where the
    // wave is Jeans-unstable (omega^2 = 4 pi G rho - c^2 k^2 > 0; at rest otherwise): rho =
    // rho0 (1 + A cos k x), v = -(omega A / k) sin k x on the faces.
    const double L = upper[0] - lower[0], kx = 2 * pi / L;
    const double c2 = (gm1 + 1.0) * pressure / density;
    const double omega2 = 4 * pi * gravity_constant * density - c2 * kx * kx;
    const double omega = omega2 > 0 ? math::sqrt(omega2) : 0.0;
    const double wave = math::cos(kx * (x[0] - lower[0]));
    rho = density * (1.0 + jeans_amplitude * wave);
    p = pressure * (1.0 + (gm1 + 1.0) * jeans_amplitude * wave);
    const double face = x[0] - 0.5 * dx[0] - lower[0];
    v[0] = -omega * jeans_amplitude / kx * math::sin(kx * face);
    break;
  }
  case Problem::Advection: {
    double bump = 0;
    if (sine) {
      bump = math::sin(2 * pi * (x[0] - lower[0]) / (upper[0] - lower[0]));
    } else {
      double r2 = 0;
      for (int a = 0; a < 3; ++a) {
        const double m = 0.5 * (lower[a] + upper[a]);
        r2 += (x[a] - m) * (x[a] - m);
      }
      bump = math::exp(-r2 / (2 * bump_width * bump_width));
    }
    rho = density * (1.0 + bump_amplitude * bump);
    for (int a = 0; a < 3; ++a)
      v[a] = velocity[a];
    break;
  }
  }
  D[c] = rho;
  E[c] = p / gm1;
  V[0][c] = v[0];
  V[1][c] = v[1];
  V[2][c] = v[2];
}

// The share of the zone centred at x inside the sphere: 0 or 1 away from the surface, else
// exact along x (the chord through the sphere, clipped to the zone) and averaged over 16^2
// lines spread evenly over the zone's y-z face (a midpoint rule of a smooth integrand: the
// sphere's mass within 1e-5 of 4 pi R^3 / 3 on 32^3 zones, where points in the zones were 1e-3
// off).
KOKKOS_INLINE_FUNCTION double InitialState::sphere_fraction(const double x[3]) const {
  double p[3], r2 = 0, half_diagonal2 = 0;
  for (int a = 0; a < 3; ++a) {
    p[a] = x[a] - 0.5 * (lower[a] + upper[a]);
    r2 += p[a] * p[a];
    half_diagonal2 += 0.25 * dx[a] * dx[a];
  }
  const double r = math::sqrt(r2), reach = math::sqrt(half_diagonal2);
  if (r + reach <= sphere_radius) return 1.0;
  if (r - reach >= sphere_radius) return 0.0;
  constexpr int m = 16;
  double inside = 0;
  for (int q = 0; q < m; ++q)
    for (int t = 0; t < m; ++t) {
      const double y = p[1] + ((q + 0.5) / m - 0.5) * dx[1];
      const double z = p[2] + ((t + 0.5) / m - 0.5) * dx[2];
      const double c2 = sphere_radius * sphere_radius - y * y - z * z;
      if (c2 <= 0) continue;
      const double c = math::sqrt(c2);
      const double from = p[0] - 0.5 * dx[0] > -c ? p[0] - 0.5 * dx[0] : -c;
      const double to = p[0] + 0.5 * dx[0] < c ? p[0] + 0.5 * dx[0] : c;
      if (to > from) inside += (to - from) / dx[0];
    }
  return inside / (m * m);
}

} // namespace hcart::zeus
