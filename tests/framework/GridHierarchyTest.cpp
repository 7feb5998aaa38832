// Grid hierarchies (hcart/grid/GridHierarchy.hpp) on real communicators: every level's
// blocks against blocks worked out here from the fine process grid by independent code, at
// every rank count, strategy and synthetic machine; agglomerated levels held by exactly the
// ranks their choice names, their data moved there and back (analytic values, components
// too); bad hierarchies an error on every rank.
#include "SyntheticMachines.hpp"
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using hcart::Decomposition;
using hcart::DecompositionOptions;
using hcart::GridHierarchy;
using hcart::GridSpec;
using hcart::HierarchyOptions;
using hcart::LevelCentering;
using hcart::test::world_rank;
using hcart::test::world_size;

namespace {

GridSpec cube(std::int64_t n) {
  GridSpec s;
  s.global_size = {n, n, n};
  return s;
}

// The fine blocks' first cells per direction, dealt out here: ceil(n / m) units of m cells,
// one per block in turn from the first block (from the last where the last unit is short),
// the last block short of what the last unit lacks.
std::vector<std::int64_t> fine_cuts(std::int64_t n, int pieces, std::int64_t m) {
  std::vector<std::int64_t> units(static_cast<std::size_t>(pieces), 0);
  for (std::int64_t u = 0; u < (n + m - 1) / m; ++u)
    ++units[static_cast<std::size_t>(n % m == 0 ? u % pieces : pieces - 1 - u % pieces)];
  std::vector<std::int64_t> cuts{0};
  for (int c = 0; c < pieces; ++c)
    cuts.push_back(std::min(n, cuts.back() + units[static_cast<std::size_t>(c)] * m));
  return cuts;
}

// Checks every level this rank holds against the independent blocks: at level l the fine
// boundaries divided by 2^l, the level's size at the end; agglomerated levels the unions of
// their boxes. Returns the levels checked.
int check_levels(const GridHierarchy& h, const Decomposition& fine, LevelCentering centering) {
  int checked = 0;
  for (int l = 0; l < h.size(); ++l) {
    if (!h.holds(l)) continue;
    const Decomposition& d = h.decomposition(l);
    const hcart::Block b = h.grid(l).block();
    const auto size = h.global_size(l);
    for (int dir = 0; dir < 3; ++dir) {
      const std::int64_t n = fine.spec().global_size[dir];
      const auto cuts = fine_cuts(n, fine.dims()[dir], fine.spec().block_multiple[dir]);
      // This level's blocks are groups of `stride` fine blocks (agglomerated levels).
      const int stride = fine.dims()[dir] / d.dims()[dir];
      const std::int64_t divisor = std::int64_t(1) << l;
      const std::int64_t lo = cuts[static_cast<std::size_t>(d.coords()[dir] * stride)] / divisor;
      const std::int64_t hi = std::min(
          size[dir], cuts[static_cast<std::size_t>((d.coords()[dir] + 1) * stride)] / divisor);
      EXPECT_EQ(b.global_offset[dir], lo) << "level " << l << " direction " << dir;
      EXPECT_EQ(b.global_offset[dir] + b.local_size[dir], hi)
          << "level " << l << " direction " << dir;
      std::int64_t expect = n;
      for (int k = 0; k < l; ++k)
        expect = centering == LevelCentering::Cell ? expect / 2 : (expect - 1) / 2;
      EXPECT_EQ(size[dir], expect);
    }
    ++checked;
  }
  return checked;
}

} // namespace

