// The LBM example (docs/lbm.md): a D3Q19 lattice-Boltzmann solver (BGK, fused pull stream and
// collide, D3Q19.hpp) on hcart. The 19 populations are one field with components, exchanged
// in one Full exchange (a population pulled along an edge needs the edge halo) through two
// bindings, one per arrangement of the two fields it swaps. x and z are periodic; y is
// periodic too, or closed by half-way bounce-back walls (--walls), which the kernel applies
// itself (the wall returns a cell's own opposite population).
//
// It checks itself against the physics: a shear wave u_x(y) decays as exp(-nu k^2 t), with
// nu = (tau - 1/2)/3 and k = 2 pi / NY (periodic) or pi / NY (walls: the slowest mode,
// sin(pi (y + 1/2) / NY)), so the viscosity measured from the decay of the wave's amplitude
// is compared with nu ("lbm3d: ok" within --tolerance). The populations at the end go to an
// HDF5 file (--output), which the test suite compares bit for bit across rank counts and
// strategies, and a restart from a checkpoint (--checkpoint-at, --restart) continues to the
// same bits.
#include "D3Q19.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/hcart.hpp>

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>

namespace {

using lbm::kQ;

// The wave's profile along y: mode(y) for every global y, computed once on the host (the
// same bits on every backend and decomposition).
using Profile = Kokkos::View<const double*, hcart::MemorySpace>;

// The initial state: density 1 and the shear wave u_x = amplitude * mode(y), at equilibrium.
struct ShearWave {
  hcart::ComponentAccessor<double> f;
  Profile mode;
  long long first_y; // global y of local row 0
  double amplitude;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double ux = amplitude * mode(first_y + j);
    for (int q = 0; q < kQ; ++q)
      f(q, i, j, k) = lbm::equilibrium(q, 1.0, ux, 0.0, 0.0);
  }
};

