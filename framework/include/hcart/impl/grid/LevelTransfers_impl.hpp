// The template bodies of hcart/grid/LevelTransfers.hpp (included at its end).
#pragma once

#include <hcart/core/Error.hpp>

namespace hcart {

namespace impl {

// A field as 4D values (components first), no copy: hcart's field types hold their
// components one after another, each LayoutRight.
template <class F>
Values<typename FieldTraits<F>::value_type> values_of(const F& field) {
  const std::array<std::size_t, 3> cells = FieldTraits<F>::cells(field);
  return Values<typename FieldTraits<F>::value_type>(
      field.data(), FieldTraits<F>::components(field), cells[0], cells[1], cells[2]);
}

// The hierarchy's scratch field of pieces(level), `components` values of T a cell.
template <class T>
Values<T> pieces_scratch(const GridHierarchy& levels, int level, int components) {
  const auto e = levels.pieces(level).extent();
  const std::size_t cells = static_cast<std::size_t>(e[0]) * e[1] * e[2];
  T* data = static_cast<T*>(levels.impl_scratch(level, cells * components * sizeof(T)));
  return Values<T>(data, components, e[0], e[1], e[2]);
}

// Checks the fields of a move between level - 1 and level on every rank of level - 1.
template <class View>
void require_level_fields(const GridHierarchy& levels, int level, const View& fine,
                          const View& coarse, const char* who) {
  agree_on_errors(levels.decomposition(level - 1).comm(), [&] {
    levels.grid(level - 1).require_fits(fine, who);
    if (levels.holds(level)) {
      levels.grid(level).require_fits(coarse, who);
      HCART_REQUIRE(components_of(fine) == components_of(coarse),
                    who << ": a fine field of " << components_of(fine)
                        << " components and a coarse one of " << components_of(coarse));
    }
  });
}

// `level`'s cells as this rank computes them: its grid, or its pieces where agglomerated.
inline const Grid& target_grid(const GridHierarchy& levels, int level) {
  return levels.agglomerated(level) ? levels.pieces(level) : levels.grid(level);
}

template <class Functor>
struct WithFineIndices {
  Functor f;
  LevelMap map;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    f(i, j, k, map.fine(0, i), map.fine(1, j), map.fine(2, k));
  }
};

} // namespace impl

template <class Functor>
void for_each_coarse_cell(const std::string& label, const GridHierarchy& levels, int level,
                          const Box& box, const Functor& f) {
  for_each_cell(label, box, impl::WithFineIndices<Functor>{f, level_map(levels, level)});
}

template <class View>
void restrict_cells(const GridHierarchy& levels, int level, const View& fine, const View& coarse) {
  HCART_CHECK(level >= 1 && level < levels.size(),
              "hcart::restrict_cells: level " << level << ", expected 1 to " << levels.size() - 1);
  if (!levels.holds(level - 1)) return;
  using T = typename View::value_type;
  impl::require_level_fields(levels, level, fine, coarse, "hcart::restrict_cells");
  const bool agglomerated = levels.agglomerated(level);
  const impl::Values<T> from = impl::values_of(fine);
  const impl::Values<T> to = agglomerated
                                 ? impl::pieces_scratch<T>(levels, level, impl::components_of(fine))
                                 : impl::values_of(coarse);
  const LevelMap map = level_map(levels, level);
  const Box box = impl::target_grid(levels, level).owned_box();
  const impl::Values<const T> source = from;
  const int components = static_cast<int>(to.extent(0));
  if (map.vertex && map.ratio[0] == 2 && map.ratio[1] == 2 && map.ratio[2] == 2) {
    for_each_cell(
        "hcart_restrict", box,
        impl::RestrictVertices<T, true>{impl::strided(source), impl::strided(to), components, map});
  } else if (map.vertex) {
    for_each_cell("hcart_restrict", box,
                  impl::RestrictVertices<T, false>{impl::strided(source), impl::strided(to),
                                                   components, map});
  } else {
    const T scale = T(1) / static_cast<T>(map.ratio[0] * map.ratio[1] * map.ratio[2]);
    for_each_cell("hcart_restrict", box,
                  impl::RestrictCells<T>{impl::strided(source), impl::strided(to),
                                         static_cast<int>(to.extent(0)), map, scale});
  }
  if (agglomerated) {
    fence("hcart_restrict");
    levels.gather(level, to, coarse);
  }
}

template <class View>
void prolong_cells(const GridHierarchy& levels, int level, const View& coarse, const View& fine,
                   bool add) {
  HCART_CHECK(level >= 1 && level < levels.size(),
              "hcart::prolong_cells: level " << level << ", expected 1 to " << levels.size() - 1);
  if (!levels.holds(level - 1)) return;
  using T = typename View::value_type;
  impl::require_level_fields(levels, level, fine, coarse, "hcart::prolong_cells");
  const bool agglomerated = levels.agglomerated(level);
  impl::Values<T> from;
  if (agglomerated) {
    from = impl::pieces_scratch<T>(levels, level, impl::components_of(fine));
    levels.scatter(level, coarse, from);
  } else {
    from = impl::values_of(coarse);
  }
  const LevelMap map = level_map(levels, level);
  const impl::Values<const T> source = from;
  const impl::Values<T> to = impl::values_of(fine);
  const Box box = levels.grid(level - 1).owned_box();
  const impl::Prolong<T> prolong{impl::strided(source),
                                 impl::strided(to),
                                 static_cast<int>(to.extent(0)),
                                 map,
                                 add,
                                 box.lo[2],
                                 box.hi[2]};
  if constexpr (host_execution) {
    // A row per work item: the operands of i and j once a row (as a plain loop has them).
    impl::for_each_whole_row("hcart_prolong", box, prolong);
  } else {
    for_each_cell("hcart_prolong", box, prolong);
  }
}

} // namespace hcart
