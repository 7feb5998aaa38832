// The ZEUS solver's transport step in one direction: consistent advection of mass, energy
// and the three momenta with van Leer upwind values, and the dissipation heating.
#include "ZeusSolver.hpp"
#include "ZeusTransportKernels.hpp"

namespace hcart::zeus {

void Solver::transport(int a, double dt) {
  // What the sweep reads: the whole halo along a (the upwind values of the fluxes one zone
  // beyond the owned ones reach two more), one layer across it (the fluxes and new
  // densities of the ring around the owned zones, which the momenta across a average), and
  // the edges and corners between (HaloWidth per direction, Full mode): 10 of the 18 face
  // layers of a whole Full exchange.
  HaloWidth width{1, 1, 1};
  width.layers[a] = 0;
  refresh(HaloMode::Full, width);
  auto scope = m_timers.region("compute");
  const Offsets s = offsets();
  const long sa = s[a];
  const double dx = m_dx[a];
  const Box owned = owned_box();
  // Fluxes on the a-faces of the owned zones and one layer around them.
  Box around = owned;
  for (int d = 0; d < 3; ++d) {
    --around.lo[d];
    ++around.hi[d];
  }
  Box faces = around;
  faces.hi[a] += 1;
  for_zones("zeus_mass_flux", faces, layout(),
            MassFlux{m_d, m_e, m_v[a], m_mflux, m_eflux, sa, dt, dx});
  for_zones("zeus_density", around, layout(),
            DensityAndEnergy{m_d, m_e, m_mflux, m_eflux, m_dn, m_en, sa, dx});
  // With heat_dissipation, each momentum kernel also leaves in m_heat, on the faces of its
  // control volumes, the kinetic energy that the advection of that momentum destroyed: the
  // old kinetic energy of the control volume, less the kinetic energy carried across its
  // ends by the same mass fluxes at the same upwind velocities, less the new kinetic energy.
  // Half of it goes to each zone beside the face, so the sweep conserves e + kinetic
  // energy to round-off instead of losing what the mixing of momenta dissipates (DeBar's
  // kinetic energy fix of Lagrange-remap codes). The kernels run up to the high face of
  // the owned zones in their direction, which the heating of the last zone needs.
  const bool heat = m_s.heat_dissipation;
  const auto deposit = [&](int b) {
    if (!heat) return;
    for_zones("zeus_dissipation", owned, layout(), DissipationHeating{m_en, m_heat, s[b]});
  };
  {
    // Momentum along a, on control volumes centred on the a-faces; fluxes at zone centres.
    Box volumes = owned;
    volumes.hi[a] += 1;
    for_zones("zeus_momentum", volumes, layout(),
              MomentumAlong{m_v[a], m_mflux, m_d, m_dn, m_vn[a], m_heat, sa, dt, dx, heat});
    deposit(a);
  }
  for (int b = 0; b < 3; ++b) {
    if (b == a) continue;
    // Momentum along b, on control volumes centred on the b-faces, moved by the a-fluxes.
    Box volumes = owned;
    volumes.hi[b] += 1;
    for_zones("zeus_transverse", volumes, layout(),
              MomentumAcross{m_v[a], m_v[b], m_mflux, m_d, m_dn, m_vn[b], m_heat, sa, s[b], dt, dx,
                             heat});
    deposit(b);
  }
  fence("zeus_transport");
  std::swap(m_d, m_dn);
  std::swap(m_e, m_en);
  for (int b = 0; b < 3; ++b)
    std::swap(m_v[b], m_vn[b]);
}

} // namespace hcart::zeus
