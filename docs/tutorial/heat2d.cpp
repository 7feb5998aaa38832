// The tutorial program of docs/tutorial.md: the 2D heat equation u_t = alpha (u_xx + u_yy)
// on the periodic unit square, explicit Euler in time, written against hcart's public API
// only. It checks itself: the total heat is conserved, and the initial sine mode decays at
// the rate the discrete scheme predicts. The same source runs on Serial, OpenMP and CUDA.
#include <hcart/hcart.hpp>

#include <cmath>
#include <cstdio>

// The kernels: small structs whose operator() updates one cell (i, j, k), in local indices.
struct Initial {
  hcart::FieldAccessor<double> u;
  long long first_x; // global index of local index 0 in x
  double h;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double pi = 3.14159265358979323846, x = (first_x + i + 0.5) * h;
    u(i, j, k) = 1.0 + hcart::math::sin(2 * pi * x);
  }
};

struct HeatStep {
  hcart::FieldAccessor<const double> u; // read
  hcart::FieldAccessor<double> v;       // written
  double r;                             // alpha dt / h^2
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    v(i, j, k) = u(i, j, k) + r * (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) +
                                   u(i, j + 1, k) - 4 * u(i, j, k));
  }
};

struct TotalHeat {
  hcart::FieldAccessor<const double> u;
  double h;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& sum) const {
    sum += u(i, j, k) * h * h;
  }
};

struct SineMode {
  hcart::FieldAccessor<const double> u;
  long long first_x;
  double h;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& sum) const {
    const double pi = 3.14159265358979323846, x = (first_x + i + 0.5) * h;
    sum += 2 * (u(i, j, k) - 1.0) * hcart::math::sin(2 * pi * x) * h * h;
  }
};

int heat2d(hcart::Environment& env) {
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
  const double h = 1.0 / n;
  const long long first_x = grid.global_index(0, 0);
  hcart::for_each_cell("initial", grid.owned_box(), Initial{u, first_x, h});

  // 4. Time stepping: exchange the halos, update every owned cell, swap the fields.
  hcart::HaloExchanger exchanger(grid, hcart::HaloMode::Faces);
  const double alpha = 1.0, dt = 0.2 * h * h / alpha, r = alpha * dt / (h * h);
  const int steps = 400;
  for (int step = 0; step < steps; ++step) {
    exchanger.exchange(u);
    hcart::for_each_cell("heat", grid.owned_box(), HeatStep{u, v, r});
    std::swap(u, v);
  }

  // 5. Global diagnostics: the total heat, and the amplitude of the sine mode.
  double local[2] = {0, 0};
  hcart::reduce_cells("heat_total", grid.owned_box(), TotalHeat{u, h}, local[0]);
  hcart::reduce_cells("mode", grid.owned_box(), SineMode{u, first_x, h}, local[1]);
  double global[2];
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, decomp.comm());

  // The scheme multiplies the mode by 1 - 4 r sin^2(pi h) every step.
  const double s = std::sin(3.14159265358979323846 * h);
  const double expected = std::pow(1 - 4 * r * s * s, steps);
  const bool ok = std::fabs(global[0] - 1.0) < 1e-12 && std::fabs(global[1] - expected) < 1e-10;
  if (env.rank() == 0) {
    std::printf("heat2d: total heat %.15f (expected 1), mode amplitude %.12f (expected %.12f)\n",
                global[0], global[1], expected);
    std::printf("heat2d: %s\n", ok ? "ok" : "WRONG");
  }
  return ok ? 0 : 1;
}

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "heat2d", heat2d);
}
