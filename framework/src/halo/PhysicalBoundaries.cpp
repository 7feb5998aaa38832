#include <hcart/halo/PhysicalBoundaries.hpp>

namespace hcart {

PhysicalBoundaries::PhysicalBoundaries(const Grid& grid, HaloMode mode)
    : m_grid(&grid), m_mode(mode) {}

Box PhysicalBoundaries::ghost_box(int dir, int side) const {
  const Box owned = m_grid->owned_box();
  Box box = m_mode == HaloMode::Full ? m_grid->with_halo_box() : owned;
  if (!is_physical(dir, side)) {
    box.hi[dir] = box.lo[dir];
    return box;
  }
  const Box all = m_grid->with_halo_box();
  box.lo[dir] = side == 0 ? all.lo[dir] : owned.hi[dir];
  box.hi[dir] = side == 0 ? owned.lo[dir] : all.hi[dir];
  return box;
}

} // namespace hcart
