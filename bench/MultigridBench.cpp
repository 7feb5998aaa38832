// Jacobi3D's multigrid against a plain serial multigrid with the same arithmetic, and
// against the Jacobi solver (issue targets in docs/benchmarks.md):
//   hcart-mpiexec -n 1 build/bin/hcart-bench-multigrid --plain [--size 127] [--repeats 7]
//     a V-cycle of hcart's solver (hcart::Multigrid through jacobi::Multigrid: the grid
//     hierarchy, the launchers, the exchangers, the level transfers) against the same
//     V-cycle written as plain loops over plain arrays (below), the two in turn, same
//     process; first a check that both give the same bits after 3 cycles.
//   hcart-mpiexec -n 1 build/bin/hcart-bench-multigrid --jacobi [--size 63]
//     time to solution: multigrid to a true residual of 1e-10 of the first, against the
//     Jacobi solver run until its true residual is as small (checked every 500 iterations),
//     and the figure of merit HPGMG-FV reports (unknowns solved per second).
//   hcart-mpiexec -n P build/bin/hcart-bench-multigrid --levels [--size 127]
//     one V-cycle's time per level (the coarse levels' share) and the halo and agglomeration
//     bytes per machine level, with agglomeration (machine and stride) and without.
//   hcart-mpiexec -n P build/bin/hcart-bench-multigrid --fmg [--size 128] [--repeats 7]
//   hcart-mpiexec -n P build/bin/hcart-bench-multigrid --variable [--size 128] [--repeats 7]
//     hcart::Multigrid on cell-centred levels, -Delta u = f with u = sin pi x sin pi y sin pi z
//     on the unit cube (Dirichlet): full multigrid (one and two V-cycles a level) against
//     V-cycles to 1e-10 of the first residual, from zero, in turn: time, unknowns per second
//     and the error against the continuum's u.
#include "BenchTiming.hpp"
#include "Multigrid.hpp"
#include "PoissonMultigrid.hpp"
#include "PoissonRhs.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/core/HostClones.hpp>
#include <hcart/hcart.hpp>
#include <hcart/impl/solvers/MultigridKernels.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;
using hcart::bench::stats;
using Stencil = hcart::impl::MultigridStencil;

// ---- The plain multigrid: the same cycle and point arithmetic on plain arrays ------------
// The solver's operator -Delta_h on n^3 unknowns of the unit cube (n + 1 intervals).
Stencil unit_cube_stencil(long n) {
  const double m = static_cast<double>(n + 1);
  return hcart::impl::multigrid_stencil(0.0, 1.0, m, m, m, 1.0, 1.0, 1.0);
}

// A level of n^3 unknowns with one layer of boundary points around them (index 0 and n + 1),
// (n + 2)^3 values, k fastest.
struct PlainLevel {
  long n = 0;
  std::vector<double> u, f, r;
  Stencil s;
  long at(long i, long j, long k) const { return (i * (n + 2) + j) * (n + 2) + k; }
};

// One colour of red-black Gauss-Seidel: the unknowns whose global indices (the array index
// - 1) sum to the colour's parity.
HCART_HOST_CLONES void plain_colour(PlainLevel& L, int colour) {
  const long n = L.n, sj = n + 2, si = sj * sj;
  double* u = L.u.data();
  const double* f = L.f.data();
  for (long i = 1; i <= n; ++i)
    for (long j = 1; j <= n; ++j) {
      const long first = 1 + ((i - 1 + j - 1 + colour) & 1);
      for (long k = first; k <= n; k += 2) {
        const long c = L.at(i, j, k);
        u[c] = hcart::impl::multigrid_point(u[c - si], u[c + si], u[c - sj], u[c + sj], u[c - 1],
                                            u[c + 1], f[c], L.s);
      }
    }
}

HCART_HOST_CLONES void plain_residual(PlainLevel& L) {
  const long n = L.n, sj = n + 2, si = sj * sj;
  const double* u = L.u.data();
  const double* f = L.f.data();
  double* r = L.r.data();
  for (long i = 1; i <= n; ++i)
    for (long j = 1; j <= n; ++j)
      for (long k = 1; k <= n; ++k) {
        const long c = L.at(i, j, k);
        r[c] = hcart::impl::multigrid_residual(u[c - si], u[c + si], u[c - sj], u[c + sj], u[c - 1],
                                               u[c + 1], u[c], f[c], L.s);
      }
}

