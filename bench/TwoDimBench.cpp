// A 2-D kernel at the same speed whichever way the mesh is given (issue: real codes' shapes;
// results and command in docs/benchmarks.md, "2-D meshes"). One update of a 2-D
// finite-volume code's kind: 4 variables, halo 2, a 4th-order face value on each side of a
// cell in x and in z, the flux differences added, written once as a user's functor through
// hcart::for_each_cell on a 2-D mesh of nx x nz cells given as
//   {nx, nz, 1}   x in i, z in j, one cell in k (the layout the tutorial used to show)
//   {nx, 1, nz}   x in i, z in k
//   {1, nz, nx}   z in j, x in k (x contiguous, as the plain loop)
// against the same arithmetic as a plain C loop over raw arrays (x contiguous), and the
// {nx, nz, 1} layout through Kokkos' 3D policy (LoopPattern::Portable: what for_each_cell did
// with a one-cell k before its rows could run along j):
//
//   hcart-mpiexec -n 1 build/bin/hcart-bench-2d [--nx 2048] [--nz 1024] [--repeats 7] [--sweeps 10]
//
// Every variant runs in turn, repeat by repeat (one rank); min / median per sweep, and each
// variant's median as a ratio to the plain loop's. Before timing, every variant's result is
// compared bit for bit with the plain loop's: one that computed something else stops the
// benchmark.
#include "BenchTiming.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/hcart.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;
using hcart::bench::stats;

constexpr int kVars = 4;
constexpr int kHalo = 2;
constexpr double kCourant = 0.3;

// The 4th-order face value between cells a, b (= a + 1) from a - 1, a, b, b + 1.
KOKKOS_FORCEINLINE_FUNCTION double face(double am, double a, double b, double bp) {
  return (-am + 7.0 * a + 7.0 * b - bp) * (1.0 / 12.0);
}
KOKKOS_FORCEINLINE_FUNCTION double update(double q, double xm2, double xm1, double xp1, double xp2,
                                          double zm2, double zm1, double zp1, double zp2) {
  const double fx_lo = face(xm2, xm1, q, xp1), fx_hi = face(xm1, q, xp1, xp2);
  const double fz_lo = face(zm2, zm1, q, zp1), fz_hi = face(zm1, q, zp1, zp2);
  return q - kCourant * (fx_hi - fx_lo) - kCourant * (fz_hi - fz_lo);
}

// The user's functor, for x in direction X and z in direction Z.
template <int X, int Z>
struct Update {
  hcart::FieldAccessor<const double> q0, q1, q2, q3;
  hcart::FieldAccessor<double> o0, o1, o2, o3;
  KOKKOS_FORCEINLINE_FUNCTION static double at(const hcart::FieldAccessor<const double>& f, int i,
                                               int j, int k, int sx, int sz) {
    return f(i + (X == 0 ? sx : 0) + (Z == 0 ? sz : 0), j + (X == 1 ? sx : 0) + (Z == 1 ? sz : 0),
             k + (X == 2 ? sx : 0) + (Z == 2 ? sz : 0));
  }
  KOKKOS_FORCEINLINE_FUNCTION static double cell(const hcart::FieldAccessor<const double>& f, int i,
                                                 int j, int k) {
    return update(f(i, j, k), at(f, i, j, k, -2, 0), at(f, i, j, k, -1, 0), at(f, i, j, k, 1, 0),
                  at(f, i, j, k, 2, 0), at(f, i, j, k, 0, -2), at(f, i, j, k, 0, -1),
                  at(f, i, j, k, 0, 1), at(f, i, j, k, 0, 2));
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    o0(i, j, k) = cell(q0, i, j, k);
    o1(i, j, k) = cell(q1, i, j, k);
    o2(i, j, k) = cell(q2, i, j, k);
    o3(i, j, k) = cell(q3, i, j, k);
  }
};

// The initial value of variable v at cell (x, z) of the mesh with its halo (x, z from 0).
double initial(int v, int x, int z) {
  return 1.0 + 0.25 * v + 1e-3 * ((x * 7 + z * 13 + v * 5) % 101);
}

