// What a multigrid kernel needs, on real communicators at every rank count: restriction and
// prolongation (hcart/grid/LevelTransfers.hpp) exact for the functions they preserve (linear
// ones, with dyadic coefficients so that every value is exact in double), cell- and
// vertex-centred, with components, across agglomerated levels; loops over one colour by
// global parity (hcart/grid/ColouredLoops.hpp); several sums and maxima in one reduction
// (hcart/grid/Reductions.hpp); the boundaries and the finite check of component fields.
#include "SyntheticMachines.hpp"
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/ColouredLoops.hpp>
#include <hcart/grid/FieldChecks.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/grid/LevelTransfers.hpp>
#include <hcart/grid/Reductions.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>

using hcart::ComponentField;
using hcart::Decomposition;
using hcart::DecompositionOptions;
using hcart::GridHierarchy;
using hcart::GridSpec;
using hcart::HierarchyOptions;
using hcart::LevelCentering;
using hcart::test::world_size;

namespace {

// A linear function of a level's global index, exact in double: a + b_d * x_d with x_d the
// position in units of the fine spacing (cell-centred: cells of level l at (g + 1/2) 2^l - 1/2;
// vertex-centred: points at (g + 1) 2^l - 1), one per component.
// (A direction that is not coarsened keeps level 0's positions: flat_k.)
struct Linear {
  int level;
  bool vertex;
  bool flat_k = false;
  KOKKOS_INLINE_FUNCTION double position(long long g, int l) const {
    const double s = static_cast<double>(1LL << l);
    return vertex ? (static_cast<double>(g) + 1.0) * s - 1.0
                  : (static_cast<double>(g) + 0.5) * s - 0.5;
  }
  KOKKOS_INLINE_FUNCTION double operator()(int c, long long gi, long long gj, long long gk) const {
    return 1.0 + c + 0.5 * position(gi, level) - 0.25 * position(gj, level) +
           0.125 * position(gk, flat_k ? 0 : level);
  }
};

struct FillLinear {
  ComponentField<double> f;
  Linear linear;
  long long oi, oj, ok;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    for (int c = 0; c < static_cast<int>(f.extent(0)); ++c)
      f(c, i, j, k) = linear(c, oi + i, oj + j, ok + k);
  }
};

void fill(const hcart::Grid& g, const ComponentField<double>& f, const hcart::Box& box,
          Linear linear) {
  hcart::for_each_cell(
      "fill", box,
      FillLinear{f, linear, g.global_index(0, 0), g.global_index(1, 0), g.global_index(2, 0)});
}

long wrong_cells(const hcart::Grid& g, const ComponentField<double>& f, Linear linear,
                 double shift = 0.0) {
  const auto host = hcart::host_copy(f);
  const hcart::Box box = g.owned_box();
  long wrong = 0;
  for (int c = 0; c < static_cast<int>(f.extent(0)); ++c)
    for (int i = box.lo[0]; i < box.hi[0]; ++i)
      for (int j = box.lo[1]; j < box.hi[1]; ++j)
        for (int k = box.lo[2]; k < box.hi[2]; ++k)
          wrong +=
              host(c, i, j, k) !=
              linear(c, g.global_index(0, i), g.global_index(1, j), g.global_index(2, k)) + shift;
  return wrong;
}

