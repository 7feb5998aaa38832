// hcart's multigrid against hypre's structured multigrid on the same Poisson problem and ranks
// (issue target in docs/benchmarks.md, "Multigrid"). hypre is an optional, benchmark-only
// dependency (Debian's libhypre-dev, which petsc-dev brings too); run on 1 or 2 ranks:
//   hcart-mpiexec -n P build/bin/hcart-bench-hypre [--size 127] [--repeats 3] [--full-multigrid 2]
// The problem: Jacobi3D's manufactured Poisson problem (its poisson deck), n^3 unknowns at the
// interior vertices of the unit cube, zero Dirichlet boundaries, h = 1 / (n + 1).
//   hcart: Jacobi3D's multigrid (V(2,2), red-black Gauss-Seidel, every level down to one
//     point; by default started by full multigrid, two cycles a level: its fastest way to
//     this tolerance, 8 cycles of level 0 where V-cycles from zero take 12) to max |f - A u|
//     <= 1e-10 of its first value;
//   hypre: PCG preconditioned by one V(1,1) of PFMG, in the configuration hypre's fastest on
//     this problem (red-black Gauss-Seidel, non-Galerkin coarse operators, skipped relaxation
//     in the directions already coarsened: hypre's ex3 and the struct driver's -rap 1 -relax 2
//     -skip 1) to ||r||_2 <= 1e-10 ||b||_2;
// the two in turn, each repeat; the slowest rank's time. hypre's is its setup and its solve
// (what a code calling it pays once per operator, and per right-hand side), hcart's the
// solver's set-up (fields, exchangers, the first residual) and its cycles. Each answer is
// checked against the other: the largest difference of the two solutions against the
// largest value.
#include "BenchTiming.hpp"
#include "Multigrid.hpp"
#include "PoissonMultigrid.hpp"
#include "PoissonRhs.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/hcart.hpp>

#include <CLI/CLI.hpp>

#include <HYPRE_struct_ls.h>
#include <HYPRE_utilities.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;

