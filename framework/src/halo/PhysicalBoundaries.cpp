#include <hcart/core/Error.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>

namespace hcart {

std::string side_name(Side side) {
  static const char* const names[6] = {"x_low", "x_high", "y_low", "y_high", "z_low", "z_high"};
  const int s = static_cast<int>(side);
  return s >= 0 && s < 6 ? names[s] : "side " + std::to_string(s);
}

namespace {
const char* kind_name(BoundaryCondition::Kind kind) {
  switch (kind) {
  case BoundaryCondition::Kind::FixedValue: return "fixed_value";
  case BoundaryCondition::Kind::ZeroGradient: return "zero_gradient";
  case BoundaryCondition::Kind::Reflecting: return "reflecting";
  case BoundaryCondition::Kind::ReflectingOdd: return "reflecting_odd";
  }
  return "?";
}
} // namespace

bool PhysicalBoundaries::applicable(Side side) const {
  const int d = direction_of(side);
  return !m_grid->block().periodic[d] && m_grid->halo_width()[d] > 0;
}

void PhysicalBoundaries::require_applicable(const SideConditions& conditions,
                                            std::array<bool, 6> named) const {
  for (int s = 0; s < 6; ++s) {
    const Side side = static_cast<Side>(s);
    const bool given =
        named[static_cast<std::size_t>(s)] ||
        conditions[static_cast<std::size_t>(s)].kind != BoundaryCondition::Kind::ZeroGradient;
    if (!given || applicable(side)) continue;
    const int d = direction_of(side);
    HCART_REQUIRE(false, "hcart::PhysicalBoundaries::apply: a "
                             << kind_name(conditions[static_cast<std::size_t>(s)].kind)
                             << " condition on side " << side_name(side) << ", which "
                             << (m_grid->block().periodic[d]
                                     ? "is periodic: expected none there (or a non-periodic "
                                       "direction " +
                                           std::to_string(d) + ")"
                                     : "has no halo layers (halo width 0 in direction " +
                                           std::to_string(d) + "): expected none there"));
  }
}

void PhysicalBoundaries::require_rule_side(Side side, const std::array<bool, 6>& seen) const {
  const int s = static_cast<int>(side);
  HCART_REQUIRE(s >= 0 && s < 6, "hcart::PhysicalBoundaries::apply_rule: side "
                                     << s << ", expected a Side (x_low to z_high)");
  HCART_REQUIRE(!seen[static_cast<std::size_t>(s)], "hcart::PhysicalBoundaries::apply_rule: side "
                                                        << side_name(side)
                                                        << " named twice, expected once");
  const int d = direction_of(side);
  HCART_REQUIRE(applicable(side), "hcart::PhysicalBoundaries::apply_rule: a rule on side "
                                      << side_name(side) << ", which "
                                      << (m_grid->block().periodic[d]
                                              ? "is periodic: expected none there"
                                              : "has no halo layers (halo width 0 in direction " +
                                                    std::to_string(d) + "): expected none there"));
}

SideConditions PhysicalBoundaries::conditions_of(std::initializer_list<SideCondition> sides) const {
  SideConditions conditions;
  std::array<bool, 6> named{};
  for (const SideCondition& c : sides) {
    const int s = static_cast<int>(c.side);
    HCART_REQUIRE(s >= 0 && s < 6, "hcart::PhysicalBoundaries::apply: side "
                                       << s << ", expected a Side (x_low to z_high)");
    HCART_REQUIRE(!named[static_cast<std::size_t>(s)], "hcart::PhysicalBoundaries::apply: side "
                                                           << side_name(c.side)
                                                           << " named twice, expected once");
    named[static_cast<std::size_t>(s)] = true;
    conditions[static_cast<std::size_t>(s)] = c.condition;
  }
  require_applicable(conditions, named);
  return conditions;
}

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

template void PhysicalBoundaries::apply_component<double>(const Field<double>&,
                                                          const SideConditions&,
                                                          const std::array<Centering, 3>&) const;
template void PhysicalBoundaries::apply_component<float>(const Field<float>&, const SideConditions&,
                                                         const std::array<Centering, 3>&) const;

} // namespace hcart