// Every pair of adjacent levels of a hierarchy of `spec` on every synthetic machine: the
// restriction of a linear function is that function on the coarse level, the prolongation
// of one the same function on the fine level (added to a constant), for 3 components.
void check_transfers(GridSpec spec, HierarchyOptions ho) {
  const bool vertex = ho.centering == LevelCentering::Vertex;
  const bool flat = spec.global_size[2] == 1;
  for (const std::string& machine : hcart::test::machines_for(world_size())) {
    DecompositionOptions o;
    o.machine = machine;
    const Decomposition fine(MPI_COMM_WORLD, hcart::nested_spec(spec, ho), o);
    const GridHierarchy h(fine, ho);
    int agglomerated = 0;
    for (int l = 1; l < h.size(); ++l) {
      if (!h.holds(l - 1)) continue;
      agglomerated += h.agglomerated(l) ? 1 : 0;
      const hcart::Grid& fg = h.grid(l - 1);
      auto fine_field = fg.make_components<double>("fine", 3);
      // Fine halos too: the vertex-centred restriction reads them.
      fill(fg, fine_field, fg.with_halo_box(), {l - 1, vertex, flat});
      ComponentField<double> coarse;
      if (h.holds(l)) coarse = h.grid(l).make_components<double>("coarse", 3);
      hcart::restrict_cells(h, l, fine_field, coarse);
      if (h.holds(l)) {
        EXPECT_EQ(wrong_cells(h.grid(l), coarse, {l, vertex, flat}), 0)
            << machine << " level " << l;
        // Prolongation: the coarse function with its halos, added to a constant.
        fill(h.grid(l), coarse, h.grid(l).with_halo_box(), {l, vertex, flat});
      }
      Kokkos::deep_copy(fine_field, 0.5);
      hcart::prolong_cells(h, l, coarse, fine_field);
      EXPECT_EQ(wrong_cells(fg, fine_field, {l - 1, vertex, flat}, 0.5), 0)
          << machine << " level " << l;
      hcart::prolong_cells(h, l, coarse, fine_field, false);
      EXPECT_EQ(wrong_cells(fg, fine_field, {l - 1, vertex, flat}), 0) << machine << " level " << l;
    }
    if (world_size() > 1 && ho.agglomerate_below > 0) {
      EXPECT_GT(agglomerated, 0) << machine << ": the case should agglomerate";
    }
  }
}

} // namespace

TEST(LevelTransfers, CellCentredExactForLinearFunctions) {
  HierarchyOptions ho;
  ho.levels = 4;
  ho.agglomerate_below = 256; // the coarse levels of 32^3 on fewer ranks
  GridSpec spec;
  spec.global_size = {32, 32, 16};
  check_transfers(spec, ho);
}

TEST(LevelTransfers, VertexCentredExactForLinearFunctions) {
  HierarchyOptions ho;
  ho.centering = LevelCentering::Vertex;
  ho.levels = 3;
  ho.agglomerate_below = 256;
  GridSpec spec;
  spec.global_size = {31, 31, 15};
  check_transfers(spec, ho);
}

// A direction that is not coarsened (a 2-D problem: one cell in k).
TEST(LevelTransfers, TwoDimensionalHierarchies) {
  HierarchyOptions ho;
  ho.levels = 3;
  ho.agglomerate_below = 0;
  GridSpec spec;
  spec.global_size = {32, 16, 1};
  spec.halo_width = {1, 1, 0};
  check_transfers(spec, ho);
}

namespace {

struct Touch {
  hcart::Field<int> count;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { count(i, j, k) += 1; }
};

struct ParityOf {
  hcart::Field<int> colour;
  int value;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { colour(i, j, k) = value; }
};

} // namespace

// Each colour visits exactly the cells of its global parity, together every cell once, on
// every decomposition (boxes with and without halos, odd offsets).
TEST(ColouredLoops, EachColourItsCellsByGlobalParity) {
  GridSpec spec;
  spec.global_size = {13, 10, 17};
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  auto count = grid.make_field<int>("count");
  auto colour = grid.make_field<int>("colour");
  for (const hcart::Box& box :
       {grid.owned_box(), grid.with_halo_box(),
        hcart::make_box({1, 2, 1}, {grid.extent()[0], grid.extent()[1] - 1, 4})}) {
    Kokkos::deep_copy(count, 0);
    Kokkos::deep_copy(colour, -1);
    for (int c = 0; c < 2; ++c) {
      hcart::for_each_coloured_cell("touch", grid, box, c, Touch{count});
      hcart::for_each_coloured_cell("mark", grid, box, c, ParityOf{colour, c});
    }
    const auto n = hcart::host_copy(count);
    const auto col = hcart::host_copy(colour);
    long wrong = 0;
    for (int i = 0; i < grid.extent()[0]; ++i)
      for (int j = 0; j < grid.extent()[1]; ++j)
        for (int k = 0; k < grid.extent()[2]; ++k) {
          const bool in = box.contains(i, j, k);
          wrong += n(i, j, k) != (in ? 1 : 0);
          const long long sum =
              grid.global_index(0, i) + grid.global_index(1, j) + grid.global_index(2, k);
          if (in) wrong += col(i, j, k) != static_cast<int>(((sum % 2) + 2) % 2);
        }
    EXPECT_EQ(wrong, 0);
  }
  EXPECT_THROW(hcart::for_each_coloured_cell("bad", grid, grid.owned_box(), 2, Touch{count}),
               hcart::Error);
}

