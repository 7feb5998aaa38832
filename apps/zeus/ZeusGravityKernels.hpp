// ZEUS-like hydrodynamics, the kernels of self-gravity (ZeusGravity.cpp, ZeusSource.cpp): the
// right-hand side, the ghost zones of isolated sides, and the acceleration of the face
// velocities.
#pragma once

#include "ZeusLoops.hpp"

#include <hcart/grid/Reductions.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>
#include <hcart/solvers/Multigrid.hpp>

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

/// \brief The ghost zones behind an isolated side: 2 phi_b - phi of the zone inside the face
/// (phi linear through the face value; the kick and the time step read the first layer),
/// phi_b from the solver's multipole expansion of the last solve.
struct IsolatedGhost {
  ZoneGeometry g;
  MultigridFreeSpace phi;
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
