// The ZEUS solver's source step: pressure gradient and self-gravity, artificial viscosity
// with its heating, and compressional heating, with halo refreshes between them.
#include "ZeusGravity.hpp"
#include "ZeusGravityKernels.hpp"
#include "ZeusSolver.hpp"
#include "ZeusSourceKernels.hpp"

namespace hcart::zeus {

void Solver::source(double dt) {
  const Offsets s = offsets();
  const Box owned = owned_box();
  const double gamma = m_s.gamma, q2 = m_s.q_quadratic, q1 = m_s.q_linear;
  const Spacing dx{m_dx[0], m_dx[1], m_dx[2]};
  {
    // Pressure gradient on the owned faces.
    auto scope = m_timers.region("compute");
    for (int a = 0; a < 3; ++a) {
      for_zones("zeus_pressure", owned, layout(),
                PressureGradient{m_v[a], m_d, m_e, s[a], dt, m_dx[a], gamma});
    }
    // Self-gravity's opening half kick, with the potential of the step's starting density
    // (the closing one is Solver::step's).
    if (m_gravity) gravity_kick(0.5 * dt);
  }
  refresh(HaloMode::Faces, HaloWidth{1}); // the next kernels read one layer across faces
  {
    // Artificial viscosity: new face velocities from the old ones, then viscous heating.
    auto scope = m_timers.region("compute");
    for (int a = 0; a < 3; ++a) {
      for_zones("zeus_viscosity", owned, layout(),
                ViscousAcceleration{m_v[a], m_d, m_e, m_vn[a], s[a], dt, m_dx[a], gamma, q2, q1});
    }
    for_zones("zeus_viscous_heat", owned, layout(),
              ViscousHeating{m_d, m_e, {m_v[0], m_v[1], m_v[2]}, s, dx, dt, gamma, q2, q1});
    fence("zeus_viscosity");
    for (int a = 0; a < 3; ++a)
      std::swap(m_v[a], m_vn[a]);
  }
  refresh(HaloMode::Faces, HaloWidth{1});
  {
    // Compressional heating, implicit and time-centred.
    auto scope = m_timers.region("compute");
    for_zones("zeus_compression", owned, layout(),
              CompressionalHeating{m_e, {m_v[0], m_v[1], m_v[2]}, s, dx, dt, gamma});
  }
}

void Solver::gravity_kick(double dt) {
  const Offsets s = offsets();
  for (int a = 0; a < 3; ++a) {
    for_zones("zeus_gravity_kick", owned_box(), layout(),
              GravityAcceleration{m_v[a], m_gravity->potential(), s[a], dt, m_dx[a]});
  }
}

} // namespace hcart::zeus
