// hcart's halo exchange against PETSc's DMDA DMGlobalToLocalBegin/End on the same grid and
// ranks (issue target in docs/benchmarks.md). PETSc is an optional, benchmark-only
// dependency: apt-get install petsc-dev, then reconfigure; run on 2 ranks:
//   hcart-mpiexec -n 2 build/bin/hcart-bench-petsc [--size 256] [--repeats 7] [--iterations 20]
// Both use one layer of faces (DMDA_STENCIL_STAR, width 1; HaloMode::Faces), the same
// process grid (PETSc is given hcart's dims, its x fastest mapped onto hcart's k fastest),
// and alternate repeat by repeat; the slowest rank's time counts. Like is compared with
// like, twice:
//   ghost cells only: hcart's exchange (its fields carry their halos) against PETSc's
//     DMLocalToLocalBegin/End on one local vector (which moves only the ghost values);
//   owned block too: PETSc's DMGlobalToLocalBegin/End (the usual ghost update, which also
//     copies the owned block from the global into the local vector) against hcart's
//     exchange plus a copy of the owned block into a second field.
//   hcart-mpiexec -n P build/bin/hcart-bench-petsc --multigrid [--size 127] [--repeats 3]
//     time to solution of the manufactured Poisson problem (Jacobi3D's poisson deck, n^3
//     unknowns, zero Dirichlet boundaries) to a residual of 1e-10 of the first: hcart's
//     multigrid (Jacobi3D's: V(2,2), red-black Gauss-Seidel, every level down to one point)
//     against PETSc's KSP Richardson + PCMG on a DMDA (5 levels, V(2,2) with SOR smoothing,
//     operators rediscretised on every level and scaled by the cell volume, LU on the
//     coarsest level, redundantly on every rank; the unpreconditioned residual's 2-norm), the
//     two in turn, the slowest rank's time.
#include "BenchTiming.hpp"
#include "Multigrid.hpp"
#include "PoissonMultigrid.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/hcart.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <petscdmda.h>
#include <petscksp.h>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;
// w = u over a box: the owned-block copy of DMGlobalToLocal on hcart's side.
struct CopyField {
  hcart::Field<double> u, w;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { w(i, j, k) = u(i, j, k); }
};

#define PETSC_OK(call)                                                                             \
  do {                                                                                             \
    if ((call) != 0) throw hcart::Error(std::string("PETSc call failed: ") + #call);               \
  } while (false)

// The Poisson problem as PETSc's DMDA examples state it (KSP ex45): the grid's points include
// the boundary (n + 2 per direction, spacing h = 1 / (n + 1)); boundary rows are the identity
// scaled like the others, interior rows the 7-point Laplacian times the cell volume h^3, so
// that a coarser level rediscretised the same way is a consistent coarse operator.
PetscErrorCode poisson_matrix(KSP ksp, Mat, Mat B, void*) {
  DM da;
  PetscInt M, N, P, xs, ys, zs, xm, ym, zm;
  KSPGetDM(ksp, &da);
  DMDAGetInfo(da, nullptr, &M, &N, &P, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
              nullptr, nullptr, nullptr);
  const PetscScalar hx = 1.0 / (M - 1), hy = 1.0 / (N - 1), hz = 1.0 / (P - 1);
  const PetscScalar sx = hy * hz / hx, sy = hx * hz / hy, sz = hx * hy / hz;
  DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm);
  for (PetscInt k = zs; k < zs + zm; ++k)
    for (PetscInt j = ys; j < ys + ym; ++j)
      for (PetscInt i = xs; i < xs + xm; ++i) {
        MatStencil row{}, col[7]{};
        row.i = i;
        row.j = j;
        row.k = k;
        if (i == 0 || j == 0 || k == 0 || i == M - 1 || j == N - 1 || k == P - 1) {
          const PetscScalar v = 2.0 * (sx + sy + sz);
          MatSetValuesStencil(B, 1, &row, 1, &row, &v, INSERT_VALUES);
          continue;
        }
        PetscScalar v[7] = {-sz, -sy, -sx, 2.0 * (sx + sy + sz), -sx, -sy, -sz};
        const PetscInt di[7] = {0, 0, -1, 0, 1, 0, 0}, dj[7] = {0, -1, 0, 0, 0, 1, 0},
                       dk[7] = {-1, 0, 0, 0, 0, 0, 1};
        for (int n = 0; n < 7; ++n) {
          col[n].i = i + di[n];
          col[n].j = j + dj[n];
          col[n].k = k + dk[n];
        }
        MatSetValuesStencil(B, 1, &row, 7, col, v, INSERT_VALUES);
      }
  MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY);
  return 0;
}

