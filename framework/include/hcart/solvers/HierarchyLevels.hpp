// hcart::HierarchyLevels<Fields>: what a multigrid keeps on each level of a GridHierarchy
// that this rank holds — the level's grid, the program's own fields, a halo exchanger and
// the physical boundaries — made once, level by level, from a function the program gives.
//
//   struct Fields {                                   // the program's, per level
//     hcart::Field<double> u, f, r;
//     double h2;
//   };
//   const hcart::GridHierarchy levels(decomp, options);
//   hcart::HierarchyLevels<Fields> L(levels, [&](const hcart::Grid& grid, int l) {
//     const double h = 1.0 / levels.global_size(l)[0];
//     return Fields{grid.make_field<double>("u"), grid.make_field<double>("f"),
//                   grid.make_field<double>("r"), h * h};
//   });
//   for (int l = 0; l < L.size(); ++l) {
//     if (!L.holds(l)) continue;                      // an agglomerated level elsewhere
//     auto& level = L[l];                             // a Fields, and:
//     level.halo.exchange(level.u);                   //   its exchanger (Faces by default)
//     level.boundaries.apply(level.u, hcart::BoundaryCondition::reflecting_odd());
//     hcart::for_each_cell("residual", level.grid.owned_box(), Residual{level.u, ...});
//   }
//
// Each level is a Fields with the grid, the exchanger and the boundaries beside its
// members (names the Fields' own members hide: grid, halo, boundaries). The exchanger's
// mode and the boundaries' are the constructor's (Faces and Full by default: a smoother
// reads the faces, a trilinear prolongation names Full per call). A level this rank does
// not hold has nothing: holds(l) says so, and operator[] throws there.
#pragma once

#include <hcart/core/Error.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace hcart {

template <class Fields>
class HierarchyLevels {
  static_assert(std::is_class_v<Fields> && !std::is_final_v<Fields>,
                "hcart::HierarchyLevels<Fields>: Fields is the program's struct of a level's "
                "fields (each level derives from it)");

public:
  /// \brief One level this rank holds: the program's Fields, and beside them the level's
  /// grid, its exchanger and its physical boundaries.
  struct Level : Fields {
    Level(const Grid& level_grid, Fields fields, HaloMode halo_mode, HaloMode boundary_mode)
        : Fields(std::move(fields)), grid(level_grid), halo(level_grid, halo_mode),
          boundaries(level_grid, boundary_mode) {}
    const Grid& grid;
    HaloExchanger halo;
    PhysicalBoundaries boundaries;
  };

  /// \brief Every level this rank holds, its Fields made by `make(grid, level)`, finest
  /// first. Collective over each level's ranks, as its exchanger's construction is (every
  /// rank of a level makes it, in the same order of levels). `hierarchy` must outlive the
  /// levels.
  template <class Make>
  HierarchyLevels(const GridHierarchy& hierarchy, Make&& make, HaloMode halo_mode = HaloMode::Faces,
                  HaloMode boundary_mode = HaloMode::Full)
      : m_hierarchy(&hierarchy), m_levels(static_cast<std::size_t>(hierarchy.size())) {
    static_assert(std::is_convertible_v<std::invoke_result_t<Make&, const Grid&, int>, Fields>,
                  "hcart::HierarchyLevels: make(grid, level) must return the Fields");
    for (int l = 0; l < hierarchy.size(); ++l) {
      if (!hierarchy.holds(l)) continue;
      const Grid& grid = hierarchy.grid(l);
      m_levels[static_cast<std::size_t>(l)] =
          std::make_unique<Level>(grid, make(grid, l), halo_mode, boundary_mode);
    }
  }
  /// It refers to the hierarchy: a temporary GridHierarchy does not compile.
  template <class Make>
  HierarchyLevels(GridHierarchy&&, Make&&, HaloMode = HaloMode::Faces,
                  HaloMode = HaloMode::Full) = delete;

  /// \brief The hierarchy's number of levels (held here or not).
  int size() const noexcept { return static_cast<int>(m_levels.size()); }
  /// \brief True when this rank holds `level`.
  bool holds(int level) const noexcept {
    return level >= 0 && level < size() && m_levels[static_cast<std::size_t>(level)] != nullptr;
  }
  /// \brief Level `level`. \throws hcart::Error where this rank does not hold it.
  Level& operator[](int level) { return *held(level); }
  const Level& operator[](int level) const { return *held(level); }
  const GridHierarchy& hierarchy() const noexcept { return *m_hierarchy; }

private:
  Level* held(int level) const {
    if (!holds(level)) {
      throw Error("hcart::HierarchyLevels: level " + std::to_string(level) +
                  (level >= 0 && level < size() ? " is not held by this rank (holds(level))"
                                                : " of " + std::to_string(size())));
    }
    return m_levels[static_cast<std::size_t>(level)].get();
  }

  const GridHierarchy* m_hierarchy;
  std::vector<std::unique_ptr<Level>> m_levels; // null where this rank does not hold the level
};

} // namespace hcart
