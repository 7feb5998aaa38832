// ZEUS-like hydrodynamics, kernels: one functor per loop of the scheme, over raw pointers
// of the fields and a zone's linear offset c (LayoutRight: k fastest; a step of s[a]
// moves one zone in direction a). The arithmetic is in PointUpdates.hpp; the solver
// (ZeusSolver.hpp) launches these through for_zones() and reduce_zones() on every backend.
#pragma once

#include "PointUpdates.hpp"
#include "ZeusConfig.hpp"

#include <hcart/grid/Box.hpp>
#include <hcart/grid/Loops.hpp>

namespace hcart::zeus {

using Offsets = Kokkos::Array<long, 3>;    ///< steps of one zone per direction, in elements
using Vectors = Kokkos::Array<double*, 3>; ///< the three face velocities
using ConstVectors = Kokkos::Array<const double*, 3>;
using Spacing = Kokkos::Array<double, 3>;

/// \brief Runs kernel(c) for every zone of `box`, c its linear offset.
template <class Kernel>
struct AtOffset {
  Kernel kernel;
  long s0, s1;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { kernel(i * s0 + j * s1 + k); }
};
template <class Kernel>
void for_zones(const char* label, const Box& box, const Offsets& s, const Kernel& kernel) {
  for_each_cell(label, box, AtOffset<Kernel>{kernel, s[0], s[1]});
}

/// \brief Reduces kernel(c, value&) over the zones of `box` into `result`.
template <class Kernel>
struct AtOffsetReduce {
  Kernel kernel;
  long s0, s1;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& value) const {
    kernel(i * s0 + j * s1 + k, value);
  }
};
template <class Kernel, class Result>
void reduce_zones(const char* label, const Box& box, const Offsets& s, const Kernel& kernel,
                  Result&& result) {
  reduce_cells(label, box, AtOffsetReduce<Kernel>{kernel, s[0], s[1]},
               std::forward<Result>(result));
}

// ---------------------------------------------------------------------------------------
// Set-up

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
  double *D, *E;
  Vectors V;
  long s0, s1;

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
  const long c = i * s0 + j * s1 + k;
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

// ---------------------------------------------------------------------------------------
// Time step

/// \brief The inverse square of the largest stable time step of a zone: sound crossing,
/// flow and viscous limits (the CFL condition takes the max over zones).
struct InverseTimeStepSquared {
  const double *D, *E;
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

// ---------------------------------------------------------------------------------------
// Source step

/// \brief The pressure gradient accelerates the face velocity of direction a.
struct PressureGradient {
  double* V;
  const double *D, *E;
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
  const double *V, *D, *E;
  double* VN;
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
  const double* D;
  double* E;
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
  double* E;
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

// ---------------------------------------------------------------------------------------
// Transport step (one direction a)

/// \brief Mass and energy fluxes through the a-faces: van Leer upwind values times the mass
/// moved.
struct MassFlux {
  const double *D, *E, *VA;
  double *MF, *EF;
  long sa;
  double dt, dx;
  KOKKOS_INLINE_FUNCTION void operator()(long c) const {
    const double v = VA[c], courant = v * dt / dx;
    const long l = c - sa, ll = c - 2 * sa, r = c + sa;
    const double d_star = upwind(v, courant, D[l], van_leer_slope(D[l] - D[ll], D[c] - D[l]), D[c],
                                 van_leer_slope(D[c] - D[l], D[r] - D[c]));
    const double el = E[l] / D[l], ell = E[ll] / D[ll], ec = E[c] / D[c], er = E[r] / D[r];
    const double e_star = upwind(v, courant, el, van_leer_slope(el - ell, ec - el), ec,
                                 van_leer_slope(ec - el, er - ec));
    MF[c] = d_star * v * dt;
    EF[c] = e_star * MF[c];
  }
};

/// \brief New density and energy from the flux differences.
struct DensityAndEnergy {
  const double *D, *E, *MF, *EF;
  double *DN, *EN;
  long sa;
  double dx;
  KOKKOS_INLINE_FUNCTION void operator()(long c) const {
    DN[c] = D[c] - (MF[c + sa] - MF[c]) / dx;
    EN[c] = E[c] - (EF[c + sa] - EF[c]) / dx;
  }
};

/// \brief Momentum along a, on control volumes centred on the a-faces, with fluxes at zone
/// centres; with `heat`, also the kinetic energy the advection destroyed, in HEAT.
struct MomentumAlong {
  const double *VA, *MF, *D, *DN;
  double *VN, *HEAT;
  long sa;
  double dt, dx;
  bool heat;

