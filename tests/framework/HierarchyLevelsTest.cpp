// The per-level container of a multigrid (hcart/solvers/HierarchyLevels.hpp) on real
// communicators, agglomerated levels among them: every level this rank holds and no other,
// the program's fields made once per level on its grid, and each level's exchanger and
// boundaries filling the halos a level's grid has (analytic values of the global index).
#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/solvers/HierarchyLevels.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

struct Fields {
  hcart::Field<double> u;
  hcart::ComponentField<float> w;
  int level = -1;
};

// The value of global cell (i, j, k) on level l.
double analytic(int l, std::int64_t i, std::int64_t j, std::int64_t k) {
  return 1000.0 * l + 100.0 * static_cast<double>(i) + 10.0 * static_cast<double>(j) +
         static_cast<double>(k);
}

// Halo cells across one face that are not wrong: inside the domain, the neighbour's value;
// beyond a physical side, the fixed value 7 (interior cells of the face's other directions).
long wrong_halo_cells(const hcart::Grid& grid, const hcart::Field<double>& u, int l) {
  const auto host = hcart::host_copy(u);
  const auto e = grid.extent();
  const auto size = grid.global_size();
  long wrong = 0;
  for (int i = 0; i < e[0]; ++i)
    for (int j = 0; j < e[1]; ++j)
      for (int k = 0; k < e[2]; ++k) {
        const int local[3] = {i, j, k};
        std::int64_t g[3];
        int outside = 0;
        bool physical = false;
        for (int d = 0; d < 3; ++d) {
          g[d] = grid.global_index(d, local[d]);
          if (local[d] < grid.owned(d).begin || local[d] >= grid.owned(d).end) ++outside;
          if (g[d] < 0 || g[d] >= size[d]) physical = true;
        }
        if (outside != 1) continue; // faces only: the exchanger's mode is Faces
        const double expected = physical ? 7.0 : analytic(l, g[0], g[1], g[2]);
        if (host(i, j, k) != expected) ++wrong;
      }
  return wrong;
}

TEST(HierarchyLevels, HoldsTheProgramsFieldsAndEachLevelsExchangerAndBoundaries) {
  hcart::GridSpec spec;
  spec.global_size = {32, 32, 16};
  hcart::HierarchyOptions options;
  options.levels = 4;
  options.agglomerate_below = 128; // the coarsest levels on fewer ranks
  const hcart::Decomposition decomp(MPI_COMM_WORLD, hcart::nested_spec(spec, options));
  const hcart::GridHierarchy levels(decomp, options);
  std::vector<int> made(static_cast<std::size_t>(levels.size()), 0);
  hcart::HierarchyLevels<Fields> L(levels, [&](const hcart::Grid& grid, int l) {
    ++made[static_cast<std::size_t>(l)];
    return Fields{grid.make_field<double>("u"), grid.make_components<float>("w", 3), l};
  });
  ASSERT_EQ(L.size(), levels.size());
  EXPECT_EQ(&L.hierarchy(), &levels);
  for (int l = 0; l < levels.size(); ++l) {
    EXPECT_EQ(L.holds(l), levels.holds(l)) << "level " << l;
    EXPECT_EQ(made[static_cast<std::size_t>(l)], levels.holds(l) ? 1 : 0) << "level " << l;
    if (!L.holds(l)) {
      EXPECT_THROW((void)L[l], hcart::Error);
      continue;
    }
    auto& level = L[l];
    const hcart::Grid& grid = levels.grid(l);
    EXPECT_EQ(&level.grid, &grid);
    EXPECT_EQ(level.level, l);
    EXPECT_TRUE(grid.fits(level.u));
    EXPECT_TRUE(grid.fits(level.w));
    EXPECT_EQ(level.w.extent(0), 3u);
    // The owned cells, then the level's exchanger and its boundaries.
    auto host = hcart::host_copy(level.u);
    for (int i = grid.owned(0).begin; i < grid.owned(0).end; ++i)
      for (int j = grid.owned(1).begin; j < grid.owned(1).end; ++j)
        for (int k = grid.owned(2).begin; k < grid.owned(2).end; ++k)
          host(i, j, k) = analytic(l, grid.global_index(0, i), grid.global_index(1, j),
                                   grid.global_index(2, k));
    Kokkos::deep_copy(level.u, host);
    level.halo.exchange(level.u);
    level.boundaries.apply(level.u, hcart::BoundaryCondition::fixed_value(7.0));
    EXPECT_EQ(wrong_halo_cells(grid, level.u, l), 0) << "level " << l;
  }
  EXPECT_THROW((void)L[levels.size()], hcart::Error);
  EXPECT_THROW((void)L[-1], hcart::Error);
}

} // namespace
