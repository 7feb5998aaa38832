// ZEUS-like hydrodynamics, the kernels of the diagnostics (ZeusDiagnostics.cpp): the CFL
// time step of a zone, and the integrands of the total mass and energy.
#pragma once

#include "ZeusLoops.hpp"
#include "ZeusPointUpdates.hpp"

namespace hcart::zeus {

/// \brief The inverse square of the largest stable time step of a zone: sound crossing,
/// flow and viscous limits (the CFL condition takes the max over zones).
struct InverseTimeStepSquared {
  ConstCells D, E;
  ConstVectors V;
  Offsets s;
  Spacing dx;
  double dxmin, gamma, q2;

  KOKKOS_INLINE_FUNCTION void operator()(long c, double& inv) const {
    double sum = sound_speed_squared(D[c], E[c], gamma) / (dxmin * dxmin);
    for (int a = 0; a < 3; ++a) {
      const double vbar = 0.5 * (V[a][c] + V[a][c + s[a]]);
      const double dv = V[a][c + s[a]] - V[a][c];
      const double visc = dv < 0 ? 4.0 * q2 * (-dv) / dx[a] : 0.0;
      sum += vbar * vbar / (dx[a] * dx[a]) + visc * visc;
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
