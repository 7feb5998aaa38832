// ZEUS-like hydrodynamics, the kernels of the transport step in one direction a
// (ZeusTransport.cpp): mass and energy fluxes, new densities, momenta along and across a,
// and the heating by the kinetic energy the advection dissipates.
#pragma once

#include "ZeusLoops.hpp"
#include "ZeusPointUpdates.hpp"

namespace hcart::zeus {

/// \brief Mass and energy fluxes through the a-faces: van Leer upwind values times the mass
/// moved.
struct MassFlux {
  ConstCells D, E, VA;
  Cells MF, EF;
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
  ConstCells D, E, MF, EF;
  Cells DN, EN;
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
  ConstCells VA, MF, D, DN;
  Cells VN, HEAT;
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
  ConstCells VA, VB, MF, D, DN;
  Cells VN, HEAT;
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
  Cells EN;
  ConstCells HEAT;
  long sb;
  KOKKOS_INLINE_FUNCTION void operator()(long c) const { EN[c] += 0.5 * (HEAT[c] + HEAT[c + sb]); }
};

} // namespace hcart::zeus
