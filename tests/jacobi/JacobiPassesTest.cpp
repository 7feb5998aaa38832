// Jacobi3D's passes (Passes.hpp): how many iterations share one pass over memory and one
// exchange, the halo they need, agreed by all ranks; several iterations per pass give
// bitwise the field, the residuals and the stopping iteration of one per pass.
#include "GatherField.hpp"
#include "JacobiSolver.hpp"
#include "Passes.hpp"
#include "PointUpdates.hpp"
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

using namespace hcart;
using hcart::test::first_ranks;
using hcart::test::world_rank;

namespace {
struct SolverRun {
  std::vector<double> field;
  jacobi::Result result;
  long per_pass = 0;
  std::array<int, 3> halo_width{};
};

// A run on `comm` of `iterations` iterations (or to convergence when 0) as Jacobi3D sets it
// up: `requested` iterations per pass asked for, the passes and the grid's halo planned on
// the decomposition.
SolverRun run_blocked(MPI_Comm comm, const GridSpec& spec, jacobi::Settings s, long requested,
                      long iterations) {
  const Decomposition decomp(comm, spec);
  s.iterations_per_pass = requested;
  const jacobi::Passes passes = jacobi::plan_passes(s, decomp);
  const Grid grid(decomp, passes.halo_width);
  Timers timers;
  jacobi::Solver solver(grid, s, passes.iterations_per_pass, timers);
  SolverRun r;
  r.result = iterations > 0 ? solver.iterate(iterations) : solver.run();
  r.per_pass = solver.iterations_per_pass();
  r.halo_width = grid.halo_width();
  r.field = test::gather_global(grid, solver.solution());
  return r;
}
} // namespace

// The wavefront (several iterations per pass over memory, one rank without neighbours)
// gives bitwise the field, the residuals and the stopping iteration of one iteration per
// pass, for every depth, with checks falling inside and between passes.
TEST(Jacobi, TemporalBlockingIsBitwiseTheSameAsOneIterationPerPass) {
  MPI_Comm one = first_ranks(1);
  if (one == MPI_COMM_NULL) return;
  GridSpec spec;
  spec.global_size = {19, 14, 23};
  for (jacobi::Problem problem : {jacobi::Problem::Laplace, jacobi::Problem::Poisson}) {
    jacobi::Settings s;
    s.problem = problem;
    s.boundary_values = {1.0, 0.25, -0.5, 0.75, 2.0, 0.125};
    s.check_every = 7;
    const SolverRun plain = run_blocked(one, spec, s, 1, 41);
    ASSERT_EQ(plain.per_pass, 1);
    for (long depth : {2L, 3L, 5L, 8L, 64L}) {
      const SolverRun fused = run_blocked(one, spec, s, depth, 41);
      EXPECT_EQ(fused.per_pass, host_execution ? depth : 1);
      ASSERT_EQ(fused.field.size(), plain.field.size());
      EXPECT_EQ(
          std::memcmp(fused.field.data(), plain.field.data(), plain.field.size() * sizeof(double)),
          0)
          << "depth " << depth;
      EXPECT_EQ(fused.result.residual, plain.result.residual) << "depth " << depth;
    }
    // To convergence: the same residuals, so the same stop.
    s.tolerance = 1e-4;
    s.max_iterations = 5000;
    s.check_every = 6;
    const SolverRun plain_run = run_blocked(one, spec, s, 1, 0);
    const SolverRun fused_run = run_blocked(one, spec, s, 4, 0);
    EXPECT_TRUE(plain_run.result.converged);
    EXPECT_GT(plain_run.result.iterations, 6);
    EXPECT_EQ(fused_run.result.iterations, plain_run.result.iterations);
    EXPECT_EQ(fused_run.result.residual, plain_run.result.residual);
    EXPECT_EQ(std::memcmp(fused_run.field.data(), plain_run.field.data(),
                          plain_run.field.size() * sizeof(double)),
              0);
  }
  // Automatic: fused on one host rank without neighbours, and with a periodic direction (a
  // neighbour: itself) over a halo as deep in that direction; the field as with one
  // iteration per pass. The planes give every thread of the team its share between the
  // wavefront's barriers (kWavefrontCellsPerThread) and fit any cache, whatever the number
  // of threads. A device build has no wavefront: one per pass.
  jacobi::Settings s;
  s.boundary_values = {1.0, 0.25, -0.5, 0.75, 2.0, 0.125};
  GridSpec wide;
  const long threads = std::max(1, host_threads());
  wide.global_size = {6, 64, static_cast<int>(jacobi::kWavefrontCellsPerThread * threads / 64 + 3)};
  const SolverRun alone = run_blocked(one, wide, s, 0, 19);
  EXPECT_EQ(alone.halo_width, (std::array<int, 3>{1, 1, 1})) << "no neighbour: one layer";
  GridSpec periodic = wide;
  periodic.periodic = {false, true, false};
  const SolverRun wrapped = run_blocked(one, periodic, s, 0, 19);
  const SolverRun wrapped_plain = run_blocked(one, periodic, s, 1, 19);
  if (host_execution) {
    EXPECT_GT(alone.per_pass, 1);
    EXPECT_GT(wrapped.per_pass, 1);
    EXPECT_EQ(wrapped.halo_width[1], wrapped.per_pass) << "the periodic direction";
  } else {
    EXPECT_EQ(alone.per_pass, 1);
    EXPECT_EQ(wrapped.per_pass, 1);
  }
  EXPECT_EQ(std::memcmp(wrapped.field.data(), wrapped_plain.field.data(),
                        wrapped_plain.field.size() * sizeof(double)),
            0);
  MPI_Comm_free(&one);
}