// Sum over the owned cells of u_x * mode(y).
struct Projection {
  hcart::ComponentAccessor<const double> f;
  Profile mode;
  long long first_y;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& sum) const {
    double rho = 0.0, mx = 0.0;
    for (int q = 0; q < kQ; ++q) {
      rho += f(q, i, j, k);
      mx += lbm::velocity(q, 0) * f(q, i, j, k);
    }
    sum += mx / rho * mode(first_y + j);
  }
};

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "lbm3d", [&](hcart::Environment& env) {
    CLI::App app{"D3Q19 lattice Boltzmann: a decaying shear wave, checked against nu k^2"};
    std::array<std::int64_t, 3> size{32, 32, 16};
    long steps = 200, checkpoint_at = -1;
    double tau = 0.8, amplitude = 1e-3, tolerance = 2e-3;
    bool walls = false;
    std::string strategy = "hierarchical", output, restart, checkpoint;
    std::array<int, 3> dims{0, 0, 0};
    app.add_option("--size", size, "cells in x, y and z (e.g. 32,32,16)")
        ->delimiter(',')
        ->capture_default_str();
    app.add_option("--steps", steps, "time steps")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--tau", tau, "relaxation time (> 1/2)")->capture_default_str();
    app.add_option("--amplitude", amplitude, "the shear wave's velocity")->capture_default_str();
    app.add_flag("--walls", walls, "bounce-back walls on the y sides instead of periodic");
    app.add_option("--strategy", strategy, "hcart's decomposition strategy")->capture_default_str();
    app.add_option("--dims", dims, "ranks per direction (e.g. 1,3,1; the manual strategy)")
        ->delimiter(',');
    app.add_option("--output", output, "an HDF5 file for the populations at the end");
    app.add_option("--checkpoint", checkpoint, "an HDF5 checkpoint written at --checkpoint-at");
    app.add_option("--checkpoint-at", checkpoint_at, "the step of the checkpoint");
    app.add_option("--restart", restart, "continue from this checkpoint");
    app.add_option("--tolerance", tolerance, "relative error of the measured viscosity")
        ->capture_default_str();
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    hcart::agree_on_errors(MPI_COMM_WORLD, [&] {
      HCART_REQUIRE(tau > 0.5, "--tau " << tau << ": expected more than 0.5");
      for (int d = 0; d < 3; ++d)
        HCART_REQUIRE(size[d] >= 3, "--size: " << size[d] << " cells, expected 3 or more");
      HCART_REQUIRE(checkpoint_at < 0 || !checkpoint.empty(),
                    "--checkpoint-at " << checkpoint_at << ": name the --checkpoint");
    });

    // ---- grid, fields, halo exchange -----------------------------------------------------
    hcart::GridSpec spec;
    spec.global_size = size;
    spec.halo_width = {1, 1, 1};
    spec.periodic = {true, !walls, true};
    hcart::DecompositionOptions options;
    options.strategy = dims[0] > 0 ? hcart::Strategy::Manual : hcart::parse_strategy(strategy);
    options.dims = dims;
    options.traffic = {kQ * static_cast<int>(sizeof(double)), /*corners=*/true};
    const hcart::Decomposition decomp(MPI_COMM_WORLD, spec, options);
    const hcart::Grid grid(decomp);
    hcart::ComponentField<double> f = grid.make_components<double>("f", kQ);
    hcart::ComponentField<double> g = grid.make_components<double>("g", kQ);
    hcart::HaloExchanger halo(grid, hcart::HaloMode::Full);

    const double pi = std::acos(-1.0);
    const double k =
        walls ? pi / static_cast<double>(size[1]) : 2 * pi / static_cast<double>(size[1]);
    const double shift = walls ? 0.5 : 0.0;
    Kokkos::View<double*, hcart::MemorySpace> profile("mode", size[1] + 2); // y = -1 .. NY
    {
      auto host = Kokkos::create_mirror_view(profile);
      for (std::int64_t y = -1; y <= size[1]; ++y)
        host(y + 1) = std::sin(k * (static_cast<double>(y) + shift));
      Kokkos::deep_copy(profile, host);
    }
    const Profile mode = profile;
    const long long first_y = grid.global_index(1, 0) + 1; // local row 0 in `mode`
    long step = 0;
    if (restart.empty()) {
      hcart::for_each_cell("shear_wave", grid.owned_box(),
                           ShearWave{hcart::accessor(f), mode, first_y, amplitude});
    } else {
      const hcart::FileContents file = hcart::inspect_fields(MPI_COMM_WORLD, restart);
      hcart::read_field(restart, grid, "f", f);
      step = file.metadata.step;
    }

    // The rows next to the walls get the kernel with bounce-back; the rest the plain one.
    const hcart::Box owned = grid.owned_box();
    const bool wall_below = walls && grid.global_index(1, owned.lo[1]) == 0;
    const bool wall_above = walls && grid.global_index(1, owned.hi[1] - 1) == size[1] - 1;
    auto rows = [&](int lo, int hi) {
      hcart::Box box = owned;
      box.lo[1] = lo;
      box.hi[1] = hi;
      return box;
    };
    const auto from = lbm::pull_offsets(hcart::accessor(f));
    const double omega = 1.0 / tau;
    auto stream_collide = [&](const hcart::ComponentField<double>& in,
                              const hcart::ComponentField<double>& out) {
      const hcart::ComponentAccessor<const double> a = hcart::accessor(in);
      const hcart::ComponentAccessor<double> b = hcart::accessor(out);
      const int lo = owned.lo[1] + (wall_below ? 1 : 0), hi = owned.hi[1] - (wall_above ? 1 : 0);
      if (hi > lo)
        hcart::for_each_cell("lbm", rows(lo, hi),
                             lbm::StreamCollide<false, false>{a, b, from, omega});
      if (wall_below)
        hcart::for_each_cell("lbm_wall", rows(owned.lo[1], owned.lo[1] + 1),
                             lbm::StreamCollide<true, false>{a, b, from, omega});
      if (wall_above)
        hcart::for_each_cell("lbm_wall", rows(owned.hi[1] - 1, owned.hi[1]),
                             lbm::StreamCollide<false, true>{a, b, from, omega});
    };

    // The wave's amplitude: (2 / cells) * sum of u_x * mode(y) over the mesh.
    const double cells = static_cast<double>(size[0]) * size[1] * size[2];
    auto wave_amplitude = [&](const hcart::ComponentField<double>& fields) {
      double local = 0.0;
      hcart::reduce_cells("projection", owned, Projection{hcart::accessor(fields), mode, first_y},
                          local);
      double sum = 0.0;
      MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      return 2.0 * sum / cells;
    };

    // ---- time stepping: both arrangements of the two fields bound once -----------------
    hcart::HaloBinding bound[2] = {halo.bind(f), halo.bind(g)};
    hcart::Timers timers;
    const long first = step;
    const long measure_from = first + (steps - first) / 5; // past the start's transient
    double a0 = 0.0;
    while (step < steps) {
      if (step == measure_from) a0 = wave_amplitude(f);
      {
        auto region = timers.region("halo");
        bound[(step - first) % 2].exchange(); // the field that is f this step
      }
      {
        auto region = timers.region("stream_collide");
        stream_collide(f, g);
      }
      std::swap(f, g);
      ++step;
      if (step == checkpoint_at) {
        hcart::FileMetadata meta;
        meta.application = "lbm3d";
        meta.kind = "checkpoint";
        meta.step = step;
        hcart::write_fields(checkpoint, grid, {{"f", f}}, meta);
      }
    }
    const double a1 = wave_amplitude(f);

    // ---- the physics check and the output -------------------------------------------------
    const double nu = (tau - 0.5) / 3.0;
    const double measured =
        -std::log(a1 / a0) / (k * k * static_cast<double>(steps - measure_from));
    const double error = std::fabs(measured - nu) / nu;
    if (!output.empty()) {
      hcart::FileMetadata meta;
      meta.application = "lbm3d";
      meta.step = step;
      hcart::write_fields(output, grid, {{"f", f}}, meta);
    }
    const auto summary = timers.summarize(MPI_COMM_WORLD);
    if (env.rank() == 0) {
      std::printf(
          "lbm3d: %lld x %lld x %lld, %s, tau %.3f, steps %ld to %ld on %d ranks (%dx%dx%d)\n",
          static_cast<long long>(size[0]), static_cast<long long>(size[1]),
          static_cast<long long>(size[2]), walls ? "bounce-back walls in y" : "periodic", tau,
          first, steps, env.size(), decomp.dims()[0], decomp.dims()[1], decomp.dims()[2]);
      std::printf(
          "lbm3d: viscosity from the decay %.6e, (tau - 1/2)/3 = %.6e, relative error %.2e\n",
          measured, nu, error);
      hcart::Timers::print(std::cout, summary);
    }
    if (!(error <= tolerance)) {
      hcart::Error failure("the measured viscosity is " + std::to_string(measured) + ", expected " +
                           std::to_string(nu) + " within a relative " + std::to_string(tolerance));
      failure.set_collective(true);
      throw failure;
    }
    if (env.rank() == 0) std::printf("lbm3d: ok\n");
    return 0;
  });
}
