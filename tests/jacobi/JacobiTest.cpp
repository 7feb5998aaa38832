// Jacobi3D: the field after k iterations is bitwise the same for every rank count,
// strategy and overlap setting, and equals a serial reference written with plain loops;
// the Poisson problem converges to its exact discrete solution with second order in h.
#include "GatherField.hpp"
#include "JacobiSolver.hpp"
#include "WorldRanks.hpp"
#include "jacobi_kernels.hpp"

#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

using namespace hcart;
using hcart::test::first_ranks;
using hcart::test::world_rank;

namespace {

// The same iteration with plain loops on one array with a ghost layer.
std::vector<double> serial_reference(const std::array<std::int64_t, 3>& g,
                                     const std::array<bool, 3>& periodic, const jacobi::Settings& s,
                                     long iterations) {
  const long X = g[0] + 2, Y = g[1] + 2, Z = g[2] + 2;
  auto at = [&](long i, long j, long k) { return (i * Y + j) * Z + k; };
  std::vector<double> u(X * Y * Z, 0.0), v, f(X * Y * Z, 0.0);
  const jacobi::Stencil st = jacobi::make_stencil(double(g[0]), double(g[1]), double(g[2]));
  for (long i = 1; i <= g[0]; ++i)
    for (long j = 1; j <= g[1]; ++j)
      for (long k = 1; k <= g[2]; ++k) {
        if (s.problem == jacobi::Problem::Poisson) {
          f[at(i, j, k)] =
              jacobi::poisson_rhs(jacobi::coordinate(i - 1, g[0]), jacobi::coordinate(j - 1, g[1]),
                                  jacobi::coordinate(k - 1, g[2]));
        }
      }
  // Dirichlet faces.
  for (long a = 0; a < std::max({X, Y, Z}); ++a)
    for (long b = 0; b < std::max({X, Y, Z}); ++b) {
      const double* bv = s.boundary_values.data();
      const bool laplace = s.problem == jacobi::Problem::Laplace;
      if (a < Y && b < Z) {
        u[at(0, a, b)] = laplace ? bv[0] : 0;
        u[at(X - 1, a, b)] = laplace ? bv[1] : 0;
      }
      if (a < X && b < Z) {
        u[at(a, 0, b)] = laplace ? bv[2] : 0;
        u[at(a, Y - 1, b)] = laplace ? bv[3] : 0;
      }
      if (a < X && b < Y) {
        u[at(a, b, 0)] = laplace ? bv[4] : 0;
        u[at(a, b, Z - 1)] = laplace ? bv[5] : 0;
      }
    }
  v = u;
  for (long it = 0; it < iterations; ++it) {
    // Periodic ghosts from the opposite side.
    for (long j = 1; j <= g[1]; ++j)
      for (long k = 1; k <= g[2]; ++k)
        if (periodic[0]) {
          u[at(0, j, k)] = u[at(g[0], j, k)];
          u[at(X - 1, j, k)] = u[at(1, j, k)];
        }
    for (long i = 1; i <= g[0]; ++i)
      for (long k = 1; k <= g[2]; ++k)
        if (periodic[1]) {
          u[at(i, 0, k)] = u[at(i, g[1], k)];
          u[at(i, Y - 1, k)] = u[at(i, 1, k)];
        }
    for (long i = 1; i <= g[0]; ++i)
      for (long j = 1; j <= g[1]; ++j)
        if (periodic[2]) {
          u[at(i, j, 0)] = u[at(i, j, g[2])];
          u[at(i, j, Z - 1)] = u[at(i, j, 1)];
        }
    for (long i = 1; i <= g[0]; ++i)
      for (long j = 1; j <= g[1]; ++j)
        for (long k = 1; k <= g[2]; ++k)
          v[at(i, j, k)] = jacobi::update(
              u[at(i - 1, j, k)], u[at(i + 1, j, k)], u[at(i, j - 1, k)], u[at(i, j + 1, k)],
              u[at(i, j, k - 1)], u[at(i, j, k + 1)], f[at(i, j, k)], st);
    std::swap(u, v);
  }
  std::vector<double> out;
  for (long i = 1; i <= g[0]; ++i)
    for (long j = 1; j <= g[1]; ++j)
      for (long k = 1; k <= g[2]; ++k)
        out.push_back(u[at(i, j, k)]);
  return out;
}

} // namespace