  KOKKOS_INLINE_FUNCTION double slope(long g) const {
    return van_leer_slope(VA[g] - VA[g - sa], VA[g + sa] - VA[g]);
  }
  // The velocity carried through the centre of zone z.
  KOKKOS_INLINE_FUNCTION double carried(long z) const {
    const double vbar = 0.5 * (VA[z] + VA[z + sa]);
    return upwind(vbar, vbar * dt / dx, VA[z], slope(z), VA[z + sa], slope(z + sa));
  }
  KOKKOS_INLINE_FUNCTION void operator()(long c) const {
    const double mass_here = 0.5 * (MF[c] + MF[c + sa]);
    const double mass_below = 0.5 * (MF[c - sa] + MF[c]);
    const double v_here = carried(c), v_below = carried(c - sa);
    const double before = 0.5 * (D[c - sa] + D[c]);
    const double s = before * VA[c] - (v_here * mass_here - v_below * mass_below) / dx;
    VN[c] = s / (0.5 * (DN[c - sa] + DN[c]));
    if (heat) {
      const double kinetic =
          0.5 * before * VA[c] * VA[c] -
          0.5 * (v_here * v_here * mass_here - v_below * v_below * mass_below) / dx;
      HEAT[c] = kinetic - 0.5 * s * VN[c];
    }
  }
};

/// \brief Momentum along b != a, on control volumes centred on the b-faces, moved by the
/// a-fluxes; with `heat`, also the kinetic energy destroyed, in HEAT.
struct MomentumAcross {
  const double *VA, *VB, *MF, *D, *DN;
  double *VN, *HEAT;
  long sa, sb;
  double dt, dx;
  bool heat;

  KOKKOS_INLINE_FUNCTION double slope(long z) const {
    return van_leer_slope(VB[z] - VB[z - sa], VB[z + sa] - VB[z]);
  }
  KOKKOS_INLINE_FUNCTION double mass(long f) const { return 0.5 * (MF[f] + MF[f - sb]); }
  // The velocity carried through the a-face f of this volume.
  KOKKOS_INLINE_FUNCTION double carried(long f) const {
    const double v = 0.5 * (VA[f] + VA[f - sb]);
    return upwind(v, v * dt / dx, VB[f - sa], slope(f - sa), VB[f], slope(f));
  }
  KOKKOS_INLINE_FUNCTION void operator()(long c) const {
    const double m_high = mass(c + sa), m_low = mass(c);
    const double v_high = carried(c + sa), v_low = carried(c);
    const double before = 0.5 * (D[c - sb] + D[c]);
    const double s = before * VB[c] - (v_high * m_high - v_low * m_low) / dx;
    VN[c] = s / (0.5 * (DN[c - sb] + DN[c]));
    if (heat) {
      const double kinetic = 0.5 * before * VB[c] * VB[c] -
                             0.5 * (v_high * v_high * m_high - v_low * v_low * m_low) / dx;
      HEAT[c] = kinetic - 0.5 * s * VN[c];
    }
  }
};

/// \brief Half of the kinetic energy destroyed on each face goes to each zone beside it.
struct DissipationHeating {
  double* EN;
  const double* HEAT;
  long sb;
  KOKKOS_INLINE_FUNCTION void operator()(long c) const { EN[c] += 0.5 * (HEAT[c] + HEAT[c + sb]); }
};

// ---------------------------------------------------------------------------------------
// Diagnostics

/// \brief The density of a zone (the integrand of the total mass).
struct MassDensity {
  const double* D;
  KOKKOS_INLINE_FUNCTION void operator()(long c, double& sum) const { sum += D[c]; }
};

/// \brief Internal plus kinetic energy density (face velocities with the mean density of the
/// two zones beside the face).
struct EnergyDensity {
  const double *D, *E;
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