double weight(int offset) {
  return offset == 0 ? 0.5 : 0.25;
}

// Full weighting: coarse unknown c is fine unknown 2c + 1 (array indices c + 1 and 2c + 2).
HCART_HOST_CLONES void plain_restrict(const PlainLevel& fine, PlainLevel& coarse) {
  for (long i = 1; i <= coarse.n; ++i)
    for (long j = 1; j <= coarse.n; ++j)
      for (long k = 1; k <= coarse.n; ++k) {
        double sum = 0.0;
        for (int a = -1; a <= 1; ++a)
          for (int b = -1; b <= 1; ++b)
            for (int e = -1; e <= 1; ++e)
              sum += weight(a) * weight(b) * weight(e) *
                     fine.r[fine.at(2 * i + a, 2 * j + b, 2 * k + e)];
        coarse.f[coarse.at(i, j, k)] = sum;
      }
}

// Linear interpolation, added: a fine unknown g on a coarse one (odd g) takes it, one
// between two (even g) half of each.
HCART_HOST_CLONES void plain_prolong(const PlainLevel& coarse, PlainLevel& fine) {
  auto operands = [](long g, long* n, double* w) {
    const long half = (g - 1) >> 1;
    if ((g & 1) == 1) {
      n[0] = half + 1;
      w[0] = 1.0;
      return 1;
    }
    n[0] = half + 1;
    n[1] = half + 2;
    w[0] = w[1] = 0.5;
    return 2;
  };
  for (long i = 1; i <= fine.n; ++i) {
    long ni[2], nj[2], nk[2];
    double wi[2], wj[2], wk[2];
    const int ci = operands(i - 1, ni, wi);
    for (long j = 1; j <= fine.n; ++j) {
      const int cj = operands(j - 1, nj, wj);
      const auto point = [&](long k) {
        const int ck = operands(k - 1, nk, wk);
        double sum = 0.0;
        for (int a = 0; a < ci; ++a)
          for (int b = 0; b < cj; ++b)
            for (int e = 0; e < ck; ++e)
              sum += wi[a] * wj[b] * wk[e] * coarse.u[coarse.at(ni[a], nj[b], nk[e])];
        const long c = fine.at(i, j, k);
        fine.u[c] = fine.u[c] + sum;
      };
      // k = 1 (g = 0, between the boundary and coarse point 1), then pairs: g odd on coarse
      // point (g + 1) / 2, g + 1 halfway to the next (the same terms as point(k): w * 1 = w).
      point(1);
      const double* rows[4];
      double wab[4], half[4];
      int pairs = 0;
      for (int a = 0; a < ci; ++a)
        for (int b = 0; b < cj; ++b) {
          rows[pairs] = &coarse.u[coarse.at(ni[a], nj[b], 0)];
          wab[pairs] = wi[a] * wj[b];
          half[pairs] = wab[pairs] * 0.5;
          ++pairs;
        }
      double* row = &fine.u[fine.at(i, j, 0)];
      for (long k = 2; k + 1 <= fine.n; k += 2) {
        const long m = (k - 1 + 1) / 2; // coarse point of g = k - 1
        double on = 0.0, between = 0.0;
        for (int p = 0; p < pairs; ++p) {
          on += wab[p] * rows[p][m];
          between += half[p] * rows[p][m];
          between += half[p] * rows[p][m + 1];
        }
        row[k] = row[k] + on;
        row[k + 1] = row[k + 1] + between;
      }
    }
  }
}

