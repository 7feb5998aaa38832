// The ZEUS solver's physical boundaries: reflecting or outflow ghost zones on faces without a
// neighbour (periodic faces and faces between ranks are the halo exchange's).
#include "ZeusSolver.hpp"

namespace hcart::zeus {

void Hydro::boundaries() {
  auto scope = m_timers.region("boundary");
  const Decomposition& decomp = m_grid.decomposition();
  const Offsets s = offsets();
  const Box owned = m_grid.owned_box();
  const Box all = m_grid.with_halo_box();
  double* fields[5] = {m_d.data(), m_e.data(), m_v[0].data(), m_v[1].data(), m_v[2].data()};
  for (int a = 0; a < 3; ++a) {
    for (int side = 0; side < 2; ++side) {
      std::array<int, 3> o{0, 0, 0};
      o[a] = side == 0 ? -1 : 1;
      if (decomp.neighbour(o) != MPI_PROC_NULL) continue;
      const bool reflect = m_s.boundary[2 * a + side] == Boundary::Reflecting;
      // The ghost layers of this face, over the whole extent of the other directions.
      Box ghosts = all;
      ghosts.lo[a] = side == 0 ? 0 : owned.hi[a];
      ghosts.hi[a] = side == 0 ? owned.lo[a] : all.hi[a];
      for (int f = 0; f < 5; ++f) {
        const bool normal = f == 2 + a; // the velocity normal to this face
        for_each_cell("zeus_boundary", ghosts,
                      GhostZones{fields[f], s[0], s[1], s[a], a, side, owned.lo[a], owned.extent(a),
                                 reflect, normal});
        if (normal && reflect && side == 0) {
          // The wall face itself is owned: no flow through it.
          Box wall = ghosts;
          wall.lo[a] = owned.lo[a];
          wall.hi[a] = owned.lo[a] + 1;
          for_zones("zeus_wall", wall, s, Zero{fields[f]});
        }
      }
    }
  }
  fence("zeus_boundary");
}

} // namespace hcart::zeus
