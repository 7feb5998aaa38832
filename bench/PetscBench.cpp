// hcart's halo exchange against PETSc's DMDA DMGlobalToLocalBegin/End on the same grid and
// ranks (issue target in docs/benchmarks.md). PETSc is an optional, benchmark-only
// dependency: apt-get install petsc-dev, then reconfigure; run on 2 ranks:
//   hcart-mpiexec -n 2 build/bin/hcart-bench-petsc [--size 256] [--repeats 7] [--iterations 20]
// Both use one layer of faces (DMDA_STENCIL_STAR, width 1; HaloMode::Faces), the same
// process grid (PETSc is given hcart's dims, its x fastest mapped onto hcart's k fastest),
// and alternate repeat by repeat; the slowest rank's time counts.
#include "BenchTiming.hpp"

#include <hcart/hcart.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <petscdmda.h>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;
#define PETSC_OK(call)                                                                             \
  do {                                                                                             \
    if ((call) != 0) throw hcart::Error(std::string("PETSc call failed: ") + #call);               \
  } while (false)
} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-petsc", [&](hcart::Environment& env) {
    CLI::App app{"hcart halo exchange against PETSc DMDA"};
    long size = 256;
    int repeats = 7, iterations = 20;
    app.add_option("--size", size)->capture_default_str();
    app.add_option("--repeats", repeats)->capture_default_str();
    app.add_option("--iterations", iterations)->capture_default_str();
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e);
    }
    PETSC_OK(PetscInitializeNoArguments());
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
      std::vector<double> t_hcart, t_petsc, ratio;
      for (int r = 0; r < repeats; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        auto t0 = Clock::now();
        for (int it = 0; it < iterations; ++it)
          halo.exchange(u);
        double th = seconds_since(t0) / iterations;
        MPI_Allreduce(MPI_IN_PLACE, &th, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = Clock::now();
        for (int it = 0; it < iterations; ++it) {
          PETSC_OK(DMGlobalToLocalBegin(da, global, INSERT_VALUES, local));
          PETSC_OK(DMGlobalToLocalEnd(da, global, INSERT_VALUES, local));
        }
        double tp = seconds_since(t0) / iterations;
        MPI_Allreduce(MPI_IN_PLACE, &tp, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        t_hcart.push_back(th);
        t_petsc.push_back(tp);
        ratio.push_back(th / tp);
      }
      if (env.rank() == 0) {
        auto show = [](const char* what, std::vector<double> v, double scale, const char* unit) {
          std::sort(v.begin(), v.end());
          std::printf("%-34s min %8.3f %s  median %8.3f %s\n", what, v.front() * scale, unit,
                      v[v.size() / 2] * scale, unit);
        };
        std::printf("%d ranks, %ld^3 doubles, dims %dx%dx%d\n", env.size(), size, d[0], d[1], d[2]);
        show("hcart HaloExchanger (faces)", t_hcart, 1e3, "ms");
        show("PETSc DMGlobalToLocalBegin/End", t_petsc, 1e3, "ms");
        show("ratio hcart / PETSc", ratio, 1.0, "  ");
      }
      PETSC_OK(VecDestroy(&local));
      PETSC_OK(VecDestroy(&global));
      PETSC_OK(DMDestroy(&da));
    }
    PETSC_OK(PetscFinalize());
    return 0;
  });
}