TEST(Jacobi, BitwiseIdenticalForEveryDecompositionAndEqualToASerialReference) {
  struct Case {
    std::array<std::int64_t, 3> size;
    std::array<bool, 3> periodic;
    jacobi::Problem problem;
  };
  const std::vector<Case> cases = {{{20, 18, 22}, {false, false, false}, jacobi::Problem::Laplace},
                                   {{16, 24, 12}, {true, false, true}, jacobi::Problem::Laplace},
                                   {{17, 17, 17}, {false, false, false}, jacobi::Problem::Poisson}};
  const long iterations = 37;
  for (const auto& c : cases) {
    jacobi::Settings s;
    s.problem = c.problem;
    s.boundary_values = {1.0, 0.25, -0.5, 0.0, 2.0, 0.125};
    s.check_every = 5;
    const std::vector<double> reference = world_rank() == 0
                                              ? serial_reference(c.size, c.periodic, s, iterations)
                                              : std::vector<double>{};
    // One iteration per pass with and without overlap; passes of 3 iterations over halos
    // 3 deep (with neighbours: redundant updates next to them); and passes of 2 over halos
    // 3 deep.
    struct Variant {
      bool overlap;
      long blocking;
      int halo;
    };
    const Variant variants[] = {{false, 1, 1}, {true, 1, 1}, {false, 3, 3}, {false, 2, 3}};
    for (Strategy strategy : {Strategy::Mpi, Strategy::Weighted, Strategy::Hierarchical}) {
      for (const Variant& variant : variants) {
        GridSpec spec;
        spec.global_size = c.size;
        spec.periodic = c.periodic;
        spec.halo_width = {variant.halo, variant.halo, variant.halo};
        DecompositionOptions options;
        options.strategy = strategy;
        const Decomposition decomp(MPI_COMM_WORLD, spec, options);
        const Grid grid(decomp);
        s.overlap = variant.overlap;
        s.temporal_blocking = variant.blocking;
        Timers timers;
        jacobi::Solver solver(grid, s, timers);
        EXPECT_EQ(solver.iterations_per_pass(), variant.blocking);
        solver.iterate(iterations);
        const std::vector<double> field = test::gather_global(grid, solver.solution());
        if (world_rank() == 0) {
          ASSERT_EQ(field.size(), reference.size());
          long differ = 0;
          for (std::size_t p = 0; p < field.size(); ++p) {
            differ += std::memcmp(&field[p], &reference[p], sizeof(double)) != 0;
          }
          EXPECT_EQ(differ, 0) << to_string(strategy) << " overlap " << variant.overlap
                               << " iterations per pass " << variant.blocking << " dims "
                               << decomp.dims()[0] << "x" << decomp.dims()[1] << "x"
                               << decomp.dims()[2];
        }
      }
    }
  }
}

