// Jacobi3D: the field after k iterations is bitwise the same for every rank count,
// strategy and overlap setting, and equals a serial reference written with plain loops;
// the Poisson problem converges to its exact discrete solution with second order in h.
#include "GatherField.hpp"
#include "JacobiSolver.hpp"
#include "Passes.hpp"
#include "PointUpdates.hpp"
#include "PoissonRhs.hpp"
#include "Relax.hpp"
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/io/FieldFile.hpp>

#include <gtest/gtest.h>

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
    for (Strategy strategy : {Strategy::Mpi, Strategy::Weighted, Strategy::Hierarchical}) {
      for (const Variant& variant : variants) {
        GridSpec spec;
        spec.global_size = c.size;
        spec.periodic = c.periodic;
        DecompositionOptions options;
        options.strategy = strategy;
        const Decomposition decomp(MPI_COMM_WORLD, spec, options);
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

namespace {
// Bitwise equality of two doubles (NaN-safe, -0 and +0 apart).
bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}
} // namespace

// The Poisson right-hand side is the host's bits on every backend: the tables hold the
// host's sin(pi x) for every local index, and the kernel only multiplies table entries
// (tables of arbitrary values show in the field exactly, which a kernel calling its own sin
// could not do).
TEST(Jacobi, PoissonRightHandSideIsTheHostsBitsOnEveryBackend) {
  GridSpec spec;
  spec.global_size = {13, 11, 9};
  spec.halo_width = {2, 1, 3};
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const Grid grid(decomp);
  std::array<jacobi::SineTable, 3> tables;
  long wrong = 0;
  for (int d = 0; d < 3; ++d) {
    tables[d] = jacobi::sine_table(grid, d);
    const auto host = hcart::host_copy(tables[d]);
    ASSERT_EQ(host.extent(0), static_cast<std::size_t>(grid.extent()[d]));
    for (int i = 0; i < grid.extent()[d]; ++i) {
      const double x = jacobi::coordinate(grid.global_index(d, i), spec.global_size[d]);
      wrong += !same_bits(host(i), std::sin(jacobi::kPi * x));
    }
  }
  EXPECT_EQ(wrong, 0) << "table entries that are not the host's sin(pi x)";
  // Arbitrary table values: 1 + i / 7 + d / 3 (not sines of anything).
  for (int d = 0; d < 3; ++d) {
    const auto host = hcart::host_mirror(tables[d]);
    for (int i = 0; i < grid.extent()[d]; ++i)
      host(i) = 1.0 + i / 7.0 + d / 3.0;
    Kokkos::deep_copy(tables[d], host);
  }
  const Field<double> f = grid.make_field<double>("f");
  jacobi::fill_poisson_rhs(f, grid.with_halo_box(), tables[0], tables[1], tables[2]);
  const auto hf = hcart::host_copy(f);
  auto entry = [](int d, int i) { return 1.0 + i / 7.0 + d / 3.0; };
  wrong = 0;
  for (int i = 0; i < grid.extent()[0]; ++i)
    for (int j = 0; j < grid.extent()[1]; ++j)
      for (int k = 0; k < grid.extent()[2]; ++k)
        wrong += !same_bits(hf(i, j, k),
                            jacobi::poisson_rhs_of_sines(entry(0, i), entry(1, j), entry(2, k)));
  EXPECT_EQ(wrong, 0) << "cells that are not the product of their table entries";
}

namespace {
// u and rhs, halos included, from xorshift64: values with all bits of the mantissa in use.
void fill_random(const Field<double>& u, const Field<double>& rhs) {
  auto hu = hcart::host_mirror(u), hf = hcart::host_mirror(rhs);
  unsigned long long x = 88172645463325252ULL + static_cast<unsigned long long>(world_rank());
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return static_cast<double>(x % 1000003) / 997.0 - 500.0;
  };
  for (std::size_t c = 0; c < hu.size(); ++c) {
    hu.data()[c] = next();
    hf.data()[c] = next();
  }
  Kokkos::deep_copy(u, hu);
  Kokkos::deep_copy(rhs, hf);
}
} // namespace

namespace {
GridSpec relax_spec() {
  GridSpec spec;
  spec.global_size = {13, 17, 19};
  return spec;
}

// Both loop patterns of jacobi::relax on one grid, u and rhs random (host builds only: the
// row pattern exists there alone).
class RelaxPatterns : public ::testing::Test {
protected:
  struct Both {
    Field<double> rows, cells; // what each pattern wrote
    double rows_residual, cells_residual;
  };

  void SetUp() override {
    if (!host_execution) GTEST_SKIP() << "the host row pattern exists in host builds only";
    fill_random(u, rhs);
  }
  Both relax_both(const Box& box, bool poisson, bool check) const {
    Both r{grid.make_field<double>("rows"), grid.make_field<double>("cells"), 0.0, 0.0};
    r.rows_residual =
        jacobi::relax(LoopPattern::HostRows, {u, r.rows, rhs, poisson}, box, stencil, check);
    r.cells_residual =
        jacobi::relax(LoopPattern::Portable, {u, r.cells, rhs, poisson}, box, stencil, check);
    return r;
  }

  const Decomposition decomp{MPI_COMM_WORLD, relax_spec()};
  const Grid grid{decomp};
  const Field<double> u = grid.make_field<double>("u"), rhs = grid.make_field<double>("rhs");
  const jacobi::Stencil stencil = jacobi::make_stencil(13, 17, 19);
};
} // namespace

