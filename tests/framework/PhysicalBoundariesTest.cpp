// Physical boundary conditions on random meshes, decompositions, halo widths, modes,
// centerings and per-side conditions: after an exchange and PhysicalBoundaries::apply,
// every cell holds the value its global index predicts — owned and exchanged cells the
// analytic function, cells behind a physical side the condition's rule applied direction
// by direction — and nothing else is written.
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>

namespace {

using Kind = hcart::BoundaryCondition::Kind;
constexpr double untouched = -99999.0;

double analytic(std::int64_t gx, std::int64_t gy, std::int64_t gz) {
  return static_cast<double>(gx * 10000 + gy * 100 + gz) + 0.25;
}

struct Case {
  hcart::GridSpec spec;
  hcart::HaloMode mode;
  hcart::SideConditions sides;
  std::array<hcart::Centering, 3> centering;
};

// This rank's owned cells in global indices: [lo, hi) per direction.
struct Owned {
  std::array<std::int64_t, 3> lo{}, hi{};
};

// The value the cell at global index g must hold (g may lie outside the domain), after one
// exchange of the analytic owned values and then PhysicalBoundaries::apply.
double expected(const Case& c, std::array<std::int64_t, 3> g, int outside_owned,
                const Owned& owned) {
  const auto& G = c.spec.global_size;
  if (c.mode == hcart::HaloMode::Faces && outside_owned > 1) return untouched;
  int last = -1; // the last direction whose physical side the cell lies behind
  for (int d = 0; d < 3; ++d) {
    if (!c.spec.periodic[d] && (g[d] < 0 || g[d] >= G[d])) last = d;
  }
  if (last < 0) {
    // Inside the domain (or across a periodic wrap): the analytic value, unless it is the
    // boundary face of an odd face-centred reflection at a low side where apply() zeroed it:
    // over this rank's cells in Full mode, its owned ones in Faces mode (a halo copy the
    // exchange made before keeps the owner's old value).
    for (int d = 0; d < 3; ++d) {
      bool wall = c.centering[d] == hcart::Centering::Face && !c.spec.periodic[d] &&
                  c.sides[2 * d].kind == Kind::ReflectingOdd && g[d] == 0 && owned.lo[d] == 0;
      for (int e = 0; e < 3 && wall && c.mode == hcart::HaloMode::Faces; ++e) {
        if (e != d) wall = owned.lo[e] <= g[e] && g[e] < owned.hi[e];
      }
      if (wall) return 0.0;
    }
    for (int d = 0; d < 3; ++d)
      g[d] = (g[d] % G[d] + G[d]) % G[d];
    return analytic(g[0], g[1], g[2]);
  }
  const int d = last;
  const bool low = g[d] < 0;
  const hcart::BoundaryCondition& bc = c.sides[2 * d + (low ? 0 : 1)];
  const bool face = c.centering[d] == hcart::Centering::Face;
  double sign = 1.0;
  std::int64_t src = g[d];
  switch (bc.kind) {
  case Kind::FixedValue: return bc.value;
  case Kind::ZeroGradient: src = low ? 0 : G[d] - 1; break;
  case Kind::Reflecting:
  case Kind::ReflectingOdd:
    sign = bc.kind == Kind::ReflectingOdd ? -1.0 : 1.0;
    if (!face) {
      src = low ? -1 - g[d] : 2 * G[d] - 1 - g[d];
    } else if (!low && g[d] == G[d]) {
      if (bc.kind == Kind::ReflectingOdd) return 0.0;
      src = G[d] - 1;
      sign = 1.0;
    } else {
      src = low ? -g[d] : 2 * G[d] - g[d];
    }
    break;
  }
  g[d] = src;
  return sign * expected(c, g, outside_owned, owned);
}

Case random_case(std::mt19937_64& rng) {
  Case c;
  for (int d = 0; d < 3; ++d) {
    c.spec.global_size[d] = 4 + static_cast<std::int64_t>(rng() % 9);
    c.spec.halo_width[d] = static_cast<int>(rng() % 4);
    c.spec.periodic[d] = rng() % 3 == 0;
    c.centering[d] = rng() % 3 == 0 ? hcart::Centering::Face : hcart::Centering::Cell;
  }
  c.mode = rng() % 2 ? hcart::HaloMode::Full : hcart::HaloMode::Faces;
  for (auto& side : c.sides) {
    switch (rng() % 4) {
    case 0:
      side = hcart::BoundaryCondition::fixed_value(static_cast<double>(rng() % 7) - 3.5);
      break;
    case 1: side = hcart::BoundaryCondition::zero_gradient(); break;
    case 2: side = hcart::BoundaryCondition::reflecting(); break;
    default: side = hcart::BoundaryCondition::reflecting_odd(); break;
    }
  }
  return c;
}

// Owned cells analytic, halo cells untouched.
void fill(const hcart::Grid& grid, hcart::Field<double>& f) {
  auto host = hcart::host_mirror(f);
  const auto e = grid.extent();
  for (int i = 0; i < e[0]; ++i)
    for (int j = 0; j < e[1]; ++j)
      for (int k = 0; k < e[2]; ++k)
        host(i, j, k) = grid.is_owned(i, j, k)
                            ? analytic(grid.global_index(0, i), grid.global_index(1, j),
                                       grid.global_index(2, k))
                            : untouched;
  Kokkos::deep_copy(f, host);
}

// A device functor of the global index for apply_function.
struct Exact {
  KOKKOS_INLINE_FUNCTION double operator()(long long gi, long long gj, long long gk) const {
    return static_cast<double>(gi * 10000 + gj * 100 + gk) + 0.25;
  }
};

} // namespace

