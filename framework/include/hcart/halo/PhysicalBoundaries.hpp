// hcart::PhysicalBoundaries: fills the halo cells of fields that lie outside the global
// domain on non-periodic sides, where the HaloExchanger leaves them alone (there is no
// neighbour to receive them from).
//
//   hcart::PhysicalBoundaries bc(grid, hcart::HaloMode::Full);   // Full: edges, corners too
//   halo.exchange(u);                                            // first the neighbours'
//   bc.apply(u, hcart::BoundaryCondition::fixed_value(1.0));     // every physical side
//   bc.apply(w, {{hcart::Side::z_low, BC::fixed_value(0)},       // sides by name; the sides
//                {hcart::Side::z_high, BC::fixed_value(0)}});    // not named: zero gradient
//   bc.apply(u, {hcart::BoundaryCondition::reflecting(), ...});  // all six: x-, x+, y-, ...
//   bc.apply_function(u, Exact{t});   // u(ghost) = functor(global i, j, k), a device functor
//   bc.apply_rule(m, {hcart::Side::z_low}, Wall{profile});   // the user's own rule (below)
//
// Conditions, for a halo cell m layers outside the face (m = 1 next to it):
//   fixed_value(v)     v;
//   zero_gradient()    the owned cell next to the face (outflow);
//   reflecting()       the owned cell m - 1 layers inside (mirror image about the face);
//   reflecting_odd()   minus that (e.g. the velocity normal to a wall).
// A field can be face-centred in a direction (hcart::Centering::Face: value at the low face
// of each cell, as a staggered velocity): the mirror is then about the face itself, and an
// odd reflection makes the boundary face zero (no flow through the wall), also on the low
// side where that face is an owned cell (those faces are zeroed first, before any fill
// reads them).
//
// The sides are filled direction by direction (x, then y, then z), each over the whole
// extent of the other directions in Full mode (over their owned cells in Faces mode), so
// edges and corners take the later direction's rule applied to the earlier one's values —
// the same on any decomposition. Apply after the exchange: a corner next to a neighbour in
// y and a physical side in x is mirrored from the halo the exchange filled. Runs on every
// backend (one kernel launch per side and field); physical sides only: faces with a
// neighbour (another rank or a periodic wrap) are never touched. A condition other than
// zero gradient given for a side where none can apply — a periodic side, or a direction
// without halo layers — is an hcart::InputError naming the side (the same on every rank:
// the sides are the grid's, not the block's), never a silent no-op.
#pragma once

#include <hcart/grid/Box.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/halo/HaloPlan.hpp>

#include <array>
#include <initializer_list>
#include <string>

namespace hcart {

/// \brief A side of the global domain by name: the low or high side of direction x (0), y (1)
/// or z (2). Its index (static_cast<int>) is 2 * direction + (high ? 1 : 0), the position in
/// SideConditions.
enum class Side { x_low, x_high, y_low, y_high, z_low, z_high };

/// \brief The side of direction `dir` (0-2), low (`high` false) or high.
constexpr Side side_of(int dir, bool high) {
  return static_cast<Side>(2 * dir + (high ? 1 : 0));
}
/// \brief Its direction (0-2).
constexpr int direction_of(Side side) {
  return static_cast<int>(side) / 2;
}
/// \brief Its name, e.g. "z_low".
std::string side_name(Side side);

/// \brief Where a field's values sit in one direction.
enum class Centering {
  Cell, ///< at cell centres
  Face  ///< at the low face of each cell (staggered)
};

/// \brief How the halo cells behind one physical side are filled.
struct BoundaryCondition {
  enum class Kind { FixedValue, ZeroGradient, Reflecting, ReflectingOdd };
  Kind kind = Kind::ZeroGradient;
  double value = 0.0; ///< FixedValue

