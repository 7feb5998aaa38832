// ZEUS-like hydrodynamics, the kernels of the diagnostics (ZeusDiagnostics.cpp): the CFL
// time step of a zone, and the integrands of the total mass and energy.
#pragma once

#include "ZeusLoops.hpp"
#include "ZeusPointUpdates.hpp"

namespace hcart::zeus {

/// \brief The inverse square of the largest stable time step of a zone: sound crossing,
/// flow and viscous limits, and with self-gravity the fall under its acceleration g (half g
/// dt^2 within the Courant number's share of a zone: 1 / dt^2 = |g_a| / (2 dx_a) per
/// direction); the CFL condition takes the max over zones.
struct InverseTimeStepSquared {
  ConstCells D, E;
  ConstVectors V;
  Offsets s;
  Spacing dx;
  double dxmin, gamma, q2;
  ConstCells Phi; // the potential, where `gravity`
  bool gravity;

  KOKKOS_INLINE_FUNCTION void operator()(long c, double& inv) const {
    double sum = sound_speed_squared(D[c], E[c], gamma) / (dxmin * dxmin);
    for (int a = 0; a < 3; ++a) {
      const double vbar = 0.5 * (V[a][c] + V[a][c + s[a]]);
      const double dv = V[a][c + s[a]] - V[a][c];
      const double visc = dv < 0 ? 4.0 * q2 * (-dv) / dx[a] : 0.0;
      sum += vbar * vbar / (dx[a] * dx[a]) + visc * visc;
      if (gravity) {
        const double g = (Phi[c + s[a]] - Phi[c - s[a]]) / (2.0 * dx[a]);
        sum += (g < 0 ? -g : g) / (2.0 * dx[a]);
      }
    }
    // A NaN (negative energy, a broken state) would vanish from the max: make it infinite.
    if (!(sum == sum)) sum = math::infinity();
    inv = sum > inv ? sum : inv;
  }
};

/// \brief The density of a zone (the integrand of the total mass).
struct MassDensity {
  ConstCells D;
  KOKKOS_INLINE_FUNCTION void operator()(long c, double& sum) const { sum += D[c]; }
};

/// \brief Internal plus kinetic energy density (face velocities with the mean density of the
/// two zones beside the face).
struct EnergyDensity {
  ConstCells D, E;
  ConstVectors V;
  Offsets s;
  KOKKOS_INLINE_FUNCTION void operator()(long c, double& sum) const {
    double kinetic = 0;
    for (int a = 0; a < 3; ++a)
      kinetic += 0.25 * (D[c] + D[c - s[a]]) * V[a][c] * V[a][c];
    sum += E[c] + kinetic;
  }
};

} // namespace hcart::zeus
