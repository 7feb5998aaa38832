// Jacobi3D's solver: the field after k iterations is bitwise the same for every rank count,
// strategy, overlap setting and number of iterations per pass, and equals a serial
// reference written with plain loops; the Poisson problem converges to its exact discrete
// solution with second order in h; checkpoints restart bitwise on other rank counts; a
// solution that stops being finite, a broken checkpoint and a halo too shallow for the
// passes are errors on every rank. (The passes: JacobiPassesTest.cpp; the kernels:
// JacobiKernelsTest.cpp.)
#include "JacobiSolver.hpp"

#include "GatherField.hpp"
#include "Passes.hpp"
#include "PointUpdates.hpp"
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/io/FieldFile.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

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
    // 3 deep (exchanges narrower than the halo). A device runs one iteration per pass.
    struct Variant {
      bool overlap;
      long per_pass;
      int halo;
    };
    const Variant variants[] = {{false, 1, 1}, {true, 1, 1}, {false, 3, 3}, {false, 2, 3}};
    // The strategies, and on 6 ranks the default on 3 nodes of 2, whose plans here are node
    // regions (boxes of different shapes): a permutation of the ranks that is not a grid.
    std::vector<std::pair<Strategy, std::string>> runs = {{Strategy::Mpi, ""},
                                                          {Strategy::Weighted, ""},
                                                          {Strategy::Levelwise, ""},
                                                          {Strategy::Hierarchical, ""}};
    if (test::world_size() == 6) runs.emplace_back(Strategy::Hierarchical, "node:3 core:2");
    for (const auto& [strategy, machine] : runs) {
      for (const Variant& variant : variants) {
        GridSpec spec;
        spec.global_size = c.size;
        spec.periodic = c.periodic;
        DecompositionOptions options;
        options.strategy = strategy;
        options.machine = machine;
        options.traffic.corners = true;
        const Decomposition decomp(MPI_COMM_WORLD, spec, options);
        if (!machine.empty() && c.size[0] != 16) {
          EXPECT_EQ(decomp.plan().layout, hcart::PlanLayout::NodeRegions)
              << decomp.plan().describe_layout();
        }
        const Grid grid(decomp, {variant.halo, variant.halo, variant.halo});
        s.overlap = variant.overlap;
        Timers timers;
        jacobi::Solver solver(grid, s, host_execution ? variant.per_pass : 1, timers);
        solver.iterate(iterations);
        const std::vector<double> field = test::gather_global(grid, solver.solution());
        if (world_rank() == 0) {
          ASSERT_EQ(field.size(), reference.size());
          long differ = 0;
          for (std::size_t p = 0; p < field.size(); ++p) {
            differ += std::memcmp(&field[p], &reference[p], sizeof(double)) != 0;
          }
          EXPECT_EQ(differ, 0) << to_string(strategy) << " overlap " << variant.overlap
                               << " iterations per pass " << variant.per_pass << " dims "
                               << decomp.dims()[0] << "x" << decomp.dims()[1] << "x"
                               << decomp.dims()[2];
        }
      }
    }
  }
}