// -Delta u = -f on the interior (the manufactured f of Jacobi3D's poisson deck), times h^3;
// zero on the boundary.
PetscErrorCode poisson_rhs(KSP ksp, Vec b, void*) {
  DM da;
  PetscInt M, xs, ys, zs, xm, ym, zm;
  KSPGetDM(ksp, &da);
  DMDAGetInfo(da, nullptr, &M, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
              nullptr, nullptr, nullptr, nullptr);
  const double h = 1.0 / (M - 1);
  DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm);
  PetscScalar*** array;
  DMDAVecGetArray(da, b, &array);
  for (PetscInt k = zs; k < zs + zm; ++k)
    for (PetscInt j = ys; j < ys + ym; ++j)
      for (PetscInt i = xs; i < xs + xm; ++i) {
        const bool boundary = i == 0 || j == 0 || k == 0 || i == M - 1 || j == M - 1 || k == M - 1;
        array[k][j][i] =
            boundary ? 0.0 : -hcart::jacobi::poisson_rhs(i * h, j * h, k * h) * h * h * h;
      }
  DMDAVecRestoreArray(da, b, &array);
  return 0;
}

// hcart's multigrid against PETSc's PCMG, each to 1e-10 of its first residual, in turn.
void compare_multigrid(const hcart::Environment& env, long size, int repeats) {
  const hcart::jacobi::Settings settings = hcart::bench::poisson_multigrid();
  const hcart::HierarchyOptions h = hcart::jacobi::hierarchy_options(settings.multigrid);
  hcart::GridSpec spec;
  spec.global_size = {size, size, size};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, hcart::nested_spec(spec, h));
  const hcart::GridHierarchy levels(decomp, h);
  KSP ksp;
  DM da;
  PETSC_OK(KSPCreate(PETSC_COMM_WORLD, &ksp));
  const PetscInt points = static_cast<PetscInt>(size) + 2;
  PETSC_OK(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE,
                        DMDA_STENCIL_STAR, points, points, points, PETSC_DECIDE, PETSC_DECIDE,
                        PETSC_DECIDE, 1, 1, nullptr, nullptr, nullptr, &da));
  PETSC_OK(DMSetFromOptions(da));
  PETSC_OK(DMSetUp(da));
  PETSC_OK(KSPSetDM(ksp, da));
  PETSC_OK(KSPSetComputeOperators(ksp, poisson_matrix, nullptr));
  PETSC_OK(KSPSetComputeRHS(ksp, poisson_rhs, nullptr));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-ksp_type", "richardson"));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-ksp_norm_type", "unpreconditioned"));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-ksp_rtol", "1e-10"));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-pc_type", "mg"));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-pc_mg_levels", "5"));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-pc_mg_cycle_type", "v"));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-mg_levels_ksp_type", "richardson"));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-mg_levels_ksp_max_it", "2"));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-mg_levels_pc_type", "sor"));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-mg_coarse_pc_type", "redundant"));
  PETSC_OK(PetscOptionsSetValue(nullptr, "-mg_coarse_redundant_pc_type", "lu"));
  PETSC_OK(KSPSetFromOptions(ksp));
  Vec x;
  PETSC_OK(KSPSetUp(ksp));
  const auto slowest = [](double t) {
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
  };
  std::vector<double> t_hcart, t_petsc, ratio;
  long cycles_hcart = 0;
  PetscInt its = 0;
  for (int r = 0; r < repeats; ++r) {
    {
      hcart::Timers timers;
      hcart::jacobi::Multigrid mg(levels, settings, timers); // set up before, as PETSc's
      MPI_Barrier(MPI_COMM_WORLD);
      const auto t0 = Clock::now();
      const hcart::jacobi::Result result = mg.run();
      t_hcart.push_back(slowest(seconds_since(t0)));
      cycles_hcart = result.iterations;
      HCART_CHECK(result.converged, "hcart's multigrid did not converge in 100 cycles");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = Clock::now();
    PETSC_OK(KSPSolve(ksp, nullptr, nullptr));
    t_petsc.push_back(slowest(seconds_since(t0)));
    PETSC_OK(KSPGetIterationNumber(ksp, &its));
    KSPConvergedReason reason;
    PETSC_OK(KSPGetConvergedReason(ksp, &reason));
    HCART_CHECK(reason > 0, "PETSc's KSP did not converge (reason " << reason << ")");
    ratio.push_back(t_hcart.back() / t_petsc.back());
  }
  PETSC_OK(KSPGetSolution(ksp, &x));
  if (env.rank() == 0) {
    auto show = [](const char* what, std::vector<double> v, const char* unit) {
      std::sort(v.begin(), v.end());
      std::printf("%-44s min %8.3f %s  median %8.3f %s\n", what, v.front(), unit, v[v.size() / 2],
                  unit);
    };
    std::printf("%d ranks, %ld^3 unknowns, to 1e-10 of the first residual; %d repeats in turn\n",
                env.size(), size, repeats);
    std::printf("hcart multigrid: %ld cycles (V(2,2), red-black, %d levels); PETSc PCMG: %d "
                "cycles (V(2,2), SOR, 5 levels, LU coarse)\n",
                cycles_hcart, levels.size(), static_cast<int>(its));
    show("hcart multigrid run (set up before)", t_hcart, "s");
    show("PETSc KSPSolve (set up before)", t_petsc, "s");
    show("ratio hcart / PETSc", ratio, " ");
  }
  PETSC_OK(KSPDestroy(&ksp));
  PETSC_OK(DMDestroy(&da));
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-petsc", [&](hcart::Environment& env) {
    CLI::App app{"hcart halo exchange against PETSc DMDA"};
    long size = 256;
    int repeats = 7, iterations = 20;
    bool multigrid = false;
    app.add_flag("--multigrid", multigrid,
                 "time to solution of the Poisson problem: hcart's multigrid against PCMG "
                 "(--size 127, --repeats 3 unless given)");
    app.add_option("--size", size)->capture_default_str();
    app.add_option("--repeats", repeats)->capture_default_str();
    app.add_option("--iterations", iterations)->capture_default_str();
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    PETSC_OK(PetscInitializeNoArguments());
    if (multigrid) {
      compare_multigrid(env, app.count("--size") > 0 ? size : 127,
                        app.count("--repeats") > 0 ? repeats : 3);
      PETSC_OK(PetscFinalize());
      return 0;
    }
    {
      hcart::GridSpec spec;
      spec.global_size = {size, size, size};
      const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
      const hcart::Grid grid(decomp);
      auto u = grid.make_field<double>("u");
      hcart::HaloExchanger halo(grid, hcart::HaloMode::Faces);
      const auto d = decomp.dims();
      DM da;
      // PETSc's (x, y, z) with x fastest = hcart's (k, j, i): m, n, p = d[2], d[1], d[0].
      PETSC_OK(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE,
                            DMDA_STENCIL_STAR, size, size, size, d[2], d[1], d[0], 1, 1, nullptr,
                            nullptr, nullptr, &da));
      PETSC_OK(DMSetUp(da));
      Vec global, local;
      PETSC_OK(DMCreateGlobalVector(da, &global));
      PETSC_OK(DMCreateLocalVector(da, &local));
      PETSC_OK(VecSet(global, 1.0));
      halo.exchange(u);
      PETSC_OK(DMGlobalToLocalBegin(da, global, INSERT_VALUES, local));
      PETSC_OK(DMGlobalToLocalEnd(da, global, INSERT_VALUES, local));
      PETSC_OK(DMLocalToLocalBegin(da, local, INSERT_VALUES, local));
      PETSC_OK(DMLocalToLocalEnd(da, local, INSERT_VALUES, local));
      auto w = grid.make_field<double>("w");
      // The slowest rank's seconds per call of `body`, over `iterations` calls.
      const auto timed = [&](auto&& body) {
        MPI_Barrier(MPI_COMM_WORLD);
        const auto t0 = Clock::now();
        for (int it = 0; it < iterations; ++it)
          body();
        double t = seconds_since(t0) / iterations;
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        return t;
      };
      std::vector<double> t_hcart, t_l2l, ratio_ghosts, t_hcart_copy, t_g2l, ratio_block;
      for (int r = 0; r < repeats; ++r) {
        t_hcart.push_back(timed([&] { halo.exchange(u); }));
        t_l2l.push_back(timed([&] {
          PETSC_OK(DMLocalToLocalBegin(da, local, INSERT_VALUES, local));
          PETSC_OK(DMLocalToLocalEnd(da, local, INSERT_VALUES, local));
        }));
        t_hcart_copy.push_back(timed([&] {
          halo.exchange(u);
          hcart::for_each_cell("copy_owned", grid.owned_box(), CopyField{u, w});
          hcart::fence("copy_owned");
        }));
        t_g2l.push_back(timed([&] {
          PETSC_OK(DMGlobalToLocalBegin(da, global, INSERT_VALUES, local));
          PETSC_OK(DMGlobalToLocalEnd(da, global, INSERT_VALUES, local));
        }));
        ratio_ghosts.push_back(t_hcart.back() / t_l2l.back());
        ratio_block.push_back(t_hcart_copy.back() / t_g2l.back());
      }
      if (env.rank() == 0) {
        auto show = [](const char* what, std::vector<double> v, double scale, const char* unit) {
          std::sort(v.begin(), v.end());
          std::printf("%-34s min %8.3f %s  median %8.3f %s\n", what, v.front() * scale, unit,
                      v[v.size() / 2] * scale, unit);
        };
        std::printf("%d ranks, %ld^3 doubles, dims %dx%dx%d\n", env.size(), size, d[0], d[1], d[2]);
        std::printf("ghost cells only:\n");
        show("  hcart HaloExchanger (faces)", t_hcart, 1e3, "ms");
        show("  PETSc DMLocalToLocalBegin/End", t_l2l, 1e3, "ms");
        show("  ratio hcart / PETSc", ratio_ghosts, 1.0, "  ");
        std::printf("ghost cells and a copy of the owned block:\n");
        show("  hcart exchange + owned-block copy", t_hcart_copy, 1e3, "ms");
        show("  PETSc DMGlobalToLocalBegin/End", t_g2l, 1e3, "ms");
        show("  ratio hcart / PETSc", ratio_block, 1.0, "  ");
      }
      PETSC_OK(VecDestroy(&local));
      PETSC_OK(VecDestroy(&global));
      PETSC_OK(DMDestroy(&da));
    }
    PETSC_OK(PetscFinalize());
    return 0;
  });
}