// With neighbours a pass needs halos as deep as its iterations: the plan gives the grid
// those halos, and overlap (an exchange behind every iteration) keeps one per pass.
TEST(Jacobi, TemporalBlockingAcrossRanksGetsDeepHalos) {
  if (test::world_size() == 1) GTEST_SKIP() << "needs more than one rank";
  GridSpec spec;
  spec.global_size = {24, 24, 24};
  jacobi::Settings s;
  for (long asked : {2L, 4L}) {
    const SolverRun r = run_blocked(MPI_COMM_WORLD, spec, s, asked, 1);
    EXPECT_EQ(r.per_pass, host_execution ? asked : 1);
    // At least one direction is cut, and its halo is as deep as a pass.
    EXPECT_GE(*std::max_element(r.halo_width.begin(), r.halo_width.end()),
              host_execution ? asked : 1);
  }
  s.overlap = true;
  EXPECT_EQ(run_blocked(MPI_COMM_WORLD, spec, s, 4, 1).per_pass, 1);
  // Blocks of different sizes (9, 8, 8 cells on 3 ranks) would choose different numbers by
  // their share of redundant updates: all ranks use the smallest, and the field is the same.
  s.overlap = false;
  spec.global_size = {25, 24, 24};
  const SolverRun automatic = run_blocked(MPI_COMM_WORLD, spec, s, 0, 13);
  long agreed[2] = {automatic.per_pass, -automatic.per_pass};
  MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(agreed[0], -agreed[1]) << "ranks chose different numbers";
  const SolverRun plain = run_blocked(MPI_COMM_WORLD, spec, s, 1, 13);
  if (world_rank() == 0) {
    ASSERT_EQ(automatic.field.size(), plain.field.size());
    EXPECT_EQ(std::memcmp(automatic.field.data(), plain.field.data(),
                          plain.field.size() * sizeof(double)),
              0);
  }
}