// The case on every rank count 1-8: 64^3 in 4 levels (no agglomeration), every
// strategy and synthetic machine; and the nesting check users call.
TEST(GridHierarchy, NestsOnEveryRankCountStrategyAndMachine) {
  HierarchyOptions ho;
  ho.levels = 4;
  ho.agglomerate_below = 0;
  const GridSpec spec = hcart::nested_spec(cube(64), ho);
  EXPECT_EQ(spec.block_multiple, (std::array<std::int64_t, 3>{8, 8, 8}));
  std::vector<std::string> machines = hcart::test::machines_for(world_size());
  machines.push_back(""); // detected
  for (const std::string& machine : machines) {
    for (const hcart::Strategy strategy : {hcart::Strategy::Hierarchical, hcart::Strategy::Weighted,
                                           hcart::Strategy::Levelwise, hcart::Strategy::Mpi}) {
      DecompositionOptions o;
      o.machine = machine;
      o.strategy = strategy;
      const Decomposition fine(MPI_COMM_WORLD, spec, o);
      const GridHierarchy h(fine, ho);
      ASSERT_EQ(h.size(), 4);
      EXPECT_EQ(check_levels(h, fine, LevelCentering::Cell), 4) << machine;
      for (int l = 1; l < 4; ++l) {
        EXPECT_FALSE(h.agglomerated(l));
        EXPECT_EQ(h.ranks(l), world_size());
        hcart::require_nested(h.decomposition(l - 1), h.decomposition(l), {2, 2, 2});
      }
    }
  }
}

// One step (communicator, spec, options once): level 0 decomposed from nested_spec as a user
// would, the same blocks as the two-step hierarchy at every level, with agglomeration too.
TEST(GridHierarchy, OneStepIsTheTwoStepHierarchy) {
  HierarchyOptions ho; // 64^3 down to 8^3, the coarse levels agglomerated below 512 a rank
  ho.min_size = 8;
  DecompositionOptions o;
  o.machine = hcart::test::machines_for(world_size()).back();
  const GridHierarchy one(MPI_COMM_WORLD, cube(64), ho, o);
  const Decomposition fine(MPI_COMM_WORLD, hcart::nested_spec(cube(64), ho), o);
  const GridHierarchy two(fine, ho);
  ASSERT_EQ(one.size(), two.size());
  EXPECT_EQ(one.decomposition(0).spec().block_multiple, fine.spec().block_multiple);
  EXPECT_EQ(one.decomposition(0).dims(), fine.dims());
  EXPECT_EQ(check_levels(one, one.decomposition(0), LevelCentering::Cell),
            check_levels(two, fine, LevelCentering::Cell));
  for (int l = 0; l < one.size(); ++l) {
    ASSERT_EQ(one.holds(l), two.holds(l)) << "level " << l;
    EXPECT_EQ(one.ranks(l), two.ranks(l)) << "level " << l;
    if (!one.holds(l)) continue;
    EXPECT_EQ(one.grid(l).block().global_offset, two.grid(l).block().global_offset);
    EXPECT_EQ(one.grid(l).block().local_size, two.grid(l).block().local_size);
  }
  // The options' errors as from nested_spec, on every rank.
  HierarchyOptions bad;
  bad.levels = 9;
  EXPECT_THROW(GridHierarchy(MPI_COMM_WORLD, cube(64), bad), hcart::InputError);
}

// Vertex-centred: 63^3 points in 3 levels (31^3, 15^3), round-robin numbering too.
TEST(GridHierarchy, VertexCentredLevelsNest) {
  HierarchyOptions ho;
  ho.centering = LevelCentering::Vertex;
  ho.levels = 3;
  ho.agglomerate_below = 0;
  const GridSpec spec = hcart::nested_spec(cube(63), ho);
  EXPECT_EQ(spec.block_multiple[0], 4);
  for (const hcart::Placement placement : {hcart::Placement::Block, hcart::Placement::RoundRobin}) {
    DecompositionOptions o;
    o.machine = hcart::test::machines_for(world_size()).back();
    o.placement = placement;
    const Decomposition fine(MPI_COMM_WORLD, spec, o);
    const GridHierarchy h(fine, ho);
    EXPECT_EQ(check_levels(h, fine, LevelCentering::Vertex), 3);
    EXPECT_EQ(h.global_size(2), (std::array<std::int64_t, 3>{15, 15, 15}));
    hcart::require_nested(h.decomposition(0), h.decomposition(1), {2, 2, 2},
                          LevelCentering::Vertex);
  }
  // As many levels as the mesh allows: 31 -> 15 -> 7 -> 3 (min_size 2).
  ho.levels = 0;
  EXPECT_EQ(hcart::hierarchy_levels(cube(31), ho), 4);
  ho.centering = LevelCentering::Cell;
  EXPECT_EQ(hcart::hierarchy_levels(cube(64), ho), 6);
  GridSpec flat = cube(64);
  flat.global_size[2] = 1;
  EXPECT_EQ(hcart::hierarchy_levels(flat, ho), 6); // a direction of one cell is not coarsened
  EXPECT_EQ(hcart::nested_spec(flat, ho).block_multiple[2], 1);
}