// The host row loop (LoopPattern::HostRows) and the portable kernel (what a device runs)
// write the same bits and find the same residual, on whole blocks and odd boxes, Laplace
// and Poisson.
TEST_F(RelaxPatterns, AgreeBitwise) {
  Box odd = grid.owned_box();
  odd.lo[0] += 1;
  odd.hi[2] -= 2;
  for (const Box& box : {grid.owned_box(), odd}) {
    for (bool poisson : {false, true}) {
      for (bool check : {false, true}) {
        const Both r = relax_both(box, poisson, check);
        const auto hr = hcart::host_copy(r.rows);
        const auto hc = hcart::host_copy(r.cells);
        EXPECT_EQ(std::memcmp(hr.data(), hc.data(), hr.size() * sizeof(double)), 0)
            << "poisson " << poisson << " check " << check;
        const double a = r.rows_residual, b = r.cells_residual;
        EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << a << " vs " << b;
        if (check) {
          EXPECT_GT(a, 0.0);
        }
        // Both wrote the box and nothing else.
        long written = 0;
        for (std::size_t c = 0; c < hr.size(); ++c)
          written += hr.data()[c] != 0.0;
        EXPECT_EQ(written, box.cells());
      }
    }
  }
}

// A change that is not finite (a NaN of either sign, or an infinity, in one cell of u) makes
// the residual +infinity in both patterns: the row loop's max over bit patterns must not
// drop a NaN whose sign bit is set, nor rank it below a finite change.
TEST_F(RelaxPatterns, ReportANonFiniteChangeAsInfinite) {
  const Box owned = grid.owned_box();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const double bad : {nan, -nan, inf, -inf}) {
    fill_random(u, rhs);
    // One cell near the middle of this rank's block (every rank holds one).
    auto hu = hcart::host_copy(u);
    hu((owned.lo[0] + owned.hi[0]) / 2, (owned.lo[1] + owned.hi[1]) / 2,
       (owned.lo[2] + owned.hi[2]) / 2) = bad;
    Kokkos::deep_copy(u, hu);
    for (bool poisson : {false, true}) {
      const Both r = relax_both(owned, poisson, true);
      EXPECT_EQ(r.rows_residual, inf) << "host rows, u holds " << bad << ", poisson " << poisson;
      EXPECT_EQ(r.cells_residual, inf) << "portable, u holds " << bad << ", poisson " << poisson;
    }
  }
}

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
  // Automatic: fused on one host rank without neighbours (planes of 14 x 23 fit any cache),
  // whatever the number of threads, and with a periodic direction (a neighbour: itself)
  // over a halo as deep in that direction; the field as with one iteration per pass. A
  // device build has no wavefront: one per pass.
  jacobi::Settings s;
  s.boundary_values = {1.0, 0.25, -0.5, 0.75, 2.0, 0.125};
  const SolverRun alone = run_blocked(one, spec, s, 0, 19);
  EXPECT_EQ(alone.halo_width, (std::array<int, 3>{1, 1, 1})) << "no neighbour: one layer";
  GridSpec periodic = spec;
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
TEST(Jacobi, TheHaloFollowsTheIterationsPerPass) {
  const int P = test::world_size();
  GridSpec spec;
  spec.global_size = {64, 64, 64};
  jacobi::Settings s;
  const bool neighbours = P > 1;
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  jacobi::Passes p = jacobi::plan_passes(s, decomp);
  // Automatic across ranks: up to 4, fewer where the blocks are thin (64 / 3 cells: 3).
  if (host_execution && neighbours) {
    EXPECT_GE(p.iterations_per_pass, 2);
    EXPECT_LE(p.iterations_per_pass, jacobi::kAutoIterationsWithNeighbours);
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
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, alone, true), jacobi::kMaxWavefrontIterations);
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, alone, false), 1) << "no wavefront";
  alone.local_size = {64, 2048, 2048}; // 32 MiB planes: no room for a pass in 16 MiB
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, alone, true), 1);
  Block cut = test_block({64, 64, 64}, {true, false, false});
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, cut, true),
            jacobi::kAutoIterationsWithNeighbours);
  cut.local_size = {8, 64, 64}; // 4 per pass would redo 4 * 3 / 2 / 8 = 37% more updates
  const long n = jacobi::choose_iterations_per_pass(s, cut, true);
  EXPECT_LE(jacobi::redundant_share(cut, n), 0.1);
  EXPECT_GT(jacobi::redundant_share(cut, n + 1), 0.1);
  s.iterations_per_pass = 64;
  cut.local_size = {3, 64, 64};
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, cut, true), 3) << "capped by the block";
  s.overlap = true;
  EXPECT_EQ(jacobi::choose_iterations_per_pass(s, cut, true), 1);
}

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

double solve_poisson(std::int64_t n, bool against_discrete) {
  GridSpec spec;
  spec.global_size = {n, n, n};
  jacobi::Settings s;
  s.problem = jacobi::Problem::Poisson;
  s.tolerance = 1e-14;
  s.max_iterations = 40000;
  s.check_every = 50;
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const jacobi::Passes passes = jacobi::plan_passes(s, decomp);
  const Grid grid(decomp, passes.halo_width);
  Timers timers;
  jacobi::Solver solver(grid, s, passes.iterations_per_pass, timers);
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