// A solver handed a grid whose halo is shallower than its passes across a neighbour
// refuses it on every rank, instead of reading stale halo cells.
TEST(Jacobi, TheHaloFollowsTheIterationsPerPass) {
  const int P = test::world_size();
  GridSpec spec;
  spec.global_size = {64, 64, 64};
  jacobi::Settings s;
  const bool neighbours = P > 1;
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  jacobi::Passes p = jacobi::plan_passes(s, decomp);
  // Automatic across ranks: up to 4, fewer where the blocks are thin (64 / 3 cells: 3),
  // where every rank's planes give each thread of its team its share between the
  // wavefront's barriers (on 2 ranks of 2 threads, 64 x 64 planes do not: one per pass).
  const Block block = decomp.block({0, 0, 0});
  int shares =
      host_threads() == 1 || static_cast<long>(block.local_size[1]) * block.local_size[2] >=
                                 jacobi::kWavefrontCellsPerThread * host_threads();
  MPI_Allreduce(MPI_IN_PLACE, &shares, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (host_execution && neighbours && shares) {
    EXPECT_GE(p.iterations_per_pass, 2);
    EXPECT_LE(p.iterations_per_pass, jacobi::kAutoIterationsWithNeighbours);
  } else if (host_execution && neighbours) {
    EXPECT_EQ(p.iterations_per_pass, 1) << "planes too small for the team's threads";
  } else if (!host_execution) {
    EXPECT_EQ(p.iterations_per_pass, 1);
  }
  for (int d = 0; d < 3; ++d) {
    const bool crossed = decomp.dims()[d] > 1;
    // k not cut, 64 cells: 4 layers, so that rows start on 32-byte boundaries.
    const bool aligned = d == 2 && !crossed && host_execution && neighbours;
    EXPECT_EQ(p.halo_width[d], crossed   ? p.iterations_per_pass
                               : aligned ? jacobi::kAlignedRowHalo
                                         : 1)
        << "direction " << d;
  }
  s.iterations_per_pass = 6;
  p = jacobi::plan_passes(s, decomp);
  EXPECT_EQ(p.iterations_per_pass, host_execution ? 6 : 1);
  // A block of 64 / 16 = 4 cells caps it at 4.
  if (P == 4) {
    GridSpec slab = spec;
    slab.global_size = {16, 2, 2};
    const Decomposition thin(MPI_COMM_WORLD, slab);
    EXPECT_EQ(jacobi::plan_passes(s, thin).iterations_per_pass, host_execution ? 4 : 1);
  }
  // A periodic direction is a neighbour even on one rank.
  spec.periodic = {false, false, true};
  const Decomposition wrapped(MPI_COMM_WORLD, spec);
  p = jacobi::plan_passes(s, wrapped);
  EXPECT_EQ(p.halo_width[2], host_execution ? 6 : 1);
  if (P == 1) {
    EXPECT_EQ(p.halo_width[0], 1);
  }
  s.overlap = true;
  EXPECT_EQ(jacobi::plan_passes(s, wrapped).halo_width, (std::array<int, 3>{1, 1, 1}));
  s.overlap = false;
  s.iterations_per_pass = 1;
  EXPECT_EQ(jacobi::plan_passes(s, wrapped).halo_width, (std::array<int, 3>{1, 1, 1}));
}

namespace {
// A block of `n` owned cells, with neighbours across the faces of the `crossed` directions.
Block test_block(const std::array<int, 3>& n, const std::array<bool, 3>& crossed) {
  Block b;
  b.local_size = n;
  for (int d = 0; d < 3; ++d) {
    for (int side = 0; side < 2; ++side) {
      if (crossed[d]) b.at(Block::face(d, side)).across = Across::OtherRank;
    }
  }
  return b;
}
} // namespace

// The policy on its own: capped by the owned cells on sides with a neighbour, by the cache
// and by 10% of redundant updates when automatic.
TEST(Jacobi, IterationsPerPassPolicy) {
  jacobi::Settings s;
  Block alone = test_block({64, 64, 64}, {false, false, false});
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, alone, true, 1), jacobi::kMaxWavefrontIterations);
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, alone, false, 1), 1) << "no wavefront";
  // 64^2 planes: one thread has no barrier to wait at; two would have 2048 cells each.
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, alone, true, 2), 1) << "too little per thread";
  alone.local_size = {64, 192, 192}; // 36864 cells a plane: 18432 each at 2 threads
  EXPECT_GT(jacobi::choose_iterations_per_pass(s, alone, true, 2), 1);
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, alone, true, 16), 1) << "2304 each at 16";
  s.iterations_per_pass = 4; // asked for: no threshold
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, alone, true, 16), 4);
  s.iterations_per_pass = 0;
  alone.local_size = {64, 2048, 2048}; // 32 MiB planes: no room for a pass in 16 MiB
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, alone, true, 1), 1);
  Block cut = test_block({64, 64, 64}, {true, false, false});
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, cut, true, 1),
            jacobi::kAutoIterationsWithNeighbours);
  cut.local_size = {8, 64, 64}; // 4 per pass would redo 4 * 3 / 2 / 8 = 37% more updates
  const long n = jacobi::choose_iterations_per_pass(s, cut, true, 1);
  EXPECT_LE(jacobi::redundant_share(cut, n), 0.1);
  EXPECT_GT(jacobi::redundant_share(cut, n + 1), 0.1);
  s.iterations_per_pass = 64;
  cut.local_size = {3, 64, 64};
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, cut, true, 1), 3) << "capped by the block";
  s.overlap = true;
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, cut, true, 1), 1);
}