namespace {

// A value that every cell has of its own (no smooth function: a wrong neighbour shows), from
// the cell's global index.
struct Scrambled {
  hcart::Field<double> u;
  std::array<long long, 3> offset;
  double scale;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const long long g = ((offset[0] + i) * 131 + (offset[1] + j)) * 137 + offset[2] + k;
    u(i, j, k) = scale * static_cast<double>((g * 7919) % 1009 - 504);
  }
};

// A Gauss-Seidel point of a 7-point operator whose weights differ by direction.
struct GaussSeidelPoint {
  hcart::FieldAccessor<const double> u, f;
  KOKKOS_INLINE_FUNCTION double operator()(int i, int j, int k) const {
    return ((u(i - 1, j, k) + u(i + 1, j, k)) * 0.25 + (u(i, j - 1, k) + u(i, j + 1, k)) * 0.125 +
            (u(i, j, k - 1) + u(i, j, k + 1)) * 0.0625 + f(i, j, k)) *
           (1.0 / 0.875);
  }
};

} // namespace

// A red-black sweep in one pass (for_each_red_black_interior, the exchange,
// for_each_red_black_shell) gives the bits of a pass per colour with an exchange between, on
// every decomposition: periodic and walled directions, odd sizes, three sweeps.
TEST(ColouredLoops, RedBlackInOnePassIsAPassPerColour) {
  if constexpr (!hcart::host_execution) GTEST_SKIP() << "the one-pass sweep is the host's";
  GridSpec spec;
  spec.global_size = {13, 10, 17};
  spec.periodic = {false, true, false};
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  hcart::HaloExchanger halo(grid);
  std::array<long long, 3> offset{};
  for (int d = 0; d < 3; ++d)
    offset[d] = grid.global_index(d, 0);
  const auto two = grid.make_field<double>("two passes");
  const auto one = grid.make_field<double>("one pass");
  const auto f = grid.make_field<double>("f");
  // Walls: the halo behind them keeps a value of its own.
  for (const auto& u : {two, one})
    hcart::for_each_cell("fill", grid.with_halo_box(), Scrambled{u, offset, 1.0});
  hcart::for_each_cell("fill", grid.with_halo_box(), Scrambled{f, offset, 0.001});
  hcart::fence("fill");
  const hcart::Box owned = grid.owned_box();
  for (int sweep = 0; sweep < 3; ++sweep) {
    for (int colour = 0; colour < 2; ++colour) {
      halo.exchange(two);
      hcart::for_each_coloured_cell("two", grid, owned, colour,
                                    hcart::impl::StorePoint<double, GaussSeidelPoint>{
                                        hcart::accessor(two), {hcart::accessor(two), f}});
    }
    halo.exchange(one);
    hcart::for_each_red_black_interior("one", grid, owned, hcart::accessor(one),
                                       GaussSeidelPoint{hcart::accessor(one), f});
    halo.exchange(one);
    hcart::for_each_red_black_shell("one", grid, owned, hcart::accessor(one),
                                    GaussSeidelPoint{hcart::accessor(one), f});
  }
  hcart::fence("sweeps");
  const auto a = hcart::host_copy(two);
  const auto b = hcart::host_copy(one);
  long differ = 0;
  for (int i = owned.lo[0]; i < owned.hi[0]; ++i)
    for (int j = owned.lo[1]; j < owned.hi[1]; ++j)
      for (int k = owned.lo[2]; k < owned.hi[2]; ++k)
        differ += std::memcmp(&a(i, j, k), &b(i, j, k), sizeof(double)) != 0;
  EXPECT_EQ(differ, 0) << "cells whose one-pass value is not the two passes' bits";
}