namespace {
struct SolverRun {
  std::vector<double> field;
  jacobi::Result result;
  long per_pass = 0;
};

// A run on `comm` of `iterations` iterations (or to convergence when 0), with
// `temporal_blocking` iterations per pass asked for.
SolverRun run_blocked(MPI_Comm comm, const GridSpec& spec, jacobi::Settings s,
                      long temporal_blocking, long iterations) {
  const Decomposition decomp(comm, spec);
  const Grid grid(decomp);
  s.temporal_blocking = temporal_blocking;
  Timers timers;
  jacobi::Solver solver(grid, s, timers);
  SolverRun r;
  r.result = iterations > 0 ? solver.iterate(iterations) : solver.run();
  r.per_pass = solver.iterations_per_pass();
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
      EXPECT_EQ(fused.per_pass, depth);
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
  // Automatic: fused on one host rank without neighbours (planes of 14 x 23 fit any cache);
  // with a periodic direction (a neighbour: itself) only as deep as the halo.
  jacobi::Settings s;
  EXPECT_GT(run_blocked(one, spec, s, 0, 1).per_pass, 1);
  GridSpec periodic = spec;
  periodic.periodic = {false, true, false};
  EXPECT_EQ(run_blocked(one, periodic, s, 0, 1).per_pass, 1);
  EXPECT_EQ(run_blocked(one, periodic, s, 4, 1).per_pass, 1);
  periodic.halo_width = {2, 2, 2};
  EXPECT_EQ(run_blocked(one, periodic, s, 4, 1).per_pass, 2);
  MPI_Comm_free(&one);
}

// With neighbours a pass needs halos as deep as its iterations: the depth is capped by the
// halo width, and overlap (an exchange behind every iteration) keeps one per pass.
TEST(Jacobi, TemporalBlockingAcrossRanksNeedsDeepHalos) {
  if (test::world_size() == 1) GTEST_SKIP() << "needs more than one rank";
  GridSpec spec;
  spec.global_size = {24, 24, 24};
  jacobi::Settings s;
  EXPECT_EQ(run_blocked(MPI_COMM_WORLD, spec, s, 4, 1).per_pass, 1);
  spec.halo_width = {3, 3, 3};
  EXPECT_EQ(run_blocked(MPI_COMM_WORLD, spec, s, 4, 1).per_pass, 3);
  EXPECT_EQ(run_blocked(MPI_COMM_WORLD, spec, s, 2, 1).per_pass, 2);
  s.overlap = true;
  EXPECT_EQ(run_blocked(MPI_COMM_WORLD, spec, s, 4, 1).per_pass, 1);
  // Blocks of different sizes (9, 8, 8 cells on 3 ranks) would choose different depths by
  // their share of redundant updates: all ranks use the smallest, and the field is the same.
  s.overlap = false;
  spec.global_size = {25, 24, 24};
  spec.halo_width = {4, 4, 4};
  const SolverRun automatic = run_blocked(MPI_COMM_WORLD, spec, s, 0, 13);
  long agreed[2] = {automatic.per_pass, -automatic.per_pass};
  MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(agreed[0], -agreed[1]) << "ranks chose different depths";
  spec.halo_width = {1, 1, 1};
  const SolverRun plain = run_blocked(MPI_COMM_WORLD, spec, s, 1, 13);
  if (world_rank() == 0) {
    ASSERT_EQ(automatic.field.size(), plain.field.size());
    EXPECT_EQ(std::memcmp(automatic.field.data(), plain.field.data(),
                          plain.field.size() * sizeof(double)),
              0);
  }
}

// The app's halo width: deep only where ranks have neighbours and blocking is wanted, and
// never deeper than the smallest block any decomposition can make.
TEST(Jacobi, HaloWidthFollowsTheTemporalBlocking) {
  GridSpec spec;
  spec.global_size = {64, 64, 64};
  jacobi::Settings s;
  EXPECT_EQ(jacobi::halo_width_for(s, spec, 1), 1); // no neighbours
  EXPECT_EQ(jacobi::halo_width_for(s, spec, 2), jacobi::kAutoHaloWidth);
  s.temporal_blocking = 6;
  EXPECT_EQ(jacobi::halo_width_for(s, spec, 2), 6);
  EXPECT_EQ(jacobi::halo_width_for(s, spec, 16), 4); // a block may have 64 / 16 cells
  spec.periodic = {false, false, true};
  EXPECT_EQ(jacobi::halo_width_for(s, spec, 1), 6); // a periodic self-neighbour
  s.overlap = true;
  EXPECT_EQ(jacobi::halo_width_for(s, spec, 2), 1);
  s.overlap = false;
  s.temporal_blocking = 1;
  EXPECT_EQ(jacobi::halo_width_for(s, spec, 2), 1);
}

namespace {
// Max |u - exact| / max |exact| over the owned cells, for exact = scale * continuum.
double poisson_error(const jacobi::Solver& solver, double scale) {
  const Grid& grid = solver.grid();
  const auto u = solver.solution();
  const auto off = grid.global_offset();
  const auto g = grid.global_size();
  const auto h = grid.halo_width();
  double err = 0, top = 0;
  Kokkos::parallel_reduce(
      grid.owned_policy(),
      KOKKOS_LAMBDA(int i, int j, int k, double& e) {
        const double exact =
            scale * jacobi::poisson_continuum(jacobi::coordinate(off[0] + i - h[0], g[0]),
                                              jacobi::coordinate(off[1] + j - h[1], g[1]),
                                              jacobi::coordinate(off[2] + k - h[2], g[2]));
        const double d = u(i, j, k) - exact;
        e = std::max(e, d < 0 ? -d : d);
      },
      Kokkos::Max<double>(err));
  Kokkos::parallel_reduce(
      grid.owned_policy(),
      KOKKOS_LAMBDA(int i, int j, int k, double& t) {
        const double exact =
            scale * jacobi::poisson_continuum(jacobi::coordinate(off[0] + i - h[0], g[0]),
                                              jacobi::coordinate(off[1] + j - h[1], g[1]),
                                              jacobi::coordinate(off[2] + k - h[2], g[2]));
        t = std::max(t, exact < 0 ? -exact : exact);
      },
      Kokkos::Max<double>(top));
  double values[2] = {err, top};
  MPI_Allreduce(MPI_IN_PLACE, values, 2, MPI_DOUBLE, MPI_MAX, grid.decomposition().comm());
  return values[0] / values[1];
}

double solve_poisson(std::int64_t n, bool against_discrete) {
  GridSpec spec;
  spec.global_size = {n, n, n};
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const Grid grid(decomp);
  jacobi::Settings s;
  s.problem = jacobi::Problem::Poisson;
  s.tolerance = 1e-14;
  s.max_iterations = 40000;
  s.check_every = 50;
  Timers timers;
  jacobi::Solver solver(grid, s, timers);
  const jacobi::Result r = solver.run();
  EXPECT_TRUE(r.converged) << "n = " << n << ": residual " << r.residual << " after "
                           << r.iterations;
  const double d = static_cast<double>(n);
  return poisson_error(solver, against_discrete ? jacobi::poisson_discrete_scale(d, d, d) : 1.0);
}
} // namespace

TEST(Jacobi, PoissonConvergesToTheExactDiscreteSolution) {
  const double error = solve_poisson(32, true);
  EXPECT_LT(error, 1e-10) << "relative error against u_h";
}

TEST(Jacobi, PoissonIsSecondOrderAccurate) {
  const double coarse = solve_poisson(16, false), fine = solve_poisson(32, false);
  // h = 1/17 and 1/33: second order predicts a ratio of (33/17)^2 = 3.77.
  const double ratio = coarse / fine;
  const double predicted = (33.0 / 17.0) * (33.0 / 17.0);
  EXPECT_NEAR(ratio, predicted, 0.05 * predicted) << "errors " << coarse << " and " << fine;
}

// 2k iterations in one run equal k iterations, a checkpoint, a restart on another rank
// count with another strategy, and k more: bitwise, with passes of 2 iterations over halos
// 2 deep that do not line up with the restart (23 iterations).
TEST(Jacobi, CheckpointRestartOnAnotherRankCountIsBitwiseExact) {
  int P = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const long k = 23;
  GridSpec spec;
  spec.global_size = {18, 21, 16};
  spec.periodic = {false, true, false};
  spec.halo_width = {2, 2, 2}; // 7 ranks may cut 18 cells into 7 blocks
  jacobi::Settings s;
  s.boundary_values = {1.0, 0.5, 0.0, 0.0, -1.0, 0.25};
  s.temporal_blocking = 2;
  std::vector<double> straight;
  {
    const Decomposition decomp(MPI_COMM_WORLD, spec);
    const Grid grid(decomp);
    Timers timers;
    jacobi::Solver solver(grid, s, timers);
    solver.iterate(2 * k);
    straight = test::gather_global(grid, solver.solution());
  }
  jacobi::Output out;
  out.directory =
      (std::filesystem::temp_directory_path() / ("hcart-restart-" + std::to_string(P))).string();
  std::string checkpoint;
  // The readers are a subset of the writers, so they know the checkpoint's path.
  const int writers = P, readers = P > 1 ? P - 1 : 1;
  if (MPI_Comm comm = first_ranks(writers); comm != MPI_COMM_NULL) {
    DecompositionOptions options;
    options.strategy = Strategy::Weighted;
    const Decomposition decomp(comm, spec, options);
    const Grid grid(decomp);
    Timers timers;
    jacobi::Solver solver(grid, s, timers, out);
    solver.iterate(k);
    checkpoint = solver.write_checkpoint(0.0);
    MPI_Comm_free(&comm);
  }
  if (MPI_Comm comm = first_ranks(readers); comm != MPI_COMM_NULL) {
    DecompositionOptions options;
    options.strategy = Strategy::Mpi;
    const Decomposition decomp(comm, spec, options);
    const Grid grid(decomp);
    Timers timers;
    jacobi::Output restart = out;
    restart.restart = checkpoint;
    jacobi::Solver solver(grid, s, timers, restart);
    EXPECT_EQ(solver.iteration(), k);
    solver.iterate(k);
    const std::vector<double> resumed = test::gather_global(grid, solver.solution());
    if (world_rank() == 0) {
      ASSERT_EQ(resumed.size(), straight.size());
      EXPECT_EQ(std::memcmp(resumed.data(), straight.data(), straight.size() * sizeof(double)), 0)
          << "written by " << writers << " ranks, resumed by " << readers;
    }
    MPI_Comm_free(&comm);
  }
}