  static BoundaryCondition fixed_value(double v) { return {Kind::FixedValue, v}; }
  static BoundaryCondition zero_gradient() { return {Kind::ZeroGradient, 0.0}; }
  static BoundaryCondition reflecting() { return {Kind::Reflecting, 0.0}; }
  static BoundaryCondition reflecting_odd() { return {Kind::ReflectingOdd, 0.0}; }
};

/// \brief One condition per side, in the order x-, x+, y-, y+, z-, z+ (Side's order).
using SideConditions = std::array<BoundaryCondition, 6>;

/// \brief Where a ghost cell is, for a boundary rule of the user's
/// (PhysicalBoundaries::apply_rule): its side, its layer (1 next to the face), its global
/// index (outside the domain across `side`; periodic directions wrapped) and the component
/// (0 for a Field).
struct Ghost {
  Side side;
  int layer;
  long long global[3];
  int component;
};

/// \brief The cells inside the face along a ghost cell's line, for a boundary rule:
/// `inside(1)` is the owned cell next to the face, `inside(l)` the one l layers in (l from 1
/// to the owned cells of the direction).
template <class T>
struct Inside {
  Field<T> f;
  int i, j, k, dir, edge, step; // edge: the owned cell next to the face; step: inwards
  KOKKOS_INLINE_FUNCTION T operator()(int l) const {
    const int c = edge + step * (l - 1);
    return f(dir == 0 ? c : i, dir == 1 ? c : j, dir == 2 ? c : k);
  }
};

/// \brief A condition for a side named (PhysicalBoundaries::apply's list).
struct SideCondition {
  Side side;
  BoundaryCondition condition;
};

namespace impl {
// The kernel of one side: every cell of `ghosts` from its source cell in direction `dir`.
template <class T>
struct FillSide {
  Field<T> f;
  int dir, low, high; // owned cells [low, high) in direction dir
  bool low_side, face_centred;
  BoundaryCondition::Kind kind;
  T value;

  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const int g = dir == 0 ? i : (dir == 1 ? j : k);
    int src = g;
    T sign = T(1);
    bool zero = false;
    switch (kind) {
    case BoundaryCondition::Kind::FixedValue: f(i, j, k) = value; return;
    case BoundaryCondition::Kind::ZeroGradient: src = low_side ? low : high - 1; break;
    case BoundaryCondition::Kind::Reflecting:
    case BoundaryCondition::Kind::ReflectingOdd:
      if (kind == BoundaryCondition::Kind::ReflectingOdd) sign = T(-1);
      if (!face_centred) {
        src = low_side ? 2 * low - 1 - g : 2 * high - 1 - g;
      } else {
        // Mirrored about the boundary face (low, or high); the face itself: zero when odd,
        // the owned face below it when even.
        src = low_side ? 2 * low - g : 2 * high - g;
        if (g == high) {
          zero = kind == BoundaryCondition::Kind::ReflectingOdd;
          src = high - 1;
          sign = T(1);
        }
      }
      break;
    }
    if (zero) {
      f(i, j, k) = T(0);
      return;
    }
    const int d = src - g;
    f(i, j, k) = sign * f(dir == 0 ? i + d : i, dir == 1 ? j + d : j, dir == 2 ? k + d : k);
  }
};

// The wall face of an odd reflection of a face-centred field on the low side: zero.
template <class T>
struct ZeroCells {
  Field<T> f;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { f(i, j, k) = T(0); }
};

// The global index of local index `local` in direction d, wrapped into the domain where the
// direction is periodic.
struct WrappedIndex {
  Kokkos::Array<long long, 3> first; // global index of local index 0
  Kokkos::Array<long long, 3> wrap;  // the global size of periodic directions, else 0
  KOKKOS_INLINE_FUNCTION long long operator()(int d, int local) const {
    const long long g = first[d] + local;
    return wrap[d] > 0 ? (g % wrap[d] + wrap[d]) % wrap[d] : g;
  }
};

// f(ghost) = rule(the cells inside, where the ghost is).
template <class T, class Rule>
struct FillByRule {
  Field<T> f;
  int dir, low, high; // owned cells [low, high) in direction dir
  Side side;
  int component;
  WrappedIndex global;
  Rule rule;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const bool low_side = static_cast<int>(side) % 2 == 0;
    const int g = dir == 0 ? i : (dir == 1 ? j : k);
    const Inside<T> inside{f, i, j, k, dir, low_side ? low : high - 1, low_side ? 1 : -1};
    const Ghost ghost{side,
                      low_side ? low - g : g - high + 1,
                      {global(0, i), global(1, j), global(2, k)},
                      component};
    f(i, j, k) = rule(inside, ghost);
  }
};

// f(ghost) = function(global i, j, k), periodic directions wrapped into the domain.
template <class T, class Function>
struct FillFromFunction {
  Field<T> f;
  WrappedIndex global;
  Function function;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    f(i, j, k) = function(global(0, i), global(1, j), global(2, k));
  }
};
} // namespace impl

