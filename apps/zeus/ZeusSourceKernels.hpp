// ZEUS-like hydrodynamics, the kernels of the source step (ZeusSource.cpp): pressure
// gradient, artificial viscosity and its heating, compressional heating.
#pragma once

#include "ZeusLoops.hpp"
#include "ZeusPointUpdates.hpp"

namespace hcart::zeus {

/// \brief The pressure gradient accelerates the face velocity of direction a.
struct PressureGradient {
  Cells V;
  ConstCells D, E;
  long sa;
  double dt, dx, gamma;
  KOKKOS_INLINE_FUNCTION void operator()(long c) const {
    V[c] -=
        dt * 2.0 * (pressure(E[c], gamma) - pressure(E[c - sa], gamma)) / ((D[c] + D[c - sa]) * dx);
  }
};

/// \brief Artificial viscosity: the new face velocity of direction a from the viscous
/// pressure of the two zones beside the face.
struct ViscousAcceleration {
  ConstCells V, D, E;
  Cells VN;
  long sa;
  double dt, dx, gamma, q2, q1;
  KOKKOS_INLINE_FUNCTION void operator()(long c) const {
    const long b = c - sa; // the zone below this face
    const double q_here = viscosity(D[c], V[c + sa] - V[c],
                                    math::sqrt(sound_speed_squared(D[c], E[c], gamma)), q2, q1);
    const double q_below =
        viscosity(D[b], V[c] - V[b], math::sqrt(sound_speed_squared(D[b], E[b], gamma)), q2, q1);
    VN[c] = V[c] - dt * 2.0 * (q_here - q_below) / ((D[c] + D[b]) * dx);
  }
};

/// \brief The heating by artificial viscosity.
struct ViscousHeating {
  ConstCells D;
  Cells E;
  ConstVectors V;
  Offsets s;
  Spacing dx;
  double dt, gamma, q2, q1;
  KOKKOS_INLINE_FUNCTION void operator()(long c) const {
    const double cs = math::sqrt(sound_speed_squared(D[c], E[c], gamma));
    double heat = 0;
    for (int a = 0; a < 3; ++a) {
      const double dv = V[a][c + s[a]] - V[a][c];
      heat += viscosity(D[c], dv, cs, q2, q1) * dv / dx[a];
    }
    E[c] -= dt * heat;
  }
};

/// \brief Compressional heating, implicit and time-centred.
struct CompressionalHeating {
  Cells E;
  ConstVectors V;
  Offsets s;
  Spacing dx;
  double dt, gamma;
  KOKKOS_INLINE_FUNCTION void operator()(long c) const {
    const double divergence = (V[0][c + s[0]] - V[0][c]) / dx[0] +
                              (V[1][c + s[1]] - V[1][c]) / dx[1] +
                              (V[2][c + s[2]] - V[2][c]) / dx[2];
    E[c] = compress(E[c], divergence, dt, gamma);
  }
};

} // namespace hcart::zeus
