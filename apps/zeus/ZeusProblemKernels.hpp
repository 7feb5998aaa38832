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

} // namespace hcart::zeus
