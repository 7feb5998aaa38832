// Jacobi3D's multigrid solver (apps/jacobi3d/Multigrid.hpp): the same bits on every rank
// count, strategy and agglomeration rule, against a one-rank run; convergence within 15
// cycles to the exact discrete solution; second order against the continuum; a restart on
// another rank count bitwise; the Laplace problem's solution the Jacobi solver's.
#include "GatherField.hpp"
#include "WorldRanks.hpp"

#include "JacobiSolver.hpp"
#include "Multigrid.hpp"
#include "Passes.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/GridHierarchy.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

using namespace hcart;
using hcart::test::first_ranks;
using hcart::test::world_rank;
using hcart::test::world_size;

namespace {

GridSpec cube(std::int64_t n) {
  GridSpec s;
  s.global_size = {n, n, n};
  return s;
}

jacobi::Settings multigrid_settings(jacobi::Problem problem) {
  jacobi::Settings s;
  s.problem = problem;
  s.solver = jacobi::Settings::Method::Multigrid;
  s.max_iterations = 15;
  s.tolerance = 1e-10;
  s.progress_seconds = 0;
  s.boundary_values = {1.0, 0.5, 0.0, 0.0, -1.0, 0.25};
  return s;
}

struct Solved {
  std::vector<double> field; // on rank 0 of the run's communicator
  jacobi::Result result;
};

// A multigrid solve on `comm` (all its ranks): the final field gathered.
Solved solve(MPI_Comm comm, const GridSpec& spec, const jacobi::Settings& s,
             DecompositionOptions options = {}) {
  const HierarchyOptions h = jacobi::hierarchy_options(s.multigrid);
  const Decomposition decomp(comm, nested_spec(spec, h), options);
  const GridHierarchy levels(decomp, h);
  Timers timers;
  jacobi::Multigrid mg(levels, s, timers);
  Solved out;
  out.result = mg.run();
  out.field = test::gather_global(levels.grid(0), mg.solution());
  return out;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

} // namespace

// The deck's shape on a smaller mesh: 31^3 (levels 31, 15, 7, 3, 1; the 7^3 level
// and below on one rank, so the blocks nest down to it: 8 units of 4 points a direction),
// every strategy and agglomeration rule, against the solve of one rank.
TEST(Multigrid, BitwiseOnEveryRankCountStrategyAndAgglomeration) {
  for (const jacobi::Problem problem : {jacobi::Problem::Poisson, jacobi::Problem::Laplace}) {
    jacobi::Settings s = multigrid_settings(problem);
    std::vector<double> reference;
    long cycles = 0;
    if (MPI_Comm one = first_ranks(1); one != MPI_COMM_NULL) {
      const Solved r = solve(one, cube(31), s);
      reference = r.field;
      cycles = r.result.iterations;
      EXPECT_TRUE(r.result.converged) << "residual " << r.result.residual;
      EXPECT_LE(r.result.iterations, 15);
      MPI_Comm_free(&one);
    }
    for (const auto rule : {jacobi::MultigridSettings::Agglomeration::Machine,
                            jacobi::MultigridSettings::Agglomeration::Stride,
                            jacobi::MultigridSettings::Agglomeration::None}) {
      s.multigrid.agglomeration = rule;
      for (const Strategy strategy : {Strategy::Hierarchical, Strategy::Weighted, Strategy::Mpi}) {
        DecompositionOptions o;
        o.strategy = strategy;
        o.machine = world_size() % 2 == 0 ? "node:2 core:" + std::to_string(world_size() / 2) : "";
        o.placement = Placement::RoundRobin;
        try {
          const Solved r = solve(MPI_COMM_WORLD, cube(31), s, o);
          if (world_rank() == 0) {
            EXPECT_TRUE(same_bits(r.field, reference))
                << world_size() << " ranks, " << to_string(strategy) << ", rule "
                << static_cast<int>(rule);
            EXPECT_EQ(r.result.iterations, cycles);
          }
        } catch (const InputError& e) {
          // Without agglomeration every level must nest across the ranks: 31 points in 5
          // levels only on one (a message naming the sizes, on every rank).
          EXPECT_EQ(rule, jacobi::MultigridSettings::Agglomeration::None) << e.what();
          EXPECT_TRUE(e.collective());
        }
      }
    }
  }
}

namespace {

// Max |u - scale * continuum| / max |scale * continuum| over the owned points.
double error_of(const std::vector<double>& field, std::int64_t n, double scale) {
  double worst = 0, size = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t k = 0; k < n; ++k) {
        const double exact = scale * jacobi::poisson_continuum(jacobi::coordinate(i, n),
                                                               jacobi::coordinate(j, n),
                                                               jacobi::coordinate(k, n));
        worst = std::max(worst, std::fabs(field[static_cast<std::size_t>((i * n + j) * n + k)] - exact));
        size = std::max(size, std::fabs(exact));
      }
  return worst / size;
}

// The Poisson solve on at most 2 ranks, its error (rank 0's, to every rank).
double poisson_error(std::int64_t n, bool against_discrete) {
  double error = 0;
  test::on_first_ranks(2, [&](MPI_Comm comm) {
    const Solved r = solve(comm, cube(n), multigrid_settings(jacobi::Problem::Poisson));
    EXPECT_TRUE(r.result.converged);
    EXPECT_LE(r.result.iterations, 15);
    if (world_rank() == 0) {
      const double d = static_cast<double>(n);
      error = error_of(r.field, n, against_discrete ? jacobi::poisson_discrete_scale(d, d, d) : 1.0);
    }
  });
  MPI_Bcast(&error, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return error;
}

} // namespace

TEST(Multigrid, PoissonConvergesToTheExactDiscreteSolution) {
  EXPECT_LT(poisson_error(31, true), 1e-9) << "relative error against u_h";
}

TEST(Multigrid, PoissonIsSecondOrderAccurate) {
  const double coarse = poisson_error(15, false), fine = poisson_error(31, false);
  const double predicted = (32.0 / 16.0) * (32.0 / 16.0); // h = 1/16 and 1/32
  EXPECT_NEAR(coarse / fine, predicted, 0.05 * predicted) << "errors " << coarse << " and " << fine;
}

// The Laplace problem: the multigrid's solution is the Jacobi solver's converged one (the
// same discrete problem; both to a tight tolerance).
TEST(Multigrid, LaplaceAgreesWithTheJacobiSolver) {
  test::on_first_ranks(2, [&](MPI_Comm comm) {
    jacobi::Settings s = multigrid_settings(jacobi::Problem::Laplace);
    s.tolerance = 1e-12;
    s.max_iterations = 30;
    const Solved mg = solve(comm, cube(15), s);
    jacobi::Settings js;
    js.boundary_values = s.boundary_values;
    js.tolerance = 1e-15;
    js.max_iterations = 20000;
    js.check_every = 50;
    const Decomposition decomp(comm, cube(15));
    const jacobi::Passes passes = jacobi::plan_passes(js, decomp);
    const Grid grid(decomp, passes.halo_width);
    Timers timers;
    jacobi::Solver solver(grid, js, passes.iterations_per_pass, timers);
    EXPECT_TRUE(solver.run().converged);
    const std::vector<double> jf = test::gather_global(grid, solver.solution());
    if (world_rank() == 0) {
      double worst = 0;
      for (std::size_t c = 0; c < jf.size(); ++c)
        worst = std::max(worst, std::fabs(jf[c] - mg.field[c]));
      EXPECT_LT(worst, 1e-9);
    }
  });
}

// 10 cycles in one run equal 4, a checkpoint, and 6 more on another rank count and strategy:
// bitwise, the cycle count and the tolerance's reference carried over.
TEST(Multigrid, RestartOnAnotherRankCountIsBitwiseExact) {
  const int P = world_size();
  jacobi::Settings s = multigrid_settings(jacobi::Problem::Poisson);
  s.tolerance = 0; // a fixed count
  s.max_iterations = 10;
  const Solved straight = solve(MPI_COMM_WORLD, cube(31), s);
  jacobi::Output out;
  out.directory =
      (std::filesystem::temp_directory_path() / ("hcart-mg-restart-" + std::to_string(P))).string();
  std::filesystem::create_directories(out.directory);
  std::string checkpoint;
  const int readers = P > 1 ? P - 1 : 1;
  {
    const HierarchyOptions h = jacobi::hierarchy_options(s.multigrid);
    DecompositionOptions o;
    o.strategy = Strategy::Weighted;
    const Decomposition decomp(MPI_COMM_WORLD, nested_spec(cube(31), h), o);
    const GridHierarchy levels(decomp, h);
    Timers timers;
    jacobi::Multigrid mg(levels, s, timers, out);
    mg.cycles(4);
    checkpoint = mg.write_checkpoint(0.0);
  }
  if (MPI_Comm comm = first_ranks(readers); comm != MPI_COMM_NULL) {
    jacobi::Output restart = out;
    restart.restart = checkpoint;
    const HierarchyOptions h = jacobi::hierarchy_options(s.multigrid);
    DecompositionOptions o;
    o.strategy = Strategy::Mpi;
    const Decomposition decomp(comm, nested_spec(cube(31), h), o);
    const GridHierarchy levels(decomp, h);
    Timers timers;
    jacobi::Multigrid mg(levels, s, timers, restart);
    EXPECT_EQ(mg.cycle(), 4);
    const jacobi::Result r = mg.run();
    EXPECT_EQ(r.iterations, 6);
    const std::vector<double> resumed = test::gather_global(levels.grid(0), mg.solution());
    if (world_rank() == 0) {
      EXPECT_TRUE(same_bits(resumed, straight.field))
          << "written by " << P << " ranks, resumed by " << readers;
    }
    MPI_Comm_free(&comm);
  }
}

// A mesh whose levels do not halve: an InputError on every rank naming the direction.
TEST(Multigrid, AMeshThatDoesNotHalveIsAnErrorOnEveryRank) {
  jacobi::Settings s = multigrid_settings(jacobi::Problem::Poisson);
  s.multigrid.levels = 4;
  try {
    (void)solve(MPI_COMM_WORLD, cube(30), s);
    ADD_FAILURE() << "4 vertex-centred levels of 30 points accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("direction 0 has 30 cells"), std::string::npos) << e.what();
  }
}