TEST(Jacobi, ASolverRefusesAHaloShallowerThanItsPasses) {
  GridSpec spec;
  spec.global_size = {24, 24, 24};
  spec.periodic = {true, false, false}; // a neighbour on every rank count
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const Grid grid(decomp, {2, 2, 2});
  jacobi::Settings s;
  Timers timers;
  try {
    jacobi::Solver solver(grid, s, 3, timers);
    FAIL() << "3 iterations per pass over halos 2 deep were accepted";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    const std::string expected = host_execution ? "3 iterations per pass need halos as deep"
                                                : "the wavefront runs on the host";
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
  if (host_execution) {
    EXPECT_NO_THROW(jacobi::Solver(grid, s, 2, timers));
  }
}

// The app's plan (jacobi::plan_passes, after one decomposition): iterations per pass by the
// policy, agreed by all ranks; halos as deep as them where ranks cut or wrap a direction,
// one layer elsewhere (4 in an uncut k, for aligned rows) and without neighbours, overlap or
// blocking.
namespace {
// |u - scale * continuum| and |scale * continuum| at a cell: their maxima over the owned
// cells give the relative error.
struct PoissonError {
  Field<double> u;
  double scale;
  Kokkos::Array<long long, 3> first, size; // global index of local index 0; unknowns
  bool of_exact;                           // the size of the exact solution instead
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& worst) const {
    const double exact =
        scale * jacobi::poisson_continuum(jacobi::coordinate(first[0] + i, size[0]),
                                          jacobi::coordinate(first[1] + j, size[1]),
                                          jacobi::coordinate(first[2] + k, size[2]));
    const double d = of_exact ? exact : u(i, j, k) - exact;
    worst = worst > (d < 0 ? -d : d) ? worst : (d < 0 ? -d : d);
  }
};

// Max |u - exact| / max |exact| over the owned cells, for exact = scale * continuum.
double poisson_error(const jacobi::Solver& solver, double scale) {
  const Grid& grid = solver.grid();
  PoissonError kernel{solver.solution(), scale, {}, {}, false};
  for (int d = 0; d < 3; ++d) {
    kernel.first[d] = grid.global_index(d, 0);
    kernel.size[d] = grid.global_size()[d];
  }
  double values[2] = {0, 0};
  reduce_cells("error", grid.owned_box(), kernel, Kokkos::Max<double>(values[0]));
  kernel.of_exact = true;
  reduce_cells("exact", grid.owned_box(), kernel, Kokkos::Max<double>(values[1]));
  MPI_Allreduce(MPI_IN_PLACE, values, 2, MPI_DOUBLE, MPI_MAX, grid.decomposition().comm());
  return values[0] / values[1];
}

// Convergence is a property of the numerics, not of the decomposition (the bitwise test
// above covers every rank count), so at most 2 ranks solve: thousands of exchanges of a 32^3
// mesh on 8 oversubscribed ranks took 145 s per test under MPICH, whose ranks poll while
// they wait. The error reaches every rank.
double solve_poisson(std::int64_t n, bool against_discrete) {
  double error = 0.0;
  test::on_first_ranks(2, [&](MPI_Comm comm) {
    GridSpec spec;
    spec.global_size = {n, n, n};
    jacobi::Settings s;
    s.problem = jacobi::Problem::Poisson;
    s.tolerance = 1e-14;
    s.max_iterations = 40000;
    s.check_every = 50;
    const Decomposition decomp(comm, spec);
    const jacobi::Passes passes = jacobi::plan_passes(s, decomp);
    const Grid grid(decomp, passes.halo_width);
    Timers timers;
    jacobi::Solver solver(grid, s, passes.iterations_per_pass, timers);
    const jacobi::Result r = solver.run();
    EXPECT_TRUE(r.converged) << "n = " << n << ": residual " << r.residual << " after "
                             << r.iterations;
    const double d = static_cast<double>(n);
    error = poisson_error(solver, against_discrete ? jacobi::poisson_discrete_scale(d, d, d) : 1.0);
  });
  MPI_Bcast(&error, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return error;
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
  const long per_pass = host_execution ? 2 : 1; // a device has no wavefront
  std::vector<double> straight;
  {
    const Decomposition decomp(MPI_COMM_WORLD, spec);
    const Grid grid(decomp);
    Timers timers;
    jacobi::Solver solver(grid, s, per_pass, timers);
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
    jacobi::Solver solver(grid, s, per_pass, timers, out);
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
    jacobi::Solver solver(grid, s, per_pass, timers, restart);
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

// A solution that stops being finite is an error on every rank, never "converged": with
// boundary values of 1e308 the first update overflows (and then inf - inf is NaN, which a
// max reduction would drop).
TEST(Jacobi, ANonFiniteSolutionStopsTheRunOnEveryRank) {
  GridSpec spec;
  spec.global_size = {12, 10, 8};
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const Grid grid(decomp);
  jacobi::Settings s;
  s.boundary_values = {1e308, 1e308, 1e308, 1e308, 1e308, 1e308};
  s.check_every = 5;
  s.max_iterations = 40;
  s.tolerance = 1e-3;
  Timers timers;
  jacobi::Solver solver(grid, s, 1, timers);
  try {
    solver.run();
    FAIL() << "a run with overflowing values ended normally";
  } catch (const hcart::InputError&) {
    FAIL() << "a numerical failure is not an input error";
  } catch (const hcart::Error& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("no longer finite at iteration 5"), std::string::npos)
        << e.what();
  }
}

namespace {
// A Jacobi3D checkpoint of `grid` whose field holds `value` everywhere, at `iteration`.
std::string checkpoint_with(const Grid& grid, double value, long iteration,
                            const std::string& directory) {
  auto u = grid.make_field<double>("u");
  Kokkos::deep_copy(u, value);
  FileMetadata meta;
  meta.application = "jacobi3d";
  meta.kind = "checkpoint";
  meta.step = iteration;
  meta.time = static_cast<double>(iteration);
  const std::string path = directory + "/checkpoint.h5";
  write_fields(path, grid, {{"u", u}}, meta);
  return path;
}
} // namespace

// A checkpoint holding NaN, and one already at max_iterations, are input errors before the
// first iteration.
TEST(Jacobi, ARestartFromABrokenOrFinishedCheckpointIsRefused) {
  GridSpec spec;
  spec.global_size = {12, 10, 8};
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const Grid grid(decomp);
  const std::string directory = (std::filesystem::temp_directory_path() /
                                 ("hcart-bad-restart-" + std::to_string(test::world_size())))
                                    .string();
  jacobi::Settings s;
  s.max_iterations = 20;
  Timers timers;
  jacobi::Output out;
  out.restart = checkpoint_with(grid, std::nan(""), 3, directory);
  try {
    jacobi::Solver solver(grid, s, 1, timers, out);
    FAIL() << "a checkpoint holding NaN was accepted";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("that are NaN or infinite"), std::string::npos)
        << e.what();
  }
  out.restart = checkpoint_with(grid, 0.5, 30, directory);
  try {
    jacobi::Solver solver(grid, s, 1, timers, out);
    FAIL() << "a checkpoint beyond max_iterations was accepted";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("the checkpoint is at iteration 30 already"),
              std::string::npos)
        << e.what();
  }
  s.max_iterations = 31;
  jacobi::Solver resumed(grid, s, 1, timers, out);
  EXPECT_EQ(resumed.run().iterations, 1);
}

// A restart names the settings that differ from its checkpoint's run, except the output,
// the decomposition and the keys that do not change the mathematics (apps/common/AppDeck).
TEST(Jacobi, ARestartNamesTheSettingsThatDifferFromItsCheckpoint) {
  const std::string checkpoint =
      "[mesh]\nsize = [8, 8, 8]\n\n[decomposition]\nstrategy = \"mpi\"\n\n"
      "[jacobi]\nmax_iterations = 10\nboundary_values = [1.0, 0.0]\n"
      "\n[output]\ndirectory = \"a\"\n";
  const std::string now = "[mesh]\nsize = [8, 8, 8]\n\n[decomposition]\nstrategy = \"weighted\"\n\n"
                          "[jacobi]\nmax_iterations = 20\nboundary_values = [2.0, 0.0]\n"
                          "problem = \"laplace\"\n\n[output]\ndirectory = \"b\"\n";
  const auto lines = hcart::apps::restart_differences(checkpoint, now, {"jacobi.max_iterations"});
  ASSERT_EQ(lines.size(), 1u) << "only boundary_values (problem: a key the checkpoint lacks)";
  EXPECT_EQ(lines[0],
            "[jacobi] boundary_values = [2.0, 0.0] here, [1.0, 0.0] in the checkpoint's run");
  EXPECT_TRUE(hcart::apps::restart_differences(now, now, {}).empty());
}