class PlainMultigrid {
public:
  // Seconds in each kind of work, summed over the levels: smooth, residual, transfer.
  double seconds[3] = {0, 0, 0};
  PlainMultigrid(long n, long pre, long post) : m_pre(pre), m_post(post) {
    for (long m = n; m >= 1; m = (m - 1) / 2) {
      PlainLevel L;
      L.n = m;
      const auto cells = static_cast<std::size_t>((m + 2) * (m + 2) * (m + 2));
      L.u.assign(cells, 0.0);
      L.f.assign(cells, 0.0);
      L.r.assign(cells, 0.0);
      L.s = unit_cube_stencil(m);
      m_levels.push_back(std::move(L));
      if (m == 1) break;
    }
    // The manufactured right-hand side, as Jacobi3D sets it (PoissonRhs.hpp), negated: the
    // solver's -Delta u = f.
    PlainLevel& top = m_levels.front();
    std::vector<double> sine(static_cast<std::size_t>(n + 2));
    for (long g = -1; g <= n; ++g)
      sine[static_cast<std::size_t>(g + 1)] =
          hcart::jacobi::poisson_sine(hcart::jacobi::coordinate(g, n));
    for (long i = 0; i < n + 2; ++i)
      for (long j = 0; j < n + 2; ++j)
        for (long k = 0; k < n + 2; ++k)
          top.f[top.at(i, j, k)] = -hcart::jacobi::poisson_rhs_of_sines(
              sine[static_cast<std::size_t>(i)], sine[static_cast<std::size_t>(j)],
              sine[static_cast<std::size_t>(k)]);
  }
  std::size_t levels() const { return m_levels.size(); }
  PlainLevel& level(std::size_t l) { return m_levels[l]; }
  void cycle() { v_cycle(0); }
  const PlainLevel& top() const { return m_levels.front(); }

private:
  void smooth(std::size_t l, long sweeps) {
    const auto t0 = Clock::now();
    for (long s = 0; s < sweeps; ++s) {
      plain_colour(m_levels[l], 0);
      plain_colour(m_levels[l], 1);
    }
    seconds[0] += seconds_since(t0);
  }
  void v_cycle(std::size_t l) {
    if (l + 1 == m_levels.size()) {
      smooth(l, 4 * (m_levels[l].n + 1));
      return;
    }
    smooth(l, m_pre);
    auto t0 = Clock::now();
    plain_residual(m_levels[l]);
    seconds[1] += seconds_since(t0);
    PlainLevel& below = m_levels[l + 1];
    t0 = Clock::now();
    std::fill(below.u.begin(), below.u.end(), 0.0);
    plain_restrict(m_levels[l], below);
    seconds[2] += seconds_since(t0);
    v_cycle(l + 1);
    t0 = Clock::now();
    plain_prolong(below, m_levels[l]);
    seconds[2] += seconds_since(t0);
    smooth(l, m_post);
  }
  long m_pre, m_post;
  std::vector<PlainLevel> m_levels;
};

hcart::GridSpec cube(long n) {
  hcart::GridSpec spec;
  spec.global_size = {n, n, n};
  return spec;
}

// --fmg: f = 3 pi^2 sin sin sin at the cell centres of level 0, and the error of u against it.
constexpr double kPi = 3.14159265358979323846;
struct SineRhs {
  hcart::FieldAccessor<double> f;
  long long offset[3];
  double h;
  KOKKOS_INLINE_FUNCTION double exact(int i, int j, int k) const {
    return hcart::math::sin(kPi * (static_cast<double>(offset[0] + i) + 0.5) * h) *
           hcart::math::sin(kPi * (static_cast<double>(offset[1] + j) + 0.5) * h) *
           hcart::math::sin(kPi * (static_cast<double>(offset[2] + k) + 0.5) * h);
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    f(i, j, k) = 3 * kPi * kPi * exact(i, j, k);
  }
};
struct SineError {
  hcart::FieldAccessor<const double> u;
  SineRhs at;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k,
                                         hcart::ReductionArray<double, 1>& e) const {
    const double d = hcart::math::fabs(u(i, j, k) - at.exact(i, j, k));
    e[0] = d > e[0] ? d : e[0];
  }
};

