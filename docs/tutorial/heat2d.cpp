// The tutorial program of docs/tutorial.md: the 2D heat equation u_t = alpha (u_xx + u_yy)
// on the periodic unit square, explicit Euler in time, written against hcart's public API
// only. It checks itself: the total heat is conserved, and the initial sine mode decays at
// the rate the discrete scheme predicts.
#include <hcart/hcart.hpp>

#include <cmath>
#include <cstdio>

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "heat2d", [](hcart::Environment& env) {
    // 1. The mesh: 2D is 3D with one cell and no halo in the third direction.
    const int n = 128;
    hcart::GridSpec spec;
    spec.global_size = {n, n, 1};
    spec.halo_width = {1, 1, 0};
    spec.periodic = {true, true, false};

    // 2. The decomposition: hcart picks the process grid and places the ranks.
    hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
    hcart::Grid grid(decomp);
    if (env.rank() == 0) {
      std::printf("heat2d: %d ranks, process grid %dx%dx%d\n", env.size(), decomp.dims()[0],
                  decomp.dims()[1], decomp.dims()[2]);
    }

    // 3. Two fields with halos, and the initial condition from global indices.
    hcart::Field<double> u = grid.make_field<double>("u");
    hcart::Field<double> v = grid.make_field<double>("v");
    const double pi = 3.14159265358979323846, h = 1.0 / n;
    const auto offset = grid.global_offset();
    const auto halo = grid.halo_width();
    Kokkos::parallel_for(
        "initial", grid.owned_policy(), KOKKOS_LAMBDA(int i, int j, int k) {
          const double x = (offset[0] + i - halo[0] + 0.5) * h;
          u(i, j, k) = 1.0 + std::sin(2 * pi * x);
        });

    // 4. Time stepping: exchange the halos, update every owned cell, swap the fields.
    hcart::HaloExchanger exchanger(grid, hcart::HaloMode::Faces);
    const double alpha = 1.0, dt = 0.2 * h * h / alpha, r = alpha * dt / (h * h);
    const int steps = 400;
    for (int step = 0; step < steps; ++step) {
      exchanger.exchange(u);
      Kokkos::parallel_for(
          "heat", grid.owned_policy(), KOKKOS_LAMBDA(int i, int j, int k) {
            v(i, j, k) = u(i, j, k) + r * (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) +
                                           u(i, j + 1, k) - 4 * u(i, j, k));
          });
      std::swap(u, v);
    }

    // 5. Global diagnostics: the total heat, and the amplitude of the sine mode.
    double local[2] = {0, 0};
    Kokkos::parallel_reduce(
        "heat_total", grid.owned_policy(),
        KOKKOS_LAMBDA(int i, int j, int k, double& sum) { sum += u(i, j, k) * h * h; }, local[0]);
    Kokkos::parallel_reduce(
        "mode", grid.owned_policy(),
        KOKKOS_LAMBDA(int i, int j, int k, double& sum) {
          const double x = (offset[0] + i - halo[0] + 0.5) * h;
          sum += 2 * (u(i, j, k) - 1.0) * std::sin(2 * pi * x) * h * h;
        },
        local[1]);
    double global[2];
    MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, decomp.comm());

    // The scheme multiplies the mode by 1 - 4 r sin^2(pi h) every step.
    const double s = std::sin(pi * h);
    const double expected = std::pow(1 - 4 * r * s * s, steps);
    const bool ok = std::fabs(global[0] - 1.0) < 1e-12 && std::fabs(global[1] - expected) < 1e-10;
    if (env.rank() == 0) {
      std::printf("heat2d: total heat %.15f (expected 1), mode amplitude %.12f (expected %.12f)\n",
                  global[0], global[1], expected);
      std::printf("heat2d: %s\n", ok ? "ok" : "WRONG");
    }
    return ok ? 0 : 1;
  });
}
