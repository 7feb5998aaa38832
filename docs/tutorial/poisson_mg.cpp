// The multigrid program of docs/multigrid.md: the Poisson equation  Delta u = f  on the unit
// cube with zero Dirichlet boundaries, for three right-hand sides at once (one field of 3
// components), cell-centred, solved by V(2,2) cycles of red-black Gauss-Seidel on a grid
// hierarchy: hcart's levels nest on any rank count, the coarse ones move onto fewer ranks
// through the machine, and hcart restricts, prolongs and moves the data between them. It
// checks itself: the residual falls by at least 4 per cycle, the solution is within the
// discretisation's second-order error of the exact one, and its bits are the same on every
// rank count (the printed checksum). The same source runs on Serial, OpenMP and CUDA.
//   hcart-mpiexec -n 3 build/tests/tutorial/poisson_mg [n]      (n = 64 by default)
#include <hcart/hcart.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

constexpr int kRhs = 3; // right-hand sides, the components of every field

// The exact solution of component c: (c + 1) sin(pi x) sin(pi y) sin(pi z); f = -3 pi^2 u.
KOKKOS_INLINE_FUNCTION double exact(int c, double x, double y, double z) {
  const double pi = 3.14159265358979323846;
  return (c + 1) * hcart::math::sin(pi * x) * hcart::math::sin(pi * y) * hcart::math::sin(pi * z);
}

struct RightHandSide {
  hcart::ComponentField<double> f;
  long long gi, gj, gk; // global index of local index 0
  double h;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double pi = 3.14159265358979323846;
    for (int c = 0; c < kRhs; ++c)
      f(c, i, j, k) = -3 * pi * pi * exact(c, (gi + i + 0.5) * h, (gj + j + 0.5) * h, (gk + k + 0.5) * h);
  }
};

// One red-black Gauss-Seidel update of every component: the 7-point Laplacian solved for the
// centre from its neighbours (of the other colour).
struct GaussSeidel {
  hcart::ComponentField<double> u, f;
  double h2; // h^2
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    for (int c = 0; c < kRhs; ++c)
      u(c, i, j, k) = (u(c, i - 1, j, k) + u(c, i + 1, j, k) + u(c, i, j - 1, k) + u(c, i, j + 1, k) +
                       u(c, i, j, k - 1) + u(c, i, j, k + 1) - h2 * f(c, i, j, k)) /
                      6.0;
  }
};

// r = f - Delta_h u.
struct Residual {
  hcart::ComponentField<double> u, f, r;
  double h2;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    for (int c = 0; c < kRhs; ++c)
      r(c, i, j, k) = f(c, i, j, k) - (u(c, i - 1, j, k) + u(c, i + 1, j, k) + u(c, i, j - 1, k) +
                                       u(c, i, j + 1, k) + u(c, i, j, k - 1) + u(c, i, j, k + 1) -
                                       6.0 * u(c, i, j, k)) /
                                          h2;
  }
};

// The three residuals' max |r| in one reduction.
struct MaxResidual {
  hcart::ComponentField<double> r;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, hcart::ReductionArray<double, kRhs>& m) const {
    for (int c = 0; c < kRhs; ++c)
      m[c] = hcart::math::fabs(r(c, i, j, k)) > m[c] ? hcart::math::fabs(r(c, i, j, k)) : m[c];
  }
};

struct MaxError {
  hcart::ComponentField<double> u;
  long long gi, gj, gk;
  double h;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, hcart::ReductionArray<double, kRhs>& m) const {
    for (int c = 0; c < kRhs; ++c) {
      const double e = u(c, i, j, k) - exact(c, (gi + i + 0.5) * h, (gj + j + 0.5) * h, (gk + k + 0.5) * h);
      m[c] = hcart::math::fabs(e) > m[c] ? hcart::math::fabs(e) : m[c];
    }
  }
};

// What the program keeps on each level: its fields and the mesh spacing. hcart::
// HierarchyLevels holds one per level this rank holds, with the level's grid, exchanger
// (Faces) and physical boundaries beside them.
struct Fields {
  hcart::ComponentField<double> u, f, r;
  double h2 = 0;
};
using Levels = hcart::HierarchyLevels<Fields>;
using Level = Levels::Level;

// Zero Dirichlet values on the cell faces of the boundary: ghost = -interior.
void fill_boundaries(Level& L) {
  L.boundaries.apply(L.u, hcart::BoundaryCondition::reflecting_odd());
}

void smooth(Level& L, int sweeps) {
  for (int s = 0; s < sweeps; ++s) {
    for (int colour = 0; colour < 2; ++colour) {
      L.halo.exchange(L.u);
      fill_boundaries(L);
      hcart::for_each_coloured_cell("smooth", L.grid, L.grid.owned_box(), colour,
                                    GaussSeidel{L.u, L.f, L.h2});
    }
  }
}

