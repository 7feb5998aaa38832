// hcart::Grid and hcart::Block: the block of every rank, with the halo the grid is given,
// against the decomposition it comes from — sizes that tile the mesh, offsets, and what
// lies across each of the 26 offsets; bad halos refused on every rank.
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

using hcart::test::world_rank;
using hcart::test::world_size;

namespace {
hcart::GridSpec spec_of(std::array<std::int64_t, 3> size, std::array<bool, 3> periodic) {
  hcart::GridSpec spec;
  spec.global_size = size;
  spec.periodic = periodic;
  return spec;
}
} // namespace

// The grid allocates the halo it is given (the spec's by default), whatever the spec's
// reach that the decomposition weighed.
TEST(Grid, AllocatesTheHaloItIsGiven) {
  hcart::GridSpec spec = spec_of({24, 20, 16}, {false, true, false});
  spec.halo_width = {2, 1, 0};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid reach(decomp);
  EXPECT_EQ(reach.halo_width(), spec.halo_width);
  const hcart::Grid deep(decomp, {3, 4, 1});
  EXPECT_EQ(deep.halo_width(), (std::array<int, 3>{3, 4, 1}));
  EXPECT_EQ(deep.local_size(), reach.local_size());
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(deep.extent()[d], deep.local_size()[d] + 2 * deep.halo_width()[d]);
    EXPECT_EQ(deep.owned_box().lo[d], deep.halo_width()[d]);
    EXPECT_EQ(deep.owned_box().hi[d], deep.halo_width()[d] + deep.local_size()[d]);
    EXPECT_EQ(deep.with_halo_box().hi[d], deep.extent()[d]);
    EXPECT_EQ(deep.global_index(d, deep.halo_width()[d]), deep.global_offset()[d]);
    EXPECT_EQ(deep.local_index(d, deep.global_offset()[d]), deep.halo_width()[d]);
  }
  const auto u = deep.make_field<float>("u");
  EXPECT_EQ(static_cast<int>(u.extent(0)), deep.extent()[0]);
  EXPECT_EQ(static_cast<int>(u.extent(2)), deep.extent()[2]);
  // A field with components: each component of the grid's extents; the contract names the
  // components; fewer than one is refused.
  const auto f = deep.make_components<double>("f", 3);
  EXPECT_EQ(f.extent(0), 3u);
  for (int d = 0; d < 3; ++d)
    EXPECT_EQ(static_cast<int>(f.extent(d + 1)), deep.extent()[d]);
  EXPECT_TRUE(deep.fits(f));
  EXPECT_FALSE(reach.fits(f) && reach.extent() != deep.extent());
  try {
    reach.require_fits(f, "test");
    EXPECT_EQ(reach.extent(), deep.extent());
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("(3 components), expected the grid's"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(deep.make_components<double>("none", 0), hcart::InputError);
  // A bad count on one rank is the same collective error on every rank (one line to print,
  // no rank left waiting).
  try {
    deep.make_components<double>("f", hcart::test::world_rank() == 0 ? 0 : 2);
    ADD_FAILURE() << "a field of 0 components on rank 0";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("field 'f' with 0 components, expected 1 or more"),
              std::string::npos)
        << e.what();
  }
}

// The blocks tile the mesh: owned sizes add up per direction, offsets follow each other,
// and each rank's block is the decomposition's (balanced block rule).
TEST(Grid, BlocksTileTheMesh) {
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec_of({23, 17, 11}, {false, false, true}));
  const hcart::Grid grid(decomp);
  const auto dims = decomp.dims(), coords = decomp.coords();
  for (int d = 0; d < 3; ++d) {
    // Along each line of ranks in direction d the sizes add up to the mesh.
    int others = 0;
    for (int e = 0; e < 3; ++e)
      others = others * 1000 + (e == d ? 0 : coords[e]);
    MPI_Comm line = MPI_COMM_NULL;
    MPI_Comm_split(decomp.comm(), others, coords[d], &line);
    long long n = grid.local_size()[d], total = 0;
    MPI_Allreduce(&n, &total, 1, MPI_LONG_LONG, MPI_SUM, line);
    EXPECT_EQ(total, grid.global_size()[d]) << "direction " << d;
    // The offset is the sum of the sizes below.
    long long below = 0;
    MPI_Exscan(&n, &below, 1, MPI_LONG_LONG, MPI_SUM, line);
    if (coords[d] == 0) below = 0;
    EXPECT_EQ(grid.global_offset()[d], below) << "direction " << d;
    MPI_Comm_free(&line);
    // Balanced: sizes differ by at most one.
    long long lo = 0, hi = 0;
    MPI_Allreduce(&n, &lo, 1, MPI_LONG_LONG, MPI_MIN, decomp.comm());
    MPI_Allreduce(&n, &hi, 1, MPI_LONG_LONG, MPI_MAX, decomp.comm());
    EXPECT_LE(hi - lo, 1);
    EXPECT_EQ(dims[d] == 1, grid.local_size()[d] == grid.global_size()[d]);
  }
}