// Full multigrid against V-cycles to 1e-10, each from zero on a new solver, in turn.
void compare_fmg(const hcart::Environment& env, long size, int repeats) {
  const hcart::GridHierarchy levels(MPI_COMM_WORLD, cube(size), hcart::HierarchyOptions{});
  const hcart::Grid& grid = levels.grid(0); // cell-centred, down to 2 cells
  struct Way {
    const char* name;
    int fmg_cycles; // 0: V-cycles to 1e-10
    std::vector<double> seconds;
    double error = 0;
    long cycles = 0;
  };
  std::vector<Way> ways = {{"V-cycles to 1e-10", 0, {}},
                           {"FMG, 1 V-cycle a level", 1, {}},
                           {"FMG, 2 V-cycles a level", 2, {}}};
  for (int r = 0; r < repeats; ++r) {
    for (Way& way : ways) {
      hcart::Multigrid mg(levels);
      const SineRhs rhs{hcart::accessor(mg.rhs()),
                        {grid.global_index(0, 0), grid.global_index(1, 0), grid.global_index(2, 0)},
                        1.0 / static_cast<double>(size)};
      hcart::for_each_cell("fmg rhs", grid.owned_box(), rhs);
      hcart::fence("fmg rhs");
      MPI_Barrier(MPI_COMM_WORLD);
      const auto t0 = Clock::now();
      if (way.fmg_cycles == 0) {
        const hcart::MultigridResult result = mg.solve(1e-10, 50);
        HCART_CHECK(result.converged, "the V-cycles did not converge in 50");
        way.cycles = result.cycles;
      } else {
        mg.full_multigrid(way.fmg_cycles);
        hcart::fence("fmg");
      }
      double t = seconds_since(t0);
      MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      way.seconds.push_back(t);
      hcart::ReductionArray<double, 1> e{};
      hcart::reduce_cells("fmg error", grid.owned_box(),
                          SineError{hcart::accessor(mg.solution()), rhs},
                          hcart::Maxima<double, 1>(e));
      hcart::max_over_ranks(MPI_COMM_WORLD, e);
      way.error = e[0];
    }
  }
  if (env.rank() == 0) {
    const double unknowns = static_cast<double>(size) * size * size;
    std::printf("%d ranks, %ld^3 cells, %d levels, %d repeats in turn; max |u - exact|:\n",
                env.size(), size, levels.size(), repeats);
    for (const Way& way : ways) {
      const auto t = stats(way.seconds);
      std::printf("  %-26s min %7.3f s  median %7.3f s  %6.2f M unknowns/s  error %.4e%s\n",
                  way.name, t.min, t.median, unknowns / t.median / 1e6, way.error,
                  way.fmg_cycles == 0 ? (" (" + std::to_string(way.cycles) + " cycles)").c_str()
                                      : "");
    }
  }
}

// --variable: -div(beta grad u) = 1 on the unit cube, Dirichlet, cell-centred, beta constant
// (the options'), linear (1 to 4 across the cube) or a contrast of 10 or 100 across a sphere's
// smooth edge; V-cycles to 1e-10 (at most 40), each from zero on a new solver, in turn.
struct Beta {
  int kind; // 1: linear, 2 and 3: a sphere of contrast 10 and 100
  long long offset[3];
  double h;
  hcart::FieldAccessor<double> alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double x = (static_cast<double>(offset[0] + i) + 0.5) * h;
    const double y = (static_cast<double>(offset[1] + j) + 0.5) * h;
    const double z = (static_cast<double>(offset[2] + k) + 0.5) * h;
    alpha(i, j, k) = 0;
    if (kind == 1) {
      beta(i, j, k) = 1 + x + y + z;
    } else {
      const double r =
          hcart::math::sqrt((x - 0.5) * (x - 0.5) + (y - 0.5) * (y - 0.5) + (z - 0.5) * (z - 0.5));
      const double contrast = kind == 2 ? 10 : 100;
      beta(i, j, k) = 1 + (contrast - 1) / (1 + hcart::math::exp(-2 * (0.3 - r) / 0.05)); // tanh
    }
  }
};
struct One {
  hcart::FieldAccessor<double> f;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { f(i, j, k) = 1; }
};

