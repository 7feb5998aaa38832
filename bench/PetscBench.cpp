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
#include "BenchTiming.hpp"

#include <hcart/app/CommandLine.hpp>
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
// w = u over a box: the owned-block copy of DMGlobalToLocal on hcart's side.
struct CopyField {
  hcart::Field<double> u, w;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { w(i, j, k) = u(i, j, k); }
};

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
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
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
