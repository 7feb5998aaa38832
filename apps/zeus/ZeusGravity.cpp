// ZEUS-like hydrodynamics, self-gravity: the potential of the density by multigrid, its
// boundaries periodic or free space (ZeusGravity.hpp).
#include "ZeusGravity.hpp"

#include "ZeusGravityKernels.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Loops.hpp>

#include <string>

namespace hcart::zeus {

namespace {

constexpr double kPi = 3.14159265358979323846;

MultigridOptions solver_options(const Settings& s) {
  MultigridOptions o; // -Delta phi = f; periodic or free-space sides
  for (int a = 0; a < 3; ++a)
    o.length[a] = s.upper[a] - s.lower[a];
  if (s.gravity.boundary == GravityBoundary::Isolated)
    o.boundary.fill(MultigridBoundary::FreeSpace);
  o.full_multigrid_start = static_cast<int>(s.gravity.full_multigrid);
  return o;
}

HaloOptions one_layer() {
  HaloOptions o; // the kick reads phi one zone across each face
  o.width = 1;
  return o;
}

} // namespace

Gravity::Gravity(const Grid& grid, const Settings& settings, Timers& timers)
    : m_grid(grid), m_s(settings.gravity), m_timers(timers),
      m_levels(grid.decomposition(), gravity_hierarchy(settings.gravity)),
      m_mg(m_levels, solver_options(settings)), m_phi(grid.make_field<double>("potential")),
      m_halo(grid, HaloMode::Faces, one_layer()), m_bc(grid, HaloMode::Faces) {
  for (int a = 0; a < 3; ++a) {
    m_lower[a] = settings.lower[a];
    m_upper[a] = settings.upper[a];
    m_dx[a] = (m_upper[a] - m_lower[a]) / static_cast<double>(grid.global_size()[a]);
  }
  const auto hydro = grid.halo_width(), solver = m_levels.grid(0).halo_width();
  for (int a = 0; a < 3; ++a)
    m_shift[a] = hydro[a] - solver[a];
}

void Gravity::solve(const Field<double>& density) {
  auto scope = m_timers.region("gravity");
  const Grid& top = m_levels.grid(0);
  Kokkos::deep_copy(m_mg.solution(), 0.0);
  for_each_cell(
      "zeus_gravity_rhs", top.owned_box(),
      GravitySource{accessor(m_mg.rhs()), accessor(density), m_shift, 4 * kPi * m_s.constant});
  fence("zeus_gravity_rhs");
  const MultigridResult r = m_mg.solve(m_s.tolerance, m_s.max_cycles);
  m_cycles = r.cycles;
  if (!r.converged) {
    Error error("self-gravity: the potential's residual fell by " +
                std::to_string(r.residual / r.initial_residual) + " in [gravity] max_cycles = " +
                std::to_string(m_s.max_cycles) + " cycles, expected " +
                std::to_string(m_s.tolerance) + " ([gravity] tolerance); raise max_cycles");
    error.set_collective(true);
    throw error;
  }
  for_each_cell("zeus_gravity_copy", top.owned_box(),
                CopyToHydro{accessor(m_phi), accessor(m_mg.solution()), m_shift});
  fence("zeus_gravity_copy");
  m_halo.exchange(m_phi);
  if (m_s.boundary == GravityBoundary::Isolated) {
    Spacing half{};
    for (int a = 0; a < 3; ++a)
      half[a] = 0.5 * (m_upper[a] - m_lower[a]);
    m_bc.apply_rule(
        m_phi, {Side::x_low, Side::x_high, Side::y_low, Side::y_high, Side::z_low, Side::z_high},
        IsolatedGhost{geometry(m_grid), m_mg.free_space(), half});
  }
  fence("zeus_gravity");
}

ZoneGeometry Gravity::geometry(const Grid& grid) const {
  ZoneGeometry g{};
  for (int a = 0; a < 3; ++a) {
    g.lower[a] = m_lower[a];
    g.dx[a] = m_dx[a];
    g.centre[a] = 0.5 * (m_lower[a] + m_upper[a]);
    g.first[a] = grid.global_index(a, 0);
  }
  return g;
}

} // namespace hcart::zeus