// A plain balanced decomposition does not nest where the ranks do not divide the mesh: an
// InputError on every rank naming the boundary, the direction and the sizes; levels that do
// not halve, likewise.
TEST(GridHierarchy, BadHierarchiesAreErrorsOnEveryRank) {
  HierarchyOptions ho;
  ho.levels = 4;
  DecompositionOptions o;
  o.dims = {world_size(), 1, 1};
  o.strategy = hcart::Strategy::Manual;
  const Decomposition plain(MPI_COMM_WORLD, cube(64), o);
  // 64 / P cells a block: boundaries at multiples of 8 for P = 1, 2, 4, 8 only.
  const bool nests =
      world_size() == 1 || world_size() == 2 || world_size() == 4 || world_size() == 8;
  try {
    const GridHierarchy h(plain, ho);
    EXPECT_TRUE(nests) << "a hierarchy on blocks that do not halve";
  } catch (const hcart::InputError& e) {
    EXPECT_FALSE(nests) << e.what();
    const std::string what = e.what();
    EXPECT_NE(what.find("level 1 cannot be made"), std::string::npos) << what;
    EXPECT_NE(what.find("direction 0"), std::string::npos) << what;
    EXPECT_NE(what.find("not a multiple of the ratio 2"), std::string::npos) << what;
    EXPECT_TRUE(e.collective());
  }
  ho.levels = 8; // 64 halves 6 times only
  try {
    (void)hcart::nested_spec(cube(64), ho);
    ADD_FAILURE() << "accepted 8 levels of 64 cells";
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("level 7 cannot be made: direction 0 has 1 cells"),
              std::string::npos)
        << e.what();
  }
  ho.levels = -1;
  EXPECT_THROW((void)hcart::nested_spec(cube(64), ho), hcart::InputError);
}

namespace {

// A value of the global index, different in every cell.
KOKKOS_INLINE_FUNCTION double value_at(std::int64_t i, std::int64_t j, std::int64_t k, int c) {
  return 1.0 + 0.5 * c + 1e-3 * static_cast<double>(((i * 131 + j) * 137 + k) % 100003);
}

struct Fill {
  hcart::ComponentField<double> f;
  std::int64_t oi, oj, ok; // global index of local 0
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    for (int c = 0; c < static_cast<int>(f.extent(0)); ++c)
      f(c, i, j, k) = value_at(oi + i, oj + j, ok + k, c);
  }
};

std::array<std::int64_t, 3> origin(const hcart::Grid& g) {
  return {g.global_offset()[0] - g.halo_width()[0], g.global_offset()[1] - g.halo_width()[1],
          g.global_offset()[2] - g.halo_width()[2]};
}

// Cells of `box` in `f` (of grid g) that differ from value_at.
long wrong_cells(const hcart::Grid& g, const hcart::ComponentField<double>& f,
                 const hcart::Box& box) {
  const auto host = hcart::host_copy(f);
  const auto o = origin(g);
  long wrong = 0;
  for (int c = 0; c < static_cast<int>(f.extent(0)); ++c)
    for (int i = box.lo[0]; i < box.hi[0]; ++i)
      for (int j = box.lo[1]; j < box.hi[1]; ++j)
        for (int k = box.lo[2]; k < box.hi[2]; ++k)
          wrong += host(c, i, j, k) != value_at(o[0] + i, o[1] + j, o[2] + k, c);
  return wrong;
}

} // namespace