namespace {

struct ThreeNorms {
  ComponentField<double> f;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k,
                                         hcart::ReductionArray<double, 3>& v) const {
    for (int c = 0; c < 3; ++c) {
      const double x = hcart::math::fabs(f(c, i, j, k));
      v[c] = x > v[c] ? x : v[c];
    }
  }
};
struct ThreeSums {
  ComponentField<double> f;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k,
                                         hcart::ReductionArray<double, 3>& v) const {
    for (int c = 0; c < 3; ++c)
      v[c] += f(c, i, j, k);
  }
};

} // namespace

// Three maxima and three sums in one reduction each, then one reduction over the ranks:
// against the closed forms of the filled values (integers: every sum exact).
TEST(Reductions, SeveralSumsAndMaximaInOne) {
  GridSpec spec;
  spec.global_size = {12, 9, 7};
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  auto f = grid.make_components<double>("f", 3);
  fill(grid, f, grid.owned_box(), {0, false});
  hcart::ReductionArray<double, 3> maxima{}, sums{};
  hcart::reduce_cells("max", grid.owned_box(), ThreeNorms{f}, hcart::Maxima<double, 3>(maxima));
  hcart::reduce_cells("sum", grid.owned_box(), ThreeSums{f}, hcart::Sums<double, 3>(sums));
  hcart::max_over_ranks(decomp.comm(), maxima);
  hcart::sum_over_ranks(decomp.comm(), sums);
  const Linear linear{0, false};
  for (int c = 0; c < 3; ++c) {
    double largest = 0, total = 0;
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 9; ++j)
        for (int k = 0; k < 7; ++k) {
          largest = std::max(largest, std::fabs(linear(c, i, j, k)));
          total += linear(c, i, j, k);
        }
    EXPECT_EQ(maxima[c], largest);
    EXPECT_EQ(sums[c], total);
  }
}

// Component fields: the physical boundaries of every component, and the finite check
// counting every value.
TEST(ComponentFields, BoundariesAndTheFiniteCheck) {
  GridSpec spec;
  spec.global_size = {8, 6, 5};
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  auto f = grid.make_components<double>("f", 2);
  Kokkos::deep_copy(f, 1.0);
  const hcart::PhysicalBoundaries bc(grid, hcart::HaloMode::Faces);
  bc.apply(f, hcart::BoundaryCondition::fixed_value(-3.0));
  const auto host = hcart::host_copy(f);
  long wrong = 0;
  for (int c = 0; c < 2; ++c)
    for (int dir = 0; dir < 3; ++dir)
      for (int side = 0; side < 2; ++side) {
        const hcart::Box ghosts = bc.ghost_box(dir, side);
        for (int i = ghosts.lo[0]; i < ghosts.hi[0]; ++i)
          for (int j = ghosts.lo[1]; j < ghosts.hi[1]; ++j)
            for (int k = ghosts.lo[2]; k < ghosts.hi[2]; ++k)
              wrong += host(c, i, j, k) != -3.0;
      }
  EXPECT_EQ(wrong, 0);
  EXPECT_NO_THROW(hcart::require_finite(grid, {{"f", f}}, "at the start"));
  if (hcart::test::world_rank() == 0) {
    auto one = Kokkos::subview(f, 1, grid.owned(0).begin, grid.owned(1).begin, grid.owned(2).begin);
    Kokkos::deep_copy(one, std::numeric_limits<double>::quiet_NaN());
  }
  try {
    hcart::require_finite(grid, {{"f", f}}, "after step 3");
    ADD_FAILURE() << "a NaN in component 1 went unnoticed";
  } catch (const hcart::Error& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("after step 3: field 'f' holds 1 values"),
              std::string::npos)
        << e.what();
  }
}
