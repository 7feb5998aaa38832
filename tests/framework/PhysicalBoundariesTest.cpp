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
#include <functional>
#include <random>
#include <string>

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
  for (std::size_t s = 0; s < 6; ++s) {
    auto& side = c.sides[s];
    // A side where no condition applies (periodic, or no halo) takes the default (anything
    // else is an error: PhysicalBoundaries.ASideWhereNoConditionAppliesIsAnError).
    const std::size_t d = s / 2;
    const bool applies = !c.spec.periodic[d] && c.spec.halo_width[d] > 0;
    switch (applies ? rng() % 4 : 1) {
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

// The cells whose values differ between two fields of `grid` (halos included).
long differing(const hcart::Grid& grid, const hcart::Field<double>& a,
               const hcart::Field<double>& b) {
  const auto ha = hcart::host_copy(a), hb = hcart::host_copy(b);
  const auto e = grid.extent();
  long differ = 0;
  for (int i = 0; i < e[0]; ++i)
    for (int j = 0; j < e[1]; ++j)
      for (int k = 0; k < e[2]; ++k)
        differ += ha(i, j, k) != hb(i, j, k);
  return differ;
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

// Sides by name: the named form fills what the six-condition form with the same conditions
// fills; a condition named on a periodic side, or where a direction has no halo, or a side
// named twice, is an InputError naming the side, before any cell is written; the six-condition
// form refuses the same on a periodic side (zero gradient, the default, is accepted there).
TEST(PhysicalBoundaries, ASideWhereNoConditionAppliesIsAnError) {
  using BC = hcart::BoundaryCondition;
  using hcart::Side;
  hcart::GridSpec spec;
  spec.global_size = {9, 7, 6};
  spec.halo_width = {2, 0, 1};
  spec.periodic = {false, false, true};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  const hcart::PhysicalBoundaries bc(grid, hcart::HaloMode::Full);
  auto u = grid.make_field<double>("u");
  auto v = grid.make_field<double>("v");
  fill(grid, u);
  fill(grid, v);
  bc.apply(u, {{Side::x_low, BC::fixed_value(2.5)}, {Side::x_high, BC::reflecting()}});
  hcart::SideConditions six;
  six[0] = BC::fixed_value(2.5);
  six[1] = BC::reflecting();
  bc.apply(v, six);
  EXPECT_EQ(differing(grid, u, v), 0);
  const auto hu = hcart::host_copy(u);
  long fixed = 0;
  const auto e = grid.extent();
  for (int i = 0; i < e[0]; ++i)
    for (int j = 0; j < e[1]; ++j)
      for (int k = 0; k < e[2]; ++k)
        fixed += hu(i, j, k) == 2.5;
  EXPECT_EQ(fixed, bc.is_physical(0, 0) ? bc.ghost_box(0, 0).cells() : 0);
  EXPECT_TRUE(bc.applicable(Side::x_low));
  EXPECT_FALSE(bc.applicable(Side::y_high)) << "no halo in y";
  EXPECT_FALSE(bc.applicable(Side::z_low)) << "periodic";

  struct Bad {
    std::function<void()> apply;
    std::string expected;
  };
  const Bad bad[] = {
      {[&] {
         bc.apply(u, {{Side::z_low, BC::fixed_value(1.0)}});
       },
       "a fixed_value condition on side z_low, which is periodic"},
      {[&] {
         bc.apply(u, {{Side::x_low, BC::reflecting()}, {Side::z_high, BC::zero_gradient()}});
       },
       "a zero_gradient condition on side z_high, which is periodic"},
      {[&] {
         bc.apply(u, {{Side::y_high, BC::reflecting_odd()}});
       },
       "a reflecting_odd condition on side y_high, which has no halo layers"},
      {[&] {
         bc.apply(u, {{Side::x_high, BC::reflecting()}, {Side::x_high, BC::reflecting()}});
       },
       "side x_high named twice"},
      {[&] {
         hcart::SideConditions walls;
         walls[static_cast<int>(Side::z_high)] = BC::reflecting();
         bc.apply(u, walls);
       },
       "a reflecting condition on side z_high, which is periodic"},
  };
  for (const Bad& b : bad) {
    fill(grid, u);
    auto before = grid.make_field<double>("before");
    Kokkos::deep_copy(before, u);
    try {
      b.apply();
      ADD_FAILURE() << "expected an error: " << b.expected;
    } catch (const hcart::InputError& error) {
      EXPECT_NE(std::string(error.what()).find(b.expected), std::string::npos) << error.what();
    }
    EXPECT_EQ(differing(grid, before, u), 0) << b.expected << ": nothing written";
  }
  EXPECT_EQ(hcart::side_name(hcart::side_of(2, true)), "z_high");
  EXPECT_EQ(hcart::direction_of(Side::y_low), 1);
}

namespace {
// A user's rule that is the mirror image: must fill what reflecting() fills.
struct MirrorRule {
  KOKKOS_INLINE_FUNCTION double operator()(const hcart::Inside<double>& inside,
                                           const hcart::Ghost& ghost) const {
    return inside(ghost.layer);
  }
};
// A rule of every argument: the owned cell next to the face, scaled per component, plus the
// ghost's layer and global index.
struct ScaledRule {
  KOKKOS_INLINE_FUNCTION double operator()(const hcart::Inside<double>& inside,
                                           const hcart::Ghost& ghost) const {
    return inside(1) * (1.0 + ghost.component) + 0.5 * ghost.layer +
           1e-3 * static_cast<double>(ghost.global[0] + 3 * ghost.global[1] + 7 * ghost.global[2]) +
           (ghost.side == hcart::Side::z_high ? 0.125 : 0.0);
  }
};
} // namespace

// The user's own rule (apply_rule): a mirror rule fills bit for bit what reflecting() does, in
// Full mode with a periodic direction; a rule of every argument gives each ghost cell of
// every component its value from the owned cell beside it, on any decomposition.
TEST(PhysicalBoundaries, TheUsersOwnRule) {
  using hcart::Side;
  hcart::GridSpec spec;
  spec.global_size = {10, 6, 9};
  spec.halo_width = {2, 1, 2};
  spec.periodic = {false, true, false};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  {
    const hcart::PhysicalBoundaries bc(grid, hcart::HaloMode::Full);
    auto u = grid.make_field<double>("u");
    auto v = grid.make_field<double>("v");
    fill(grid, u);
    fill(grid, v);
    hcart::HaloExchanger halo(grid, hcart::HaloMode::Full);
    halo.exchange(u, v);
    bc.apply_rule(u, {Side::x_low, Side::x_high, Side::z_low, Side::z_high}, MirrorRule{});
    bc.apply(v, hcart::BoundaryCondition::reflecting());
    EXPECT_EQ(differing(grid, u, v), 0);
  }
  const hcart::PhysicalBoundaries bc(grid, hcart::HaloMode::Faces);
  auto m = grid.make_components<double>("m", 3);
  for (int c = 0; c < 3; ++c) {
    auto component = hcart::component(m, c);
    fill(grid, component);
  }
  bc.apply_rule(m, {Side::z_high, Side::x_low}, ScaledRule{});
  const auto host = hcart::host_copy(m);
  const auto e = grid.extent();
  const auto& G = spec.global_size;
  long wrong = 0, ghosts = 0;
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < e[0]; ++i)
      for (int j = 0; j < e[1]; ++j)
        for (int k = 0; k < e[2]; ++k) {
          const std::int64_t g[3] = {grid.global_index(0, i), grid.global_index(1, j),
                                     grid.global_index(2, k)};
          const bool x_low = g[0] < 0, z_high = g[2] >= G[2];
          const auto off = grid.global_offset();
          const auto n = grid.local_size();
          int outside = 0;
          for (int d = 0; d < 3; ++d)
            outside += g[d] < off[d] || g[d] >= off[d] + n[d];
          double expected = grid.is_owned(i, j, k) ? analytic(g[0], g[1], g[2]) : untouched;
          if (outside == 1 && (x_low || z_high)) { // a ghost of a named side (Faces mode)
            ++ghosts;
            const int layer = x_low ? static_cast<int>(-g[0]) : static_cast<int>(g[2] - G[2] + 1);
            const double next = x_low ? analytic(0, g[1], g[2]) : analytic(g[0], g[1], G[2] - 1);
            expected = next * (1.0 + c) + 0.5 * layer +
                       1e-3 * static_cast<double>(g[0] + 3 * g[1] + 7 * g[2]) +
                       (z_high ? 0.125 : 0.0);
          }
          wrong += host(c, i, j, k) != expected;
        }
  EXPECT_EQ(wrong, 0);
  long all_ghosts = ghosts;
  MPI_Allreduce(MPI_IN_PLACE, &all_ghosts, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(all_ghosts, 3 * (2 * 6 * 9 + 2 * 10 * 6)) << "every ghost of x_low and z_high";
  EXPECT_THROW(bc.apply_rule(m, {Side::y_low}, ScaledRule{}), hcart::InputError) << "periodic";
  EXPECT_THROW(bc.apply_rule(m, {Side::x_low, Side::x_low}, ScaledRule{}), hcart::InputError);
}