void compare_variable(const hcart::Environment& env, long size, int repeats) {
  const hcart::GridHierarchy levels(MPI_COMM_WORLD, cube(size), hcart::HierarchyOptions{});
  const hcart::Grid& grid = levels.grid(0); // cell-centred, down to 2 cells
  struct Way {
    const char* name;
    int kind; // 0: constant (the options)
    std::vector<double> seconds;
    long cycles = 0;
    double reduction = 0; // the last residual over the first
    bool cg = false;      // MultigridOptions::conjugate_gradients
  };
  std::vector<Way> ways = {{"beta = 1 (constant)", 0, {}},
                           {"beta = 1 + x + y + z", 1, {}},
                           {"beta 1 to 10 across a sphere", 2, {}},
                           {"beta 1 to 100 across a sphere", 3, {}},
                           {"the same, conjugate gradients", 3, {}, 0, 0, true}};
  const auto alpha = grid.make_field<double>("alpha");
  const auto beta = grid.make_field<double>("beta");
  for (int r = 0; r < repeats; ++r) {
    for (Way& way : ways) {
      hcart::MultigridOptions o;
      o.conjugate_gradients = way.cg;
      hcart::Multigrid mg(levels, o);
      hcart::for_each_cell("rhs", grid.owned_box(), One{hcart::accessor(mg.rhs())});
      MPI_Barrier(MPI_COMM_WORLD);
      const auto t0 = Clock::now();
      if (way.kind != 0) {
        hcart::for_each_cell(
            "beta", grid.owned_box(),
            Beta{way.kind,
                 {grid.global_index(0, 0), grid.global_index(1, 0), grid.global_index(2, 0)},
                 1.0 / static_cast<double>(size),
                 hcart::accessor(alpha),
                 hcart::accessor(beta)});
        mg.set_coefficients(alpha, beta);
      }
      const hcart::MultigridResult result = mg.solve(1e-10, 40);
      way.cycles = result.cycles;
      way.reduction = result.residual / result.initial_residual;
      double t = seconds_since(t0);
      MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      way.seconds.push_back(t);
    }
  }
  if (env.rank() == 0) {
    std::printf("%d ranks, %ld^3 cells, %d levels, V(2,2) red-black to 1e-10, %d repeats in "
                "turn (set_coefficients in the time):\n",
                env.size(), size, levels.size(), repeats);
    for (const Way& way : ways) {
      const auto t = stats(way.seconds);
      std::printf("  %-30s %3ld cycles (residual %.1e of the first)  min %7.3f s  median "
                  "%7.3f s\n",
                  way.name, way.cycles, way.reduction, t.min, t.median);
    }
  }
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-multigrid", [&](hcart::Environment& env) {
    CLI::App app{"Jacobi3D's multigrid benchmarks"};
    long size = 0;
    int repeats = 7;
    bool plain = false, jacobi = false, levels_mode = false, fmg = false;
    app.add_option("--size", size,
                   "unknowns per direction (2^k - 1; default 127, 63 with --jacobi)");
    app.add_option("--repeats", repeats)->capture_default_str();
    app.add_flag("--plain", plain, "a V-cycle against the plain serial multigrid");
    app.add_flag("--jacobi", jacobi, "time to solution against the Jacobi solver");
    app.add_flag("--levels", levels_mode, "a V-cycle per level, with and without agglomeration");
    app.add_flag("--fmg", fmg, "full multigrid against V-cycles to 1e-10 (cell-centred, 128^3)");
    bool variable = false;
    app.add_flag("--variable", variable,
                 "variable coefficients against constant ones: V-cycles to 1e-10 (cell-centred, "
                 "128^3)");
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    if (variable) {
      compare_variable(env, size == 0 ? 128 : size, repeats);
      return 0;
    }
    if (fmg) {
      compare_fmg(env, size == 0 ? 128 : size, repeats);
      return 0;
    }
    if (size == 0) size = jacobi ? 63 : 127;
    const bool root = env.rank() == 0;
    if (plain) {
      HCART_REQUIRE(env.size() == 1, "hcart-bench-multigrid --plain: 1 rank, not " << env.size());
      const hcart::jacobi::Settings settings = hcart::bench::poisson_multigrid(0, 1000);
      const hcart::HierarchyOptions h = hcart::jacobi::hierarchy_options(settings.multigrid);
      const hcart::Decomposition decomp(MPI_COMM_WORLD, hcart::nested_spec(cube(size), h));
      const hcart::GridHierarchy levels(decomp, h);
      hcart::Timers timers;
      hcart::jacobi::Multigrid mg(levels, settings, timers);
      PlainMultigrid reference(size, settings.multigrid.pre_smooth, settings.multigrid.post_smooth);
      HCART_CHECK(reference.levels() == static_cast<std::size_t>(levels.size()),
                  "the plain multigrid has " << reference.levels() << " levels, hcart's "
                                             << levels.size());
      // The same bits after 3 cycles.
      mg.cycles(3);
      for (int c = 0; c < 3; ++c)
        reference.cycle();
      const auto u = hcart::host_copy(mg.solution());
      const hcart::Grid& g = levels.grid(0);
      long differ = 0;
      for (long i = 0; i < size; ++i)
        for (long j = 0; j < size; ++j)
          for (long k = 0; k < size; ++k) {
            const double a = u(i + g.halo_width()[0], j + g.halo_width()[1], k + g.halo_width()[2]);
            const double b = reference.top().u[reference.top().at(i + 1, j + 1, k + 1)];
            differ += std::memcmp(&a, &b, sizeof a) != 0;
          }
      HCART_CHECK(differ == 0, "hcart's multigrid and the plain one differ in "
                                   << differ << " unknowns after 3 cycles");
      std::vector<double> t_hcart, t_plain, ratio;
      for (int r = 0; r < repeats; ++r) {
        const auto run_hcart = [&] {
          const auto t0 = Clock::now();
          for (int c = 0; c < 3; ++c)
            mg.run_cycle();
          t_hcart.push_back(seconds_since(t0) / 3);
        };
        const auto run_plain = [&] {
          const auto t0 = Clock::now();
          for (int c = 0; c < 3; ++c)
            reference.cycle();
          t_plain.push_back(seconds_since(t0) / 3);
        };
        if (r % 2 == 0) {
          run_hcart();
          run_plain();
        } else {
          run_plain();
          run_hcart();
        }
        ratio.push_back(t_hcart.back() / t_plain.back());
      }
      const auto a = stats(t_hcart), b = stats(t_plain), c = stats(ratio);
      // Where the time goes, per cycle (every cycle timed above and the 3 checked).
      double kinds[4] = {0, 0, 0, 0}; // smooth, residual, transfers, halo
      for (const auto& region : timers.summarize(MPI_COMM_WORLD)) {
        const char* names[5] = {" smooth", " residual", " restrict", " halo", " prolong"};
        for (int x = 0; x < 5; ++x) {
          const std::string& n = region.name;
          if (n.rfind("mg level", 0) == 0 && n.size() >= std::strlen(names[x]) &&
              n.compare(n.size() - std::strlen(names[x]), std::strlen(names[x]), names[x]) == 0)
            kinds[x == 4 ? 2 : x] += region.max; // prolong: a transfer too
        }
      }
      const double cycles_run = 3.0 + 3.0 * repeats;
      std::printf("%ld^3 unknowns, %d levels, V(2,2) red-black; the same bits after 3 cycles\n",
                  size, levels.size());
      std::printf("hcart V-cycle                           min %8.3f ms  median %8.3f ms\n",
                  a.min * 1e3, a.median * 1e3);
      std::printf("plain serial V-cycle                    min %8.3f ms  median %8.3f ms\n",
                  b.min * 1e3, b.median * 1e3);
      std::printf("ratio hcart / plain                     min %8.3f     median %8.3f\n", c.min,
                  c.median);
      // The two kernels of the finest level that take most of a cycle, on their own.
      {
        std::vector<double> hs, ps, hp, pp;
        const hcart::Grid& g0 = levels.grid(0);
        const hcart::Grid& g1 = levels.grid(1);
        auto u0 = g0.make_field<double>("u0"), f0 = g0.make_field<double>("f0");
        auto u1 = g1.make_field<double>("u1");
        const Stencil st = unit_cube_stencil(size);
        for (int r = 0; r < repeats; ++r) {
          auto t0 = Clock::now();
          // A sweep as the solver runs it: on the host both colours in one pass.
          const hcart::FieldAccessor<double> a0 = hcart::accessor(u0);
          const hcart::impl::MultigridPointValue<Stencil> point{a0, hcart::accessor(f0), st};
          if constexpr (hcart::host_execution) {
            hcart::for_each_red_black_interior("gs", g0, g0.owned_box(), a0, point);
            hcart::for_each_red_black_shell("gs", g0, g0.owned_box(), a0, point);
          } else {
            for (int colour = 0; colour < 2; ++colour)
              hcart::for_each_coloured_cell(
                  "gs", g0, g0.owned_box(), colour,
                  hcart::impl::StorePoint<double, hcart::impl::MultigridPointValue<Stencil>>{
                      a0, point});
          }
          hcart::fence("gs");
          hs.push_back(seconds_since(t0));
          t0 = Clock::now();
          plain_colour(reference.level(0), 0);
          plain_colour(reference.level(0), 1);
          ps.push_back(seconds_since(t0));
          t0 = Clock::now();
          hcart::prolong_cells(levels, 1, u1, u0);
          hcart::fence("prolong");
          hp.push_back(seconds_since(t0));
          t0 = Clock::now();
          plain_prolong(reference.level(1), reference.level(0));
          pp.push_back(seconds_since(t0));
        }
        std::printf("finest level alone, hcart / plain: a red-black sweep %.2f / %.2f ms, the "
                    "prolongation onto it %.2f / %.2f ms (medians)\n",
                    stats(hs).median * 1e3, stats(ps).median * 1e3, stats(hp).median * 1e3,
                    stats(pp).median * 1e3);
      }
      std::printf("per cycle, hcart / plain: smoothing %.2f / %.2f ms, residuals %.2f / %.2f ms, "
                  "transfers %.2f / %.2f ms, halos %.2f / - ms\n",
                  kinds[0] / cycles_run * 1e3, reference.seconds[0] / cycles_run * 1e3,
                  kinds[1] / cycles_run * 1e3, reference.seconds[1] / cycles_run * 1e3,
                  kinds[2] / cycles_run * 1e3, reference.seconds[2] / cycles_run * 1e3,
                  kinds[3] / cycles_run * 1e3);
    }
    if (jacobi) {
      const hcart::jacobi::Settings settings = hcart::bench::poisson_multigrid(0, 1000);
      const hcart::HierarchyOptions h = hcart::jacobi::hierarchy_options(settings.multigrid);
      const hcart::Decomposition decomp(MPI_COMM_WORLD, hcart::nested_spec(cube(size), h));
      const hcart::GridHierarchy levels(decomp, h);
      hcart::Timers timers;
      hcart::jacobi::Multigrid mg(levels, settings, timers);
      const hcart::jacobi::Result solved = mg.run();
      const double target = mg.initial_residual() * settings.tolerance;
      // Jacobi on the same problem and decomposition, its true residual every 500 iterations
      // (the multigrid solver's norm of its field, without a cycle).
      hcart::jacobi::Settings js;
      js.problem = hcart::jacobi::Problem::Poisson;
      js.iterations_per_pass = 0;
      js.check_every = 500;
      js.tolerance = 0;
      js.max_iterations = 1000000000;
      const hcart::jacobi::Passes passes = hcart::jacobi::plan_passes(js, decomp);
      const hcart::Grid grid(decomp, passes.halo_width);
      hcart::Timers jt;
      hcart::jacobi::Solver solver(grid, js, passes.iterations_per_pass, jt);
      hcart::jacobi::Multigrid probe(levels, settings, timers); // its norm, for Jacobi's field
      double jacobi_seconds = 0, residual = 0;
      long iterations = 0;
      do {
        jacobi_seconds += solver.iterate(500).seconds;
        iterations += 500;
        // The true residual of Jacobi's field: copy it into the probe's finest level.
        auto into = probe.solution();
        const hcart::Box owned = levels.grid(0).owned_box();
        Kokkos::deep_copy(Kokkos::subview(into, std::make_pair(owned.lo[0], owned.hi[0]),
                                          std::make_pair(owned.lo[1], owned.hi[1]),
                                          std::make_pair(owned.lo[2], owned.hi[2])),
                          Kokkos::subview(solver.solution(),
                                          std::make_pair(grid.owned(0).begin, grid.owned(0).end),
                                          std::make_pair(grid.owned(1).begin, grid.owned(1).end),
                                          std::make_pair(grid.owned(2).begin, grid.owned(2).end)));
        residual = probe.residual_norm();
      } while (residual > target && jacobi_seconds < 600);
      if (root) {
        std::printf("%ld^3 unknowns, %d ranks; to a true residual max |f - Au| of %.3e (1e-10 of "
                    "the first):\n",
                    size, env.size(), target);
        std::printf("multigrid  %ld cycles     %9.3f s  %8.2f MDOF/s (unknowns / solve time)\n",
                    solved.iterations, solved.seconds,
                    double(size) * size * size / solved.seconds / 1e6);
        std::printf("jacobi     %ld iterations %9.3f s%s  (%.0fx the multigrid's time)\n",
                    iterations, jacobi_seconds,
                    residual > target ? " (stopped at 600 s: not there)" : "",
                    jacobi_seconds / solved.seconds);
      }
    }
    if (levels_mode) {
      struct Mode {
        const char* name;
        hcart::jacobi::MultigridSettings::Agglomeration rule;
      };
      for (const Mode& mode :
           {Mode{"agglomeration by the machine",
                 hcart::jacobi::MultigridSettings::Agglomeration::Machine},
            Mode{"agglomeration by stride",
                 hcart::jacobi::MultigridSettings::Agglomeration::Stride},
            Mode{"no agglomeration", hcart::jacobi::MultigridSettings::Agglomeration::None}}) {
        hcart::jacobi::Settings settings = hcart::bench::poisson_multigrid(0, 1000);
        settings.multigrid.agglomeration = mode.rule;
        // Without agglomeration every level keeps every rank: as many levels as they can
        // hold (one fewer after each InputError, which every rank sees).
        std::unique_ptr<hcart::Decomposition> decomp;
        std::unique_ptr<hcart::GridHierarchy> hierarchy;
        while (!hierarchy) {
          const hcart::HierarchyOptions h = hcart::jacobi::hierarchy_options(settings.multigrid);
          try {
            decomp = std::make_unique<hcart::Decomposition>(MPI_COMM_WORLD,
                                                            hcart::nested_spec(cube(size), h));
            hierarchy = std::make_unique<hcart::GridHierarchy>(*decomp, h);
          } catch (const hcart::InputError& e) {
            const int had = hcart::hierarchy_levels(cube(size), h);
            if (mode.rule != hcart::jacobi::MultigridSettings::Agglomeration::None || had <= 2) {
              if (root) std::printf("\n%s: %s\n", mode.name, e.what());
              break;
            }
            settings.multigrid.levels = had - 1;
          }
        }
        if (!hierarchy) continue;
        const hcart::GridHierarchy& levels = *hierarchy;
        hcart::Timers timers;
        hcart::jacobi::Multigrid mg(levels, settings, timers);
        mg.cycles(1);
        timers.clear();
        std::vector<double> t;
        for (int r = 0; r < repeats; ++r) {
          MPI_Barrier(MPI_COMM_WORLD);
          const auto t0 = Clock::now();
          mg.cycles(1);
          double s = seconds_since(t0);
          MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
          t.push_back(s);
        }
        const auto summary = timers.summarize(MPI_COMM_WORLD);
        const hcart::HaloCounters halo = mg.halo_counters();
        std::vector<long long> bytes(halo.bytes.begin(), halo.bytes.end());
        MPI_Allreduce(MPI_IN_PLACE, bytes.data(), static_cast<int>(bytes.size()), MPI_LONG_LONG,
                      MPI_SUM, MPI_COMM_WORLD);
        const hcart::TransferCounters& traffic = levels.transfer_counters();
        std::vector<long long> moved(traffic.bytes.begin(), traffic.bytes.end());
        MPI_Allreduce(MPI_IN_PLACE, moved.data(), static_cast<int>(moved.size()), MPI_LONG_LONG,
                      MPI_SUM, MPI_COMM_WORLD);
        if (root) {
          const auto c = stats(t);
          std::printf("\n%s, %d ranks, %ld^3: a V-cycle min %.3f ms, median %.3f ms\n", mode.name,
                      env.size(), size, c.min * 1e3, c.median * 1e3);
          for (const auto& line : levels.describe())
            std::printf("  %s\n", line.c_str());
          // Per level: the time of its regions (slowest rank, per cycle), its share.
          double cycle_total = 0;
          std::vector<double> per_level(static_cast<std::size_t>(levels.size()), 0.0);
          for (const auto& s : summary) {
            for (int l = 0; l < levels.size(); ++l) {
              if (s.name.rfind("mg level " + std::to_string(l) + " ", 0) == 0)
                per_level[static_cast<std::size_t>(l)] += s.max / repeats;
            }
          }
          for (const double x : per_level)
            cycle_total += x;
          for (int l = 0; l < levels.size(); ++l) {
            std::printf("  level %d: %.3f ms per cycle (%.1f%% of the levels' time)\n", l,
                        per_level[static_cast<std::size_t>(l)] * 1e3,
                        100 * per_level[static_cast<std::size_t>(l)] / cycle_total);
          }
          std::printf("  halo bytes by machine level (all ranks, %d cycles):", repeats + 1);
          for (std::size_t l = 0; l < bytes.size(); ++l)
            std::printf(" %s %lld", halo.level_names[l].c_str(), bytes[l]);
          std::printf("\n  transfer bytes by machine level (gathers and scatters, all ranks, %d "
                      "cycles):",
                      repeats + 1);
          for (std::size_t l = 0; l < moved.size(); ++l)
            std::printf(" %s %lld", traffic.level_names[l].c_str(), moved[l]);
          std::printf("\n");
        }
      }
    }
    return 0;
  });
}
