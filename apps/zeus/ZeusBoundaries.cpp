// The ZEUS solver's physical boundaries: reflecting or outflow ghost zones on faces without a
// neighbour (periodic faces and faces between ranks are the halo exchange's), through the
// framework's PhysicalBoundaries: density, energy and the velocities across a face mirror
// about it (the normal velocity, on the faces of its direction, changes sign and is zero on
// the wall face), or copy the zone next to it (outflow).
#include "ZeusSolver.hpp"

namespace hcart::zeus {

void Solver::boundaries() {
  auto scope = m_timers.region("boundary");
  SideConditions scalar;
  std::array<SideConditions, 3> velocity;
  for (int a = 0; a < 3; ++a) {
    for (int side = 0; side < 2; ++side) {
      const int s = 2 * a + side;
      const bool reflect = m_s.boundary[s] == Boundary::Reflecting;
      scalar[s] = reflect ? BoundaryCondition::reflecting() : BoundaryCondition::zero_gradient();
      for (int b = 0; b < 3; ++b) {
        velocity[b][s] = !reflect ? BoundaryCondition::zero_gradient()
                         : a == b ? BoundaryCondition::reflecting_odd()
                                  : BoundaryCondition::reflecting();
      }
    }
  }
  m_bc.apply(m_d, scalar);
  m_bc.apply(m_e, scalar);
  for (int b = 0; b < 3; ++b) {
    std::array<Centering, 3> on_faces{Centering::Cell, Centering::Cell, Centering::Cell};
    on_faces[b] = Centering::Face; // velocity b lives on the low b-faces of the zones
    m_bc.apply(m_v[b], velocity[b], on_faces);
  }
}

} // namespace hcart::zeus