void residual(Level& L) {
  L.halo.exchange(L.u);
  fill_boundaries(L);
  hcart::for_each_cell("residual", L.grid.owned_box(), Residual{L.u, L.f, L.r, L.h2});
}

// One V-cycle from level l down. A rank that does not hold level l + 1 goes straight from
// the restriction (its data gathered to the level's owners) to the prolongation (scattered
// back); an empty field stands for the level there.
void v_cycle(Levels& L, int l) {
  const hcart::GridHierarchy& levels = L.hierarchy();
  if (l + 1 == levels.size()) {
    smooth(L[l], 32);
    return;
  }
  smooth(L[l], 2);
  residual(L[l]);
  const bool below = L.holds(l + 1);
  using Field = hcart::ComponentField<double>;
  const Field f_below = below ? L[l + 1].f : Field(), u_below = below ? L[l + 1].u : Field();
  if (below) Kokkos::deep_copy(u_below, 0.0);
  hcart::restrict_cells(levels, l + 1, L[l].r, f_below);
  if (below) {
    v_cycle(L, l + 1);
    L[l + 1].halo.exchange(hcart::HaloMode::Full, u_below); // trilinear: edges and corners
    fill_boundaries(L[l + 1]);
  }
  hcart::prolong_cells(levels, l + 1, u_below, L[l].u);
  smooth(L[l], 2);
}

int poisson_mg(hcart::Environment& env, int n) {
  // 1. The hierarchy: its options, the spec, level 0 decomposed so that its blocks nest.
  hcart::HierarchyOptions options; // cell-centred, halving every direction
  options.min_size = 8;            // down to 8^3 cells
  hcart::GridSpec spec;
  spec.global_size = {n, n, n};
  const hcart::GridHierarchy levels(MPI_COMM_WORLD, spec, options); // level 0 decomposed too

  // 2. Fields on every level this rank holds.
  Levels L(levels, [&](const hcart::Grid& grid, int l) {
    const double h = 1.0 / static_cast<double>(levels.global_size(l)[0]);
    return Fields{grid.make_components<double>("u", kRhs), grid.make_components<double>("f", kRhs),
                  grid.make_components<double>("r", kRhs), h * h};
  });
  if (env.rank() == 0) {
    for (const std::string& line : levels.describe())
      std::printf("poisson_mg: %s\n", line.c_str());
  }

  // 3. The right-hand sides on the finest level.
  const hcart::Grid& fine = levels.grid(0);
  const double h = 1.0 / n;
  const long long gi = fine.global_index(0, 0), gj = fine.global_index(1, 0), gk = fine.global_index(2, 0);
  hcart::for_each_cell("rhs", fine.owned_box(), RightHandSide{L[0].f, gi, gj, gk, h});

  // 4. Cycles until every residual fell by 1e-8, each norm the same on every rank.
  auto norms = [&] {
    residual(L[0]);
    hcart::ReductionArray<double, kRhs> m{};
    hcart::reduce_cells("norm", fine.owned_box(), MaxResidual{L[0].r}, hcart::Maxima<double, kRhs>(m));
    hcart::max_over_ranks(fine.decomposition().comm(), m);
    return m;
  };
  const auto first = norms();
  auto last = first;
  int cycles = 0;
  double worst_rate = 0;
  while (cycles < 30) {
    v_cycle(L, 0);
    ++cycles;
    const auto now = norms();
    bool done = true;
    for (int c = 0; c < kRhs; ++c) {
      worst_rate = std::max(worst_rate, now[c] / last[c]);
      done = done && now[c] < 1e-8 * first[c];
    }
    last = now;
    if (done) break;
  }

  // 5. The checks: the convergence rate, and the error against the exact solution.
  hcart::ReductionArray<double, kRhs> error{};
  hcart::reduce_cells("error", fine.owned_box(), MaxError{L[0].u, gi, gj, gk, h},
                      hcart::Maxima<double, kRhs>(error));
  hcart::max_over_ranks(fine.decomposition().comm(), error);
  bool ok = worst_rate < 0.25;
  for (int c = 0; c < kRhs; ++c)
    ok = ok && error[c] < 2.0 * (c + 1) * h * h; // second order: about 0.82 (c + 1) h^2
  if (env.rank() == 0) {
    std::printf("poisson_mg: %d^3 cells, %d ranks, %d cycles, worst residual reduction %.3f a "
                "cycle, errors %.3e %.3e %.3e (h^2 = %.3e), checksum %.17g\n",
                n, env.size(), cycles, worst_rate, error[0], error[1], error[2], h * h, last[0]);
    std::printf("poisson_mg: %s\n", ok ? "ok" : "FAILED");
  }
  return ok ? 0 : 1;
}

int main(int argc, char* argv[]) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 64;
  return hcart::run_main(argc, argv, "poisson_mg",
                         [&](hcart::Environment& env) { return poisson_mg(env, n); });
}