// A layout's fields, its sweep and a reader of its result at (v, x, z).
struct Variant {
  std::string name;
  std::function<void()> sweep;
  std::function<double(int, int, int)> result;
};

template <int X, int Z>
Variant layout(const std::string& name, const std::array<std::int64_t, 3>& size,
               const std::array<int, 3>& halo, int nx, int nz, hcart::LoopPattern pattern,
               std::vector<std::shared_ptr<void>>& keep) {
  hcart::GridSpec spec;
  spec.global_size = size;
  spec.halo_width = halo;
  auto decomp = std::make_shared<hcart::Decomposition>(MPI_COMM_SELF, spec);
  auto grid = std::make_shared<hcart::Grid>(*decomp);
  keep.push_back(decomp);
  keep.push_back(grid);
  auto fields = std::make_shared<std::vector<hcart::Field<double>>>();
  keep.push_back(fields);
  for (int v = 0; v < 2 * kVars; ++v)
    fields->push_back(grid->make_field<double>("f" + std::to_string(v)));
  const auto index = [](int x, int z, int j_if_none) {
    std::array<int, 3> c{j_if_none, j_if_none, j_if_none};
    c[X] = x;
    c[Z] = z;
    return c;
  };
  for (int v = 0; v < kVars; ++v) {
    auto host = hcart::host_mirror((*fields)[static_cast<std::size_t>(v)]);
    for (int x = 0; x < nx + 2 * kHalo; ++x)
      for (int z = 0; z < nz + 2 * kHalo; ++z) {
        const auto c = index(x, z, 0);
        host(c[0], c[1], c[2]) = initial(v, x, z);
      }
    Kokkos::deep_copy((*fields)[static_cast<std::size_t>(v)], host);
  }
  const auto& f = *fields;
  const Update<X, Z> kernel{hcart::accessor(f[0]), hcart::accessor(f[1]), hcart::accessor(f[2]),
                            hcart::accessor(f[3]), hcart::accessor(f[4]), hcart::accessor(f[5]),
                            hcart::accessor(f[6]), hcart::accessor(f[7])};
  const hcart::Box box = grid->owned_box();
  Variant out;
  out.name = name;
  out.sweep = [kernel, box, pattern] {
    hcart::for_each_cell("update_2d", box, kernel, pattern);
    hcart::fence("update_2d");
  };
  out.result = [fields, index](int v, int x, int z) {
    auto host = hcart::host_copy((*fields)[static_cast<std::size_t>(kVars + v)]);
    const auto c = index(x, z, 0);
    return host(c[0], c[1], c[2]);
  };
  return out;
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-2d", [&](hcart::Environment& env) {
    int nx = 2048, nz = 1024, repeats = 7, sweeps = 10;
    CLI::App app{"hcart-bench-2d: a 2-D kernel on {nx, nz, 1}, {nx, 1, nz}, {1, nz, nx} and as a "
                 "plain loop"};
    app.add_option("--nx", nx, "cells in x")->check(CLI::PositiveNumber);
    app.add_option("--nz", nz, "cells in z")->check(CLI::PositiveNumber);
    app.add_option("--repeats", repeats, "timed repeats")->check(CLI::PositiveNumber);
    app.add_option("--sweeps", sweeps, "sweeps per repeat")->check(CLI::PositiveNumber);
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    if (env.rank() != 0) return 0; // one rank's work: the others have none

    // The plain loop: x contiguous, raw arrays with the halo.
    const int sx = nx + 2 * kHalo, sz = nz + 2 * kHalo;
    std::vector<std::vector<double>> q(kVars), o(kVars);
    for (int v = 0; v < kVars; ++v) {
      q[v].resize(static_cast<std::size_t>(sx) * sz);
      o[v].assign(q[v].size(), 0.0);
      for (int z = 0; z < sz; ++z)
        for (int x = 0; x < sx; ++x)
          q[v][static_cast<std::size_t>(z) * sx + x] = initial(v, x, z);
    }
    Variant plain;
    plain.name = "plain loop (x contiguous)";
    plain.sweep = [&] { // one pass, the 4 variables of a cell together (as the functor)
      const double *a0 = q[0].data(), *a1 = q[1].data(), *a2 = q[2].data(), *a3 = q[3].data();
      double *b0 = o[0].data(), *b1 = o[1].data(), *b2 = o[2].data(), *b3 = o[3].data();
      const auto cell = [sx](const double* a, std::int64_t c) {
        return update(a[c], a[c - 2], a[c - 1], a[c + 1], a[c + 2], a[c - 2 * sx], a[c - sx],
                      a[c + sx], a[c + 2 * sx]);
      };
      for (int z = kHalo; z < nz + kHalo; ++z)
        for (int x = kHalo; x < nx + kHalo; ++x) {
          const std::int64_t c = static_cast<std::int64_t>(z) * sx + x;
          b0[c] = cell(a0, c);
          b1[c] = cell(a1, c);
          b2[c] = cell(a2, c);
          b3[c] = cell(a3, c);
        }
    };
    plain.result = [&](int v, int x, int z) { return o[v][static_cast<std::size_t>(z) * sx + x]; };

    std::vector<std::shared_ptr<void>> keep;
    std::vector<Variant> variants{plain};
    variants.push_back(layout<0, 1>(
        "{nx, nz, 1}", {nx, nz, 1}, {kHalo, kHalo, 0}, nx, nz,
        hcart::loop_pattern_for(hcart::Box{{kHalo, kHalo, 0}, {kHalo + nx, kHalo + nz, 1}}), keep));
    variants.push_back(layout<0, 2>(
        "{nx, 1, nz}", {nx, 1, nz}, {kHalo, 0, kHalo}, nx, nz,
        hcart::loop_pattern_for(hcart::Box{{kHalo, 0, kHalo}, {kHalo + nx, 1, kHalo + nz}}), keep));
    variants.push_back(layout<2, 1>(
        "{1, nz, nx}", {1, nz, nx}, {0, kHalo, kHalo}, nx, nz,
        hcart::loop_pattern_for(hcart::Box{{0, kHalo, kHalo}, {1, kHalo + nz, kHalo + nx}}), keep));
    variants.push_back(layout<0, 1>("{nx, nz, 1} 3D policy (before)", {nx, nz, 1},
                                    {kHalo, kHalo, 0}, nx, nz, hcart::LoopPattern::Portable, keep));

    // Same bits as the plain loop, every owned cell.
    for (Variant& v : variants)
      v.sweep();
    for (std::size_t n = 1; n < variants.size(); ++n) {
      long wrong = 0;
      for (int v = 0; v < kVars; ++v)
        for (int x = kHalo; x < nx + kHalo; ++x)
          for (int z = kHalo; z < nz + kHalo; ++z)
            wrong += variants[n].result(v, x, z) != plain.result(v, x, z) ? 1 : 0;
      HCART_CHECK(wrong == 0, "hcart-bench-2d: " << variants[n].name << " differs from the plain "
                                                 << "loop in " << wrong << " values");
    }

    std::vector<std::vector<double>> times(variants.size());
    for (int r = 0; r < repeats; ++r)
      for (std::size_t n = 0; n < variants.size(); ++n) {
        const auto t0 = Clock::now();
        for (int s = 0; s < sweeps; ++s)
          variants[n].sweep();
        times[n].push_back(seconds_since(t0) / sweeps);
      }
    const double plain_median = stats(times[0]).median;
    std::printf("hcart-bench-2d: %d x %d cells, %d variables, halo %d, %s, %d repeats of %d "
                "sweeps (bitwise equal to the plain loop)\n",
                nx, nz, kVars, kHalo, hcart::execution_space_name().c_str(), repeats, sweeps);
    std::printf("%-34s %10s %10s %14s\n", "variant", "min ms", "median ms", "median / plain");
    for (std::size_t n = 0; n < variants.size(); ++n) {
      const auto s = stats(times[n]);
      std::printf("%-34s %10.3f %10.3f %14.3f\n", variants[n].name.c_str(), 1e3 * s.min,
                  1e3 * s.median, s.median / plain_median);
    }
    return 0;
  });
}