TEST(PhysicalBoundaries, RandomCasesMatchTheRuleOfEveryCell) {
  const int P = hcart::test::world_size();
  std::mt19937_64 rng(977 + P); // the same sequence on every rank
  int run = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Case c = random_case(rng);
    std::unique_ptr<hcart::Decomposition> decomp;
    try {
      decomp = std::make_unique<hcart::Decomposition>(MPI_COMM_WORLD, c.spec);
    } catch (const hcart::InputError& e) {
      ASSERT_TRUE(e.collective());
      continue; // too small for P ranks with these halos
    }
    const hcart::Grid grid(*decomp);
    auto u = grid.make_field<double>("u");
    fill(grid, u);
    hcart::HaloExchanger halo(grid, c.mode);
    halo.exchange(u);
    const hcart::PhysicalBoundaries bc(grid, c.mode);
    bc.apply(u, c.sides, c.centering);
    const auto host = hcart::host_copy(u);
    const auto e = grid.extent();
    Owned owned;
    for (int d = 0; d < 3; ++d) {
      owned.lo[d] = grid.global_offset()[d];
      owned.hi[d] = owned.lo[d] + grid.local_size()[d];
    }
    long wrong = 0;
    for (int i = 0; i < e[0]; ++i)
      for (int j = 0; j < e[1]; ++j)
        for (int k = 0; k < e[2]; ++k) {
          const int local[3] = {i, j, k};
          int outside = 0;
          std::array<std::int64_t, 3> g{};
          for (int d = 0; d < 3; ++d) {
            g[d] = grid.global_index(d, local[d]);
            outside += !grid.owned(d).contains(local[d]);
          }
          if (host(i, j, k) != expected(c, g, outside, owned)) {
            if (++wrong < 6) // the first few, to show what went wrong
              printf("cell %d %d %d g %ld %ld %ld got %g expected %g\n", i, j, k, (long)g[0],
                     (long)g[1], (long)g[2], host(i, j, k), expected(c, g, outside, owned));
          }
        }
    ASSERT_EQ(wrong, 0) << "trial " << trial << " size " << c.spec.global_size[0] << "x"
                        << c.spec.global_size[1] << "x" << c.spec.global_size[2] << " halo "
                        << c.spec.halo_width[0] << c.spec.halo_width[1] << c.spec.halo_width[2]
                        << " periodic " << c.spec.periodic[0] << c.spec.periodic[1]
                        << c.spec.periodic[2] << " mode "
                        << (c.mode == hcart::HaloMode::Full ? "full" : "faces") << " dims "
                        << decomp->dims()[0] << decomp->dims()[1] << decomp->dims()[2];
    ++run;
  }
  EXPECT_GE(run, 100);
}

// A field that is not the grid's size is refused before any halo cell is written.
TEST(PhysicalBoundaries, AFieldOfAnotherSizeIsRefused) {
  hcart::GridSpec spec;
  spec.global_size = {9, 7, 5};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  const auto e = grid.extent();
  const hcart::Field<double> small("small", e[0], e[1] - 1, e[2]);
  const hcart::PhysicalBoundaries bc(grid, hcart::HaloMode::Full);
  EXPECT_THROW(bc.apply(small, hcart::SideConditions{}), hcart::InputError);
  EXPECT_THROW(bc.apply_function(small, Exact{}), hcart::InputError);
}

TEST(PhysicalBoundaries, AFunctionOfTheGlobalIndex) {
  hcart::GridSpec spec;
  spec.global_size = {9, 7, 5};
  spec.halo_width = {2, 1, 2};
  spec.periodic = {false, true, false};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  auto u = grid.make_field<double>("u");
  fill(grid, u);
  hcart::HaloExchanger(grid, hcart::HaloMode::Full).exchange(u);
  const hcart::PhysicalBoundaries bc(grid, hcart::HaloMode::Full);
  bc.apply_function(u, Exact{});
  // Every cell now holds the function of its global index, wrapped in y only: the physical
  // halos from the function, the rest from the owners.
  const auto host = hcart::host_copy(u);
  const auto e = grid.extent();
  long wrong = 0;
  for (int i = 0; i < e[0]; ++i)
    for (int j = 0; j < e[1]; ++j)
      for (int k = 0; k < e[2]; ++k) {
        const std::int64_t gy = (grid.global_index(1, j) + 7) % 7;
        wrong += host(i, j, k) != analytic(grid.global_index(0, i), gy, grid.global_index(2, k));
      }
  EXPECT_EQ(wrong, 0);
  EXPECT_FALSE(bc.is_physical(1, 0));
  EXPECT_FALSE(bc.is_physical(1, 1));
  EXPECT_TRUE(bc.ghost_box(1, 0).empty());
}
