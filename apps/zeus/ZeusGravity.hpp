// ZEUS-like hydrodynamics, self-gravity ([gravity], docs/zeus.md): the potential of the gas,
// Delta phi = 4 pi G rho, solved every step by hcart's multigrid (hcart/solvers/Multigrid.hpp)
// on zone-centred levels of the hydro grid's decomposition, from phi = 0 to a relative
// residual (so the potential depends on the density alone, and a restart needs nothing more).
//
// The levels have one halo layer (the hydro grid three): the kernels between the two shift
// the local indices. Boundaries:
//   - periodic: every side periodic; the solver takes the mean density out (the "Jeans
//     swindle": the uniform background exerts no force) and gives phi mean zero;
//   - isolated: the solver's free-space sides (MultigridBoundary::FreeSpace): phi on the
//     domain's faces from the multipole expansion of f = -4 pi G rho to the quadrupole,
//     about the domain's centre (monopole M, dipole D, traceless quadrupole Q of the mass
//     m = rho V):
//       phi_b(r) = -G (M / |r| + D.r / |r|^3 + r^T Q r / (2 |r|^5)),
//     the moments sums of the same bits on every decomposition; the solver folds the face
//     values into the zones beside them as Dirichlet data, and the ghost zones of the
//     potential get 2 phi_b - phi inside from the same expansion (Multigrid::free_space).
// The acceleration -grad phi acts on the face velocities in the source step (ZeusSource.cpp);
// the time step keeps a zone's fall under it within the Courant number (ZeusDiagnostics.cpp).
#pragma once

#include "ZeusConfig.hpp"
#include "ZeusGravityKernels.hpp"

#include <hcart/core/Timers.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>
#include <hcart/solvers/Multigrid.hpp>

#include <array>

namespace hcart::zeus {

class Gravity {
public:
  /// \brief The multigrid levels of `grid`'s decomposition (made by read_config to nest) and
  /// a potential field of `grid`'s extents. Collective.
  Gravity(const Grid& grid, const Settings& settings, Timers& timers);

  /// \brief phi of the density's owned zones, its ghost zones behind every side filled
  /// (exchanged, or from the expansion). Collective. \throws hcart::Error (on every rank)
  /// when the solve does not converge within [gravity] max_cycles.
  void solve(const Field<double>& density);
  /// \brief phi on the hydro grid (owned zones and one layer of ghosts).
  const Field<double>& potential() const noexcept { return m_phi; }
  /// \brief The cycles of the last solve.
  long cycles() const noexcept { return m_cycles; }

private:
  // Where `grid`'s zones are (the hydro grid or the solver's level 0: another halo).
  ZoneGeometry geometry(const Grid& grid) const;

  const Grid& m_grid;
  GravitySettings m_s;
  std::array<double, 3> m_lower{}, m_upper{}, m_dx{};
  Timers& m_timers;
  GridHierarchy m_levels;
  Multigrid m_mg;
  Field<double> m_phi;
  HaloExchanger m_halo;
  PhysicalBoundaries m_bc;
  Kokkos::Array<int, 3> m_shift{}; // level 0's local index + this = the hydro grid's
  long m_cycles = 0;
};

} // namespace hcart::zeus