// 64^3 in 4 levels with agglomeration below 512 cells a rank: the coarse levels on fewer
// ranks, held by exactly the owners the choice names; a gather and a scatter (halos too) of a
// 3-component field carry every value of the global index there and back; machine and stride
// rules on every synthetic machine; the machine rule never sends more across nodes.
TEST(GridHierarchy, AgglomeratedLevelsMoveTheirDataThereAndBack) {
  HierarchyOptions ho;
  ho.levels = 4;
  ho.agglomerate_below = 512;
  const GridSpec spec = hcart::nested_spec(cube(64), ho);
  for (const std::string& machine : hcart::test::machines_for(world_size())) {
    for (const hcart::Strategy strategy :
         {hcart::Strategy::Hierarchical, hcart::Strategy::Weighted}) {
      std::vector<std::int64_t> node_bytes;
      for (const hcart::AgglomerationRule rule :
           {hcart::AgglomerationRule::Machine, hcart::AgglomerationRule::Stride}) {
        ho.agglomeration = rule;
        DecompositionOptions o;
        o.machine = machine;
        o.strategy = strategy; // (weighted: the stride rule's owners outside their boxes)
        o.placement = hcart::Placement::RoundRobin;
        const Decomposition fine(MPI_COMM_WORLD, spec, o);
        const GridHierarchy h(fine, ho);
        EXPECT_EQ(check_levels(h, fine, LevelCentering::Cell), [&] {
          int n = 0;
          for (int l = 0; l < 4; ++l)
            n += h.holds(l) ? 1 : 0;
          return n;
        }());
        std::int64_t crossed = 0;
        for (int l = 1; l < 4; ++l) {
          // Level l's cells per rank above: 64^3 / 8^l over the ranks of level l - 1.
          const std::int64_t cells = 262144 >> (3 * l);
          const bool expect = cells < 512LL * h.ranks(l - 1) && h.ranks(l - 1) > 1;
          EXPECT_EQ(h.agglomerated(l), expect) << machine << " level " << l;
          int holding = h.holds(l) ? 1 : 0;
          MPI_Allreduce(MPI_IN_PLACE, &holding, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
          EXPECT_EQ(holding, h.ranks(l));
          if (!h.agglomerated(l) || !h.holds(l - 1)) continue;
          const auto& choice = h.agglomeration(l);
          crossed += choice.bytes.total.at(0);
          const hcart::Grid& pg = h.pieces(l);
          // Gather: pieces hold the global values on their owned cells, the owners then too.
          auto pieces = pg.make_components<double>("pieces", 3);
          const auto po = origin(pg);
          hcart::for_each_cell("fill", pg.owned_box(), Fill{pieces, po[0], po[1], po[2]});
          hcart::ComponentField<double> coarse;
          if (h.holds(l)) coarse = h.grid(l).make_components<double>("coarse", 3);
          // The traffic counted as it is sent, summed over the ranks, against the choice's
          // arithmetic (per double per cell, every machine level and self) and, for the
          // scatter, against the pieces' boxes with their halos.
          const MPI_Comm above = pg.decomposition().comm();
          const auto sent = [&](const std::vector<std::int64_t>& before) {
            std::vector<long long> d(before.size());
            for (std::size_t x = 0; x < d.size(); ++x)
              d[x] = h.transfer_counters().bytes[x] - before[x];
            MPI_Allreduce(MPI_IN_PLACE, d.data(), static_cast<int>(d.size()), MPI_LONG_LONG,
                          MPI_SUM, above);
            return d;
          };
          auto before = h.transfer_counters().bytes;
          h.gather(l, pieces, coarse);
          const auto gathered = sent(before);
          ASSERT_EQ(gathered.size(), choice.bytes.total.size());
          for (std::size_t x = 0; x < gathered.size(); ++x)
            EXPECT_EQ(gathered[x], 3 * choice.bytes.total[x])
                << machine << " level " << l << " machine level " << x;
          if (h.holds(l)) {
            EXPECT_EQ(wrong_cells(h.grid(l), coarse, h.grid(l).owned_box()), 0) << machine;
            // Scatter: the owners' every cell (halos: values of their global index too).
            const auto co = origin(h.grid(l));
            hcart::for_each_cell("fill", h.grid(l).with_halo_box(),
                                 Fill{coarse, co[0], co[1], co[2]});
          }
          Kokkos::deep_copy(pieces, -1.0);
          before = h.transfer_counters().bytes;
          h.scatter(l, coarse, pieces);
          long long with_halos = 1;
          for (int d = 0; d < 3; ++d)
            with_halos *= pg.local_size()[d] + 2 * pg.halo_width()[d];
          with_halos *= 3 * static_cast<long long>(sizeof(double));
          MPI_Allreduce(MPI_IN_PLACE, &with_halos, 1, MPI_LONG_LONG, MPI_SUM, above);
          const auto scattered = sent(before);
          long long all = 0;
          for (const long long b : scattered)
            all += b;
          EXPECT_EQ(all, with_halos) << machine << " level " << l;
          EXPECT_EQ(wrong_cells(pg, pieces, pg.with_halo_box()), 0) << machine << " level " << l;
        }
        MPI_Allreduce(MPI_IN_PLACE, &crossed, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
        node_bytes.push_back(crossed);
        for (const std::string& line : h.describe())
          if (world_rank() == 0 && machine == hcart::test::machines_for(world_size()).back())
            std::cout << machine << " " << hcart::to_string(rule) << ": " << line << "\n";
      }
      EXPECT_LE(node_bytes[0], node_bytes[1]) << machine << ": machine rule above the stride rule";
    }
  }
}

// Halos of a level exchange on its own grid as on any (Full mode, periodic), and the levels
// below an agglomerated one nest in it.
TEST(GridHierarchy, LevelsExchangeOnTheirOwnGrids) {
  HierarchyOptions ho;
  ho.levels = 3;
  ho.agglomerate_below = 4096;
  GridSpec spec = cube(32);
  spec.periodic = {true, false, true};
  const Decomposition fine(MPI_COMM_WORLD, hcart::nested_spec(spec, ho));
  const GridHierarchy h(fine, ho);
  for (int l = 0; l < h.size(); ++l) {
    if (!h.holds(l)) continue;
    const hcart::Grid& g = h.grid(l);
    auto f = g.make_components<double>("f", 2);
    const auto o = origin(g);
    Kokkos::deep_copy(f, -1.0);
    hcart::for_each_cell("fill", g.owned_box(), Fill{f, o[0], o[1], o[2]});
    hcart::HaloExchanger halo(g, hcart::HaloMode::Full);
    halo.exchange(f);
    // Interior and periodic halos: the wrapped global index's value.
    const auto host = hcart::host_copy(f);
    const auto n = h.global_size(l);
    long wrong = 0;
    for (int i = 0; i < g.extent()[0]; ++i)
      for (int j = 0; j < g.extent()[1]; ++j)
        for (int k = 0; k < g.extent()[2]; ++k) {
          std::int64_t gi = o[0] + i, gj = o[1] + j, gk = o[2] + k;
          if (gj < 0 || gj >= n[1]) continue; // the physical boundary: not written
          gi = (gi + n[0]) % n[0];
          gk = (gk + n[2]) % n[2];
          for (int c = 0; c < 2; ++c)
            wrong += host(c, i, j, k) != value_at(gi, gj, gk, c);
        }
    EXPECT_EQ(wrong, 0) << "level " << l;
  }
}