// What lies across each of the 26 offsets: the decomposition's neighbour, the kind of it,
// and whether crossing wraps a periodic direction.
TEST(Grid, TheBlockKnowsWhatLiesAcrossEverySide) {
  for (std::array<bool, 3> periodic :
       {std::array<bool, 3>{false, false, false}, std::array<bool, 3>{true, false, true}}) {
    const hcart::Decomposition decomp(MPI_COMM_WORLD, spec_of({16, 12, 8}, periodic));
    const hcart::Grid grid(decomp);
    const hcart::Block& block = grid.block();
    const auto dims = decomp.dims(), coords = decomp.coords();
    for (int a = -1; a <= 1; ++a)
      for (int b = -1; b <= 1; ++b)
        for (int c = -1; c <= 1; ++c) {
          const std::array<int, 3> o{a, b, c};
          const int rank = decomp.neighbour(o);
          const hcart::Block::Neighbour& n = block.at(o);
          bool outside = false, wraps = false;
          for (int d = 0; d < 3; ++d) {
            const int x = coords[d] + o[d];
            const bool off = x < 0 || x >= dims[d];
            outside = outside || (off && !periodic[d]);
            wraps = wraps || (off && periodic[d]);
          }
          if (outside) {
            EXPECT_EQ(n.across, hcart::Across::Boundary);
            EXPECT_EQ(rank, MPI_PROC_NULL);
            EXPECT_FALSE(n.periodic_wrap);
            continue;
          }
          EXPECT_EQ(n.rank, rank);
          // (Offset 0, 0, 0 is the block itself.)
          EXPECT_EQ(n.across,
                    rank == decomp.rank() ? hcart::Across::Self : hcart::Across::OtherRank)
              << a << b << c;
          EXPECT_EQ(n.periodic_wrap, wraps) << a << b << c;
        }
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(block.is_physical(d, 0), !periodic[d] && coords[d] == 0);
      EXPECT_EQ(block.is_physical(d, 1), !periodic[d] && coords[d] == dims[d] - 1);
      EXPECT_EQ(block.periodic[d], periodic[d]);
    }
    EXPECT_EQ(block.has_neighbours(), world_size() > 1 || periodic[0]);
  }
}

// A halo deeper than a block where the block has a neighbour, or a negative one, is an
// InputError on every rank; a halo of 0 is a grid without halo.
TEST(Grid, ABadHaloIsRefusedOnEveryRank) {
  const int P = world_size();
  hcart::GridSpec spec = spec_of({2LL * P, 8, 8}, {true, false, false});
  hcart::DecompositionOptions manual;
  manual.strategy = hcart::Strategy::Manual;
  manual.dims = {P, 1, 1};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec, manual); // blocks of 2 in x
  try {
    const hcart::Grid grid(decomp, {3, 1, 1});
    ADD_FAILURE() << "a halo of 3 over blocks of 2 was accepted";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("fewer than the halo width 3"), std::string::npos)
        << e.what();
  }
  // Only the last rank passes a negative width: still an error everywhere.
  std::array<int, 3> halo{1, 1, 1};
  if (world_rank() == P - 1) halo = {1, -1, 1};
  EXPECT_THROW(hcart::Grid(decomp, halo), hcart::InputError);
  const hcart::Grid bare(decomp, {0, 0, 0});
  EXPECT_EQ(bare.extent(), bare.local_size());
}

namespace {
// A profile's rule of the global index (exact in double).
struct ProfileRule {
  KOKKOS_INLINE_FUNCTION double operator()(long long g) const { return 1000.0 + 3.0 * g; }
};
} // namespace

// Profiles along one direction: the direction's local extent, halos included, each value the
// rule of its global index (wrapped where periodic, past the side where not), on any
// decomposition; a bad direction or a profile of another extent is refused.
TEST(Grid, ProfilesAlongOneDirection) {
  for (bool periodic : {false, true}) {
    hcart::GridSpec spec;
    spec.global_size = {14, 11, 9};
    spec.halo_width = {2, 1, 3};
    spec.periodic = {periodic, !periodic, periodic};
    const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
    const hcart::Grid grid(decomp);
    for (int dir = 0; dir < 3; ++dir) {
      hcart::Profile<double> p = grid.make_profile<double>("p", dir);
      ASSERT_EQ(p.extent(0), static_cast<std::size_t>(grid.extent()[dir]));
      grid.fill_profile(p, dir, ProfileRule{});
      auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p);
      long wrong = 0;
      for (int l = 0; l < grid.extent()[dir]; ++l) {
        long long g = grid.global_index(dir, l);
        if (spec.periodic[dir]) g = (g + spec.global_size[dir]) % spec.global_size[dir];
        wrong += host(l) != 1000.0 + 3.0 * static_cast<double>(g);
      }
      EXPECT_EQ(wrong, 0) << "direction " << dir;
    }
    EXPECT_THROW(grid.make_profile<double>("p", 3), hcart::InputError);
    const hcart::Profile<double> short_one("short", static_cast<std::size_t>(grid.extent()[0] - 1));
    try {
      grid.fill_profile(short_one, 0, ProfileRule{});
      ADD_FAILURE() << "expected an error for a profile of another extent";
    } catch (const hcart::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("profile 'short' has"), std::string::npos) << e.what();
    }
  }
}