class PhysicalBoundaries {
public:
  /// \brief The physical sides of `grid`'s block (which must outlive this); Full mode fills
  /// edges and corners too.
  explicit PhysicalBoundaries(const Grid& grid, HaloMode mode = HaloMode::Faces);
  /// It refers to its Grid: a temporary one does not compile.
  explicit PhysicalBoundaries(Grid&&, HaloMode = HaloMode::Faces) = delete;

  /// \brief True when side `side` (0: low, 1: high) of direction `dir` is a physical
  /// boundary of this rank's block (no neighbour, no periodic wrap).
  bool is_physical(int dir, int side) const { return m_grid->block().is_physical(dir, side); }
  /// \brief The halo cells behind side `side` of direction `dir` (empty when not physical):
  /// over the owned cells of the other directions in Faces mode, all their cells in Full.
  Box ghost_box(int dir, int side) const;

  /// \brief Fills the halos behind every physical side of `field` (a Field, or every
  /// component of a ComponentField) with `condition`.
  template <class F>
  void apply(const F& field, const BoundaryCondition& condition,
             const std::array<Centering, 3>& centering = {}) const {
    SideConditions conditions; // where none can apply (periodic), the default
    for (int side = 0; side < 6; ++side)
      if (applicable(static_cast<Side>(side)))
        conditions[static_cast<std::size_t>(side)] = condition;
    apply(field, conditions, centering);
  }
  /// \brief Fills the halos behind every physical side of `field` (every component) with
  /// that side's condition. \throws hcart::InputError when a side where no condition can
  /// apply (periodic, or its direction without halo layers) has one other than zero gradient.
  template <class F>
  void apply(const F& field, const SideConditions& conditions,
             const std::array<Centering, 3>& centering = {}) const {
    require_applicable(conditions, {});
    apply_checked(field, conditions, centering);
  }
  /// \brief Fills the halos behind the sides named in `sides` with their conditions, and
  /// those behind the other physical sides with zero gradient. \throws hcart::InputError
  /// when a side is named twice, or named where no condition can apply (a periodic side, or
  /// a direction without halo layers).
  template <class F>
  void apply(const F& field, std::initializer_list<SideCondition> sides,
             const std::array<Centering, 3>& centering = {}) const {
    apply_checked(field, conditions_of(sides), centering);
  }
  /// \brief True when a condition can apply at `side`: the side is not periodic and its
  /// direction has halo layers (whether this rank's block touches it or not).
  bool applicable(Side side) const;
  /// \brief Fills the halos behind every physical side with function(gi, gj, gk) of the
  /// global index of each halo cell: outside the domain across the physical side (below 0,
  /// or from the global size on), wrapped into it in periodic directions. `function` is a
  /// device-callable functor returning T.
  template <class T, class Function>
  void apply_function(const Field<T>& field, const Function& function) const;

  /// \brief Fills the halos behind the sides named (those of this rank's block that are
  /// physical) by the user's rule, for every component of `field` (a Field or a
  /// ComponentField of cell-centred values): each ghost cell gets `rule(inside, ghost)`, a
  /// device-callable functor returning T, of hcart::Inside<T> (the cells inside the face
  /// along the ghost's line) and hcart::Ghost (side, layer, global index, component).
  /// Sides are filled in the order x, y, z like apply(). \throws hcart::InputError when a
  /// side is named twice, or where no condition can apply.
  template <class F, class Rule>
  void apply_rule(const F& field, std::initializer_list<Side> sides, const Rule& rule) const;

private:
  // Every component of `field` with the six conditions (checked against the sides already).
  template <class F>
  void apply_checked(const F& field, const SideConditions& conditions,
                     const std::array<Centering, 3>& centering) const {
    static_assert(is_field_v<F>, "hcart::PhysicalBoundaries::apply: a Field or a ComponentField");
    m_grid->require_fits(field, "hcart::PhysicalBoundaries::apply");
    for (int c = 0; c < FieldTraits<F>::components(field); ++c)
      apply_component(FieldTraits<F>::component(field, c), conditions, centering);
  }
  // The six conditions of a list of named sides (checked: each once, each applicable).
  SideConditions conditions_of(std::initializer_list<SideCondition> sides) const;
  // Throws for a condition other than zero gradient on a side where none applies; `named`:
  // the sides the user named (every side's condition is checked when none is).
  void require_applicable(const SideConditions& conditions, std::array<bool, 6> named) const;
  // Throws for a side of apply_rule's list that is not a Side, named before (`seen`), or
  // where no condition applies.
  void require_rule_side(Side side, const std::array<bool, 6>& seen) const;
  // The global index of the grid's local indices, wrapped where periodic (the kernels').
  impl::WrappedIndex wrapped_index() const {
    impl::WrappedIndex w{};
    for (int d = 0; d < 3; ++d) {
      w.first[d] = m_grid->global_index(d, 0);
      w.wrap[d] = m_grid->block().periodic[d] ? m_grid->global_size()[d] : 0;
    }
    return w;
  }
  // One component (checked by the caller).
  template <class T>
  void apply_component(const Field<T>& field, const SideConditions& conditions,
                       const std::array<Centering, 3>& centering) const;

