// ZEUS-like hydrodynamics, the kernels of self-gravity (ZeusGravity.cpp, ZeusSource.cpp): the
// right-hand side, the multipole moments and the potential they give on the boundary, the
// ghost zones of isolated sides, and the acceleration of the face velocities.
#pragma once

#include "ZeusLoops.hpp"

#include <hcart/grid/Reductions.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>

namespace hcart::zeus {

/// \brief Where zones are: the lower corner, the spacing, the domain's centre and the global
/// index of local index 0.
struct ZoneGeometry {
  Spacing lower, dx, centre;
  Kokkos::Array<long long, 3> first;
  /// \brief The coordinate of global zone index g's centre in direction a, from the domain's
  /// centre.
  KOKKOS_INLINE_FUNCTION double at(int a, long long g) const {
    return lower[a] + (static_cast<double>(g) + 0.5) * dx[a] - centre[a];
  }
};

/// \brief Local index (i, j, k) of the solver's level 0 (one halo layer) is (i, j, k) +
/// shift on the hydro grid (its 3 layers): one block, two halo depths.
using Shift = Kokkos::Array<int, 3>;

/// \brief f = -4 pi G rho (the solver's alpha u - beta Delta u = f with alpha 0, beta 1).
struct GravitySource {
  FieldAccessor<double> f;
  FieldAccessor<const double> rho; // hydro grid
  Shift s;
  double four_pi_g;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    f(i, j, k) = -four_pi_g * rho(i + s[0], j + s[1], k + s[2]);
  }
};

/// \brief The solution into the potential on the hydro grid (owned zones).
struct CopyToHydro {
  FieldAccessor<double> phi; // hydro grid
  FieldAccessor<const double> u;
  Shift s;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    phi(i + s[0], j + s[1], k + s[2]) = u(i, j, k);
  }
};

/// \brief A zone's mass and its moments about the centre: m, m r (3), m (3 r_a r_b - r^2
/// delta_ab) for ab = xx, yy, zz, xy, xz, yz.
struct MassMoments {
  FieldAccessor<const double> rho; // hydro grid
  Shift s;
  ZoneGeometry g; // of the solver's level 0
  double volume;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, ReductionArray<double, 10>& x) const {
    const double r[3] = {g.at(0, g.first[0] + i), g.at(1, g.first[1] + j), g.at(2, g.first[2] + k)};
    const double m = rho(i + s[0], j + s[1], k + s[2]) * volume;
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

/// \brief The expansion's potential at r (from the centre): -G (M / |r| + D.r / |r|^3 +
/// r^T Q r / (2 |r|^5)).
struct Multipole {
  Kokkos::Array<double, 10> moments;
  double g;
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const {
    const double r2 = x * x + y * y + z * z, r = math::sqrt(r2);
    const double dipole = moments[1] * x + moments[2] * y + moments[3] * z;
    const double quadrupole = moments[4] * x * x + moments[5] * y * y + moments[6] * z * z +
                              2 * (moments[7] * x * y + moments[8] * x * z + moments[9] * y * z);
    return -g * (moments[0] / r + dipole / (r2 * r) + quadrupole / (2 * r2 * r2 * r));
  }
};

/// \brief The zones beside one physical side (a layer of owned zones): f += 2 phi_b / h^2,
/// phi_b at the centre of the zone's face on that side.
struct IsolatedRhs {
  FieldAccessor<double> f;
  ZoneGeometry g;
  Multipole phi;
  int dir;
  double face; // the side's coordinate from the centre
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    double p[3] = {g.at(0, g.first[0] + i), g.at(1, g.first[1] + j), g.at(2, g.first[2] + k)};
    p[dir] = face;
    f(i, j, k) += 2.0 * phi(p[0], p[1], p[2]) / (g.dx[dir] * g.dx[dir]);
  }
};

/// \brief The ghost zones behind an isolated side: 2 phi_b - phi of the zone inside the face
/// (phi linear through the face value; the kick and the time step read the first layer).
struct IsolatedGhost {
  ZoneGeometry g;
  Multipole phi;
  Spacing half_extent; // the faces' coordinates from the centre, per direction
  KOKKOS_INLINE_FUNCTION double operator()(const Inside<double>& inside, const Ghost& ghost) const {
    const int dir = static_cast<int>(ghost.side) / 2;
    const bool high = static_cast<int>(ghost.side) % 2 == 1;
    double p[3] = {g.at(0, ghost.global[0]), g.at(1, ghost.global[1]), g.at(2, ghost.global[2])};
    p[dir] = high ? half_extent[dir] : -half_extent[dir];
    return 2.0 * phi(p[0], p[1], p[2]) - inside(1);
  }
};

/// \brief The gravitational kick of the face velocity of direction a: v -= dt dphi/dx.
struct GravityAcceleration {
  Cells V;
  ConstCells Phi;
  long sa;
  double dt, dx;
  KOKKOS_INLINE_FUNCTION void operator()(long c) const { V[c] -= dt * (Phi[c] - Phi[c - sa]) / dx; }
};

} // namespace hcart::zeus