#define HYPRE_OK(call)                                                                             \
  do {                                                                                             \
    if ((call) != 0) throw hcart::Error(std::string("hypre call failed: ") + #call);               \
  } while (false)

// This rank's block as hypre's box: hypre's index (k, j, i) is hcart's (i, j, k), so that the
// first index, hypre's fastest, is hcart's k.
struct HypreBox {
  HYPRE_Int lower[3], upper[3];
  std::array<std::int64_t, 3> offset, size, global;
  std::size_t values() const { return static_cast<std::size_t>(size[0] * size[1] * size[2]); }
};

HypreBox box_of(const hcart::Grid& grid) {
  HypreBox b{};
  b.offset = grid.global_offset();
  b.global = grid.global_size();
  const auto n = grid.local_size();
  for (int d = 0; d < 3; ++d)
    b.size[d] = n[d];
  for (int d = 0; d < 3; ++d) {
    b.lower[2 - d] = static_cast<HYPRE_Int>(b.offset[d]);
    b.upper[2 - d] = static_cast<HYPRE_Int>(b.offset[d] + b.size[d] - 1);
  }
  return b;
}

// A x = b of the h^2-scaled 7-point Laplacian (diagonal 6, neighbours -1; the coefficients
// towards the boundary zero), b = -f h^2 at the interior vertices.
struct HypreProblem {
  HYPRE_StructGrid grid = nullptr;
  HYPRE_StructStencil stencil = nullptr;
  HYPRE_StructMatrix A = nullptr;
  HYPRE_StructVector b = nullptr, x = nullptr;

  explicit HypreProblem(const HypreBox& box) {
    HYPRE_OK(HYPRE_StructGridCreate(MPI_COMM_WORLD, 3, &grid));
    HYPRE_OK(HYPRE_StructGridSetExtents(grid, const_cast<HYPRE_Int*>(box.lower),
                                        const_cast<HYPRE_Int*>(box.upper)));
    HYPRE_OK(HYPRE_StructGridAssemble(grid));
    HYPRE_Int offsets[7][3] = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0},
                               {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    HYPRE_OK(HYPRE_StructStencilCreate(3, 7, &stencil));
    for (HYPRE_Int e = 0; e < 7; ++e)
      HYPRE_OK(HYPRE_StructStencilSetElement(stencil, e, offsets[e]));
    HYPRE_OK(HYPRE_StructMatrixCreate(MPI_COMM_WORLD, grid, stencil, &A));
    HYPRE_OK(HYPRE_StructMatrixInitialize(A));
    const std::size_t m = box.values();
    std::vector<double> values(7 * m);
    for (std::size_t p = 0; p < m; ++p) {
      values[7 * p] = 6.0;
      for (int e = 1; e < 7; ++e)
        values[7 * p + static_cast<std::size_t>(e)] = -1.0;
    }
    HYPRE_Int entries[7] = {0, 1, 2, 3, 4, 5, 6};
    HYPRE_OK(HYPRE_StructMatrixSetBoxValues(A, const_cast<HYPRE_Int*>(box.lower),
                                            const_cast<HYPRE_Int*>(box.upper), 7, entries,
                                            values.data()));
    // The coefficients towards the boundary: zero (the boundary values are zero).
    for (int d = 0; d < 3; ++d) {
      for (int side = 0; side < 2; ++side) {
        const HYPRE_Int face = side == 0 ? 0 : static_cast<HYPRE_Int>(box.global[2 - d] - 1);
        if ((side == 0 ? box.lower[d] : box.upper[d]) != face) continue;
        HYPRE_Int lo[3] = {box.lower[0], box.lower[1], box.lower[2]};
        HYPRE_Int hi[3] = {box.upper[0], box.upper[1], box.upper[2]};
        lo[d] = hi[d] = face;
        std::size_t count = 1;
        for (int e = 0; e < 3; ++e)
          count *= static_cast<std::size_t>(hi[e] - lo[e] + 1);
        std::vector<double> zeros(count, 0.0);
        HYPRE_Int entry = 1 + 2 * d + side;
        HYPRE_OK(HYPRE_StructMatrixSetBoxValues(A, lo, hi, 1, &entry, zeros.data()));
      }
    }
    HYPRE_OK(HYPRE_StructMatrixAssemble(A));
    HYPRE_OK(HYPRE_StructVectorCreate(MPI_COMM_WORLD, grid, &b));
    HYPRE_OK(HYPRE_StructVectorCreate(MPI_COMM_WORLD, grid, &x));
    HYPRE_OK(HYPRE_StructVectorInitialize(b));
    HYPRE_OK(HYPRE_StructVectorInitialize(x));
    const double h = 1.0 / static_cast<double>(box.global[0] + 1);
    std::vector<double> rhs;
    rhs.reserve(m);
    for (std::int64_t i = 0; i < box.size[0]; ++i)
      for (std::int64_t j = 0; j < box.size[1]; ++j)
        for (std::int64_t k = 0; k < box.size[2]; ++k) {
          const double px = static_cast<double>(box.offset[0] + i + 1) * h;
          const double py = static_cast<double>(box.offset[1] + j + 1) * h;
          const double pz = static_cast<double>(box.offset[2] + k + 1) * h;
          rhs.push_back(-hcart::jacobi::poisson_rhs(px, py, pz) * h * h);
        }
    HYPRE_OK(HYPRE_StructVectorSetBoxValues(b, const_cast<HYPRE_Int*>(box.lower),
                                            const_cast<HYPRE_Int*>(box.upper), rhs.data()));
    HYPRE_OK(HYPRE_StructVectorAssemble(b));
  }
  ~HypreProblem() {
    HYPRE_StructVectorDestroy(x);
    HYPRE_StructVectorDestroy(b);
    HYPRE_StructMatrixDestroy(A);
    HYPRE_StructStencilDestroy(stencil);
    HYPRE_StructGridDestroy(grid);
  }
  HypreProblem(const HypreProblem&) = delete;
  HypreProblem& operator=(const HypreProblem&) = delete;
};

struct HypreRun {
  double setup = 0, solve = 0, relative_residual = 0;
  HYPRE_Int iterations = 0;
};

// PCG + PFMG V(1,1), red-black, non-Galerkin, skip, from x = 0.
HypreRun hypre_solve(HypreProblem& p) {
  HypreRun run;
  HYPRE_OK(HYPRE_StructVectorSetConstantValues(p.x, 0.0));
  HYPRE_StructSolver pcg, pfmg;
  HYPRE_OK(HYPRE_StructPCGCreate(MPI_COMM_WORLD, &pcg));
  HYPRE_OK(HYPRE_StructPCGSetTol(pcg, 1e-10));
  HYPRE_OK(HYPRE_StructPCGSetMaxIter(pcg, 100));
  HYPRE_OK(HYPRE_StructPCGSetTwoNorm(pcg, 1));
  HYPRE_OK(HYPRE_StructPFMGCreate(MPI_COMM_WORLD, &pfmg));
  HYPRE_OK(HYPRE_StructPFMGSetMaxIter(pfmg, 1));
  HYPRE_OK(HYPRE_StructPFMGSetTol(pfmg, 0.0));
  HYPRE_OK(HYPRE_StructPFMGSetZeroGuess(pfmg));
  HYPRE_OK(HYPRE_StructPFMGSetRAPType(pfmg, 1));
  HYPRE_OK(HYPRE_StructPFMGSetRelaxType(pfmg, 2));
  HYPRE_OK(HYPRE_StructPFMGSetNumPreRelax(pfmg, 1));
  HYPRE_OK(HYPRE_StructPFMGSetNumPostRelax(pfmg, 1));
  HYPRE_OK(HYPRE_StructPFMGSetSkipRelax(pfmg, 1));
  HYPRE_OK(HYPRE_StructPCGSetPrecond(pcg, HYPRE_StructPFMGSolve, HYPRE_StructPFMGSetup, pfmg));
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = Clock::now();
  HYPRE_OK(HYPRE_StructPCGSetup(pcg, p.A, p.b, p.x));
  run.setup = seconds_since(t0);
  t0 = Clock::now();
  HYPRE_OK(HYPRE_StructPCGSolve(pcg, p.A, p.b, p.x));
  run.solve = seconds_since(t0);
  HYPRE_OK(HYPRE_StructPCGGetNumIterations(pcg, &run.iterations));
  HYPRE_OK(HYPRE_StructPCGGetFinalRelativeResidualNorm(pcg, &run.relative_residual));
  HYPRE_StructPFMGDestroy(pfmg);
  HYPRE_StructPCGDestroy(pcg);
  return run;
}

// max |hypre's x - hcart's u| and max |u| over all ranks.
std::array<double, 2> difference(HypreProblem& p, const HypreBox& box, const hcart::Grid& grid,
                                 const hcart::Field<double>& u) {
  std::vector<double> x(box.values());
  HYPRE_OK(HYPRE_StructVectorGetBoxValues(p.x, const_cast<HYPRE_Int*>(box.lower),
                                          const_cast<HYPRE_Int*>(box.upper), x.data()));
  const auto host = hcart::host_copy(u);
  const auto h = grid.halo_width();
  std::array<double, 2> d{0.0, 0.0};
  std::size_t q = 0;
  for (std::int64_t i = 0; i < box.size[0]; ++i)
    for (std::int64_t j = 0; j < box.size[1]; ++j)
      for (std::int64_t k = 0; k < box.size[2]; ++k, ++q) {
        const double v = host(static_cast<int>(i) + h[0], static_cast<int>(j) + h[1],
                              static_cast<int>(k) + h[2]);
        d[0] = std::max(d[0], std::fabs(x[q] - v));
        d[1] = std::max(d[1], std::fabs(v));
      }
  MPI_Allreduce(MPI_IN_PLACE, d.data(), 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return d;
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-hypre", [&](hcart::Environment& env) {
    CLI::App app{"hcart's multigrid against hypre's PCG + PFMG on the Poisson problem"};
    long size = 127;
    int repeats = 3;
    app.add_option("--size", size, "unknowns per direction (2^k - 1)")->capture_default_str();
    app.add_option("--repeats", repeats)->capture_default_str();
    long full_multigrid = 2;
    app.add_option("--full-multigrid", full_multigrid,
                   "hcart's full-multigrid start, cycles a level (0: V-cycles from zero alone)")
        ->check(CLI::Range(0, 10))
        ->capture_default_str();
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    HYPRE_OK(HYPRE_Init());
    {
      hcart::jacobi::Settings settings = hcart::bench::poisson_multigrid();
      settings.multigrid.full_multigrid = full_multigrid;
      const hcart::HierarchyOptions h = hcart::jacobi::hierarchy_options(settings.multigrid);
      hcart::GridSpec spec;
      spec.global_size = {size, size, size};
      const hcart::Decomposition decomp(MPI_COMM_WORLD, hcart::nested_spec(spec, h));
      const hcart::GridHierarchy levels(decomp, h);
      const HypreBox box = box_of(levels.grid(0));
      HypreProblem problem(box);
      const auto slowest = [](double t) {
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        return t;
      };
      std::vector<double> t_hcart, t_hypre, t_hypre_solve, ratio;
      long cycles = 0;
      HypreRun last;
      std::array<double, 2> diff{0.0, 0.0};
      for (int r = 0; r < repeats; ++r) {
        {
          MPI_Barrier(MPI_COMM_WORLD);
          const auto t0 = Clock::now();
          hcart::Timers timers;
          hcart::jacobi::Multigrid mg(levels, settings, timers);
          const hcart::jacobi::Result result = mg.run();
          t_hcart.push_back(slowest(seconds_since(t0)));
          cycles = result.iterations;
          HCART_CHECK(result.converged, "hcart's multigrid did not converge in 100 cycles");
          last = hypre_solve(problem);
          HCART_CHECK(last.relative_residual <= 1e-10,
                      "hypre's PCG did not converge: " << last.relative_residual);
          diff = difference(problem, box, levels.grid(0), mg.solution());
        }
        t_hypre.push_back(slowest(last.setup + last.solve));
        t_hypre_solve.push_back(slowest(last.solve));
        ratio.push_back(t_hcart.back() / t_hypre.back());
      }
      if (env.rank() == 0) {
        auto show = [](const char* what, std::vector<double> v, const char* unit) {
          std::sort(v.begin(), v.end());
          std::printf("%-44s min %8.3f %s  median %8.3f %s\n", what, v.front(), unit,
                      v[v.size() / 2], unit);
        };
        std::printf("%d ranks, %ld^3 unknowns; %d repeats in turn\n", env.size(), size, repeats);
        std::printf("hcart multigrid: %ld V(2,2) cycles on level 0 (%s) to 1e-10 of the first "
                    "max-norm residual; hypre PCG + PFMG V(1,1): %d iterations to ||r||_2 <= "
                    "1e-10 ||b||_2 (%.2e)\n",
                    cycles,
                    full_multigrid > 0 ? ("a full-multigrid start of " +
                                          std::to_string(full_multigrid) + " a level among them")
                                             .c_str()
                                       : "from zero",
                    static_cast<int>(last.iterations), last.relative_residual);
        std::printf("solutions: max |x_hypre - u_hcart| = %.3e of max |u| = %.6f\n", diff[0],
                    diff[1]);
        show("hcart multigrid: set-up and solve", t_hcart, "s");
        show("hypre PCG + PFMG: setup and solve", t_hypre, "s");
        show("hypre PCG + PFMG: solve alone", t_hypre_solve, "s");
        show("ratio hcart / hypre (setup and solve)", ratio, " ");
      }
    }
    HYPRE_OK(HYPRE_Finalize());
    return 0;
  });
}