  const Grid* m_grid;
  HaloMode m_mode;
};

template <class T>
void PhysicalBoundaries::apply_component(const Field<T>& field, const SideConditions& conditions,
                                         const std::array<Centering, 3>& centering) const {
  const Box owned = m_grid->owned_box();
  // The boundary faces of odd face-centred reflections first: they are part of the state
  // every later fill reads from.
  for (int dir = 0; dir < 3; ++dir) {
    if (is_physical(dir, 0) && centering[dir] == Centering::Face &&
        conditions[2 * dir].kind == BoundaryCondition::Kind::ReflectingOdd) {
      Box wall = ghost_box(dir, 0);
      wall.lo[dir] = owned.lo[dir];
      wall.hi[dir] = owned.lo[dir] + 1;
      for_each_cell("hcart_bc_wall", wall, impl::ZeroCells<T>{field});
    }
  }
  for (int dir = 0; dir < 3; ++dir) {
    for (int side = 0; side < 2; ++side) {
      if (!is_physical(dir, side)) continue;
      const BoundaryCondition& c = conditions[2 * dir + side];
      for_each_cell("hcart_bc", ghost_box(dir, side),
                    impl::FillSide<T>{field, dir, owned.lo[dir], owned.hi[dir], side == 0,
                                      centering[dir] == Centering::Face, c.kind,
                                      static_cast<T>(c.value)});
    }
  }
}

// The common value types' fills are compiled in the library (PhysicalBoundaries.cpp): a
// program's unit does not compile them again.
extern template void
PhysicalBoundaries::apply_component<double>(const Field<double>&, const SideConditions&,
                                            const std::array<Centering, 3>&) const;
extern template void
PhysicalBoundaries::apply_component<float>(const Field<float>&, const SideConditions&,
                                           const std::array<Centering, 3>&) const;

template <class F, class Rule>
void PhysicalBoundaries::apply_rule(const F& field, std::initializer_list<Side> sides,
                                    const Rule& rule) const {
  static_assert(is_field_v<F>,
                "hcart::PhysicalBoundaries::apply_rule: a Field or a ComponentField");
  using T = typename FieldTraits<F>::value_type;
  m_grid->require_fits(field, "hcart::PhysicalBoundaries::apply_rule");
  std::array<bool, 6> chosen{};
  for (const Side side : sides) {
    require_rule_side(side, chosen);
    chosen[static_cast<std::size_t>(side)] = true;
  }
  const Box owned = m_grid->owned_box();
  const impl::WrappedIndex global = wrapped_index();
  for (int c = 0; c < FieldTraits<F>::components(field); ++c) {
    const Field<T> component = FieldTraits<F>::component(field, c);
    for (int dir = 0; dir < 3; ++dir) {
      for (int side = 0; side < 2; ++side) {
        const Side named_side = side_of(dir, side == 1);
        if (!chosen[static_cast<std::size_t>(named_side)] || !is_physical(dir, side)) continue;
        impl::for_each_cell_compiled_once("hcart_bc_rule", ghost_box(dir, side),
                                          impl::FillByRule<T, Rule>{component, dir, owned.lo[dir],
                                                                    owned.hi[dir], named_side, c,
                                                                    global, rule});
      }
    }
  }
}

template <class T, class Function>
void PhysicalBoundaries::apply_function(const Field<T>& field, const Function& function) const {
  m_grid->require_fits(field, "hcart::PhysicalBoundaries::apply_function");
  const impl::WrappedIndex global = wrapped_index();
  for (int dir = 0; dir < 3; ++dir) {
    for (int side = 0; side < 2; ++side) {
      if (!is_physical(dir, side)) continue;
      impl::for_each_cell_compiled_once(
          "hcart_bc_function", ghost_box(dir, side),
          impl::FillFromFunction<T, Function>{field, global, function});
    }
  }
}

} // namespace hcart
