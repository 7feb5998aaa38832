// The periodic self-copy's benchmark (docs/benchmarks.md): one rank, every direction
// periodic, so the whole exchange is local copies (no MPI), against a plain copy of the same
// cells as a user writes it.
//   build/bin/hcart-mpiexec -n 1 build/bin/hcart-bench-self-copy [--size 96] [--repeats 7]
//                                                                [--iterations 10]
// Both fill the same halo cells of 19 double fields, one layer deep, in Full mode's
// order (x faces over the owned y and z; y over the x halo too; z over everything), so that
// edges and corners come out the same. The plain copy is three loops per field and direction
// on raw pointers, both sides in one pass, the outer loop over the host's threads; hcart's is
// one exchange of all fields bound once. The run checks that both fill every halo cell with
// the same bits, then times them repeat by repeat in turn; the exchange's share in a step is
// reported against a 7-point sweep of every field (the update an LBM-like code does per
// step is heavier: the share is an upper bound there).
#include "BenchTiming.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/hcart.hpp>

#include <CLI/CLI.hpp>

#include <array>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;
using hcart::bench::stats;

constexpr int kFields = 19;
using Fields = std::array<hcart::Field<double>, kFields>;

// Full mode's periodic fill of one field, halo 1, as plain loops on the host's threads.
void plain_copy(const hcart::Field<double>& u, std::array<int, 3> n) {
  double* const p = u.data();
  const std::int64_t si = static_cast<std::int64_t>(u.stride(0));
  const std::int64_t sj = static_cast<std::int64_t>(u.stride(1));
  const int nx = n[0], ny = n[1], nz = n[2];
  using Host = Kokkos::DefaultHostExecutionSpace;
  // x: the two halo planes, over the owned j and k.
  Kokkos::parallel_for("plain_x", Kokkos::RangePolicy<Host>(1, ny + 1), [=](int j) {
    double* lo = p + j * sj;
    const double* from_hi = p + nx * si + j * sj;
    double* hi = p + (nx + 1) * si + j * sj;
    const double* from_lo = p + 1 * si + j * sj;
    for (int k = 1; k <= nz; ++k) {
      lo[k] = from_hi[k];
      hi[k] = from_lo[k];
    }
  });
  // y: over every i (the x halo included), the owned k.
  Kokkos::parallel_for("plain_y", Kokkos::RangePolicy<Host>(0, nx + 2), [=](int i) {
    double* row = p + i * si;
    for (int k = 1; k <= nz; ++k) {
      row[k] = row[ny * sj + k];
      row[(ny + 1) * sj + k] = row[sj + k];
    }
  });
  // z: over every i and j.
  Kokkos::parallel_for("plain_z", Kokkos::RangePolicy<Host>(0, nx + 2), [=](int i) {
    for (int j = 0; j < ny + 2; ++j) {
      double* row = p + i * si + j * sj;
      row[0] = row[nz];
      row[nz + 1] = row[1];
    }
  });
  hcart::fence("plain_copy");
}

// A distinct value per cell and field, on the owned cells; the halo set to -1.
struct Seed {
  hcart::Field<double> u;
  int field;
  Kokkos::Array<int, 3> n;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const bool owned = i >= 1 && i <= n[0] && j >= 1 && j <= n[1] && k >= 1 && k <= n[2];
    u(i, j, k) = owned ? field * 1e7 + i * 1e4 + j * 1e2 + k : -1.0;
  }
};

struct SevenPoint {
  hcart::Field<double> u, v;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    v(i, j, k) = (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) + u(i, j + 1, k) +
                  u(i, j, k - 1) + u(i, j, k + 1)) *
                 (1.0 / 6.0);
  }
};

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-self-copy", [&](hcart::Environment& env) {
    CLI::App app{"hcart periodic self-copy benchmark (one rank)"};
    int size = 96, repeats = 7, iterations = 10;
    app.add_option("--size", size, "cells per direction")->capture_default_str();
    app.add_option("--repeats", repeats, "timed repeats")->capture_default_str();
    app.add_option("--iterations", iterations, "exchanges per repeat")->capture_default_str();
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    if (env.rank() != 0) return 0; // one rank's work: the others have none
    hcart::GridSpec spec;
    spec.global_size = {size, size, size};
    spec.halo_width = {1, 1, 1};
    spec.periodic = {true, true, true};
    const hcart::Decomposition decomp(MPI_COMM_SELF, spec);
    const hcart::Grid grid(decomp);
    const auto n = grid.local_size();
    Fields f, g;
    for (int c = 0; c < kFields; ++c) {
      f[c] = grid.make_field<double>("f" + std::to_string(c));
      g[c] = grid.make_field<double>("g" + std::to_string(c));
    }
    const Kokkos::Array<int, 3> nn{n[0], n[1], n[2]};
    auto seed = [&](Fields& fields) {
      for (int c = 0; c < kFields; ++c)
        hcart::for_each_cell("seed", grid.with_halo_box(), Seed{fields[c], c, nn});
      hcart::fence("seed");
    };
    hcart::HaloExchanger halo(grid, hcart::HaloMode::Full);
    hcart::HaloBinding bound =
        std::apply([&](const auto&... field) { return halo.bind(field...); }, f);
    // Both fill every halo cell with the same bits.
    seed(f);
    seed(g);
    bound.exchange();
    if constexpr (hcart::host_execution) {
      for (int c = 0; c < kFields; ++c)
        plain_copy(g[c], n);
      long differ = 0;
      for (int c = 0; c < kFields; ++c) {
        const std::size_t bytes = f[c].span() * sizeof(double);
        differ += std::memcmp(f[c].data(), g[c].data(), bytes) != 0;
      }
      std::printf("1 rank, %d^3, %d double fields, halo 1, periodic: hcart and the plain copy "
                  "%s\n",
                  size, kFields, differ == 0 ? "agree bit for bit" : "DIFFER");
      if (differ != 0) return 1;
    } else {
      std::printf("1 rank, %d^3, %d fields: the plain copy is host code; hcart only\n", size,
                  kFields);
    }
    std::vector<double> t_hcart, t_plain, ratio, t_sweep, share;
    for (int r = 0; r < repeats; ++r) {
      auto t0 = Clock::now();
      for (int it = 0; it < iterations; ++it)
        bound.exchange();
      t_hcart.push_back(seconds_since(t0) / iterations);
      if constexpr (hcart::host_execution) {
        t0 = Clock::now();
        for (int it = 0; it < iterations; ++it) {
          for (int c = 0; c < kFields; ++c)
            plain_copy(f[c], n); // the same fields as hcart's: the same memory
        }
        t_plain.push_back(seconds_since(t0) / iterations);
        ratio.push_back(t_hcart.back() / t_plain.back());
      }
      t0 = Clock::now();
      for (int c = 0; c < kFields; ++c)
        hcart::for_each_cell("sweep", grid.owned_box(), SevenPoint{f[c], g[c]});
      hcart::fence("sweep");
      t_sweep.push_back(seconds_since(t0));
      share.push_back(t_hcart.back() / (t_hcart.back() + t_sweep.back()));
    }
    const auto h = stats(t_hcart), s = stats(t_sweep), sh = stats(share);
    std::printf("hcart exchange (bound, Full)     min %9.3f ms  median %9.3f ms\n", h.min * 1e3,
                h.median * 1e3);
    if constexpr (hcart::host_execution) {
      const auto p = stats(t_plain), q = stats(ratio);
      std::printf("plain copy of the same cells     min %9.3f ms  median %9.3f ms\n", p.min * 1e3,
                  p.median * 1e3);
      std::printf("ratio hcart / plain              min %9.3f     median %9.3f\n", q.min, q.median);
    }
    std::printf("7-point sweep of every field     min %9.3f ms  median %9.3f ms\n", s.min * 1e3,
                s.median * 1e3);
    std::printf("exchange's share of a step       min %8.1f %%   median %8.1f %%\n", sh.min * 100,
                sh.median * 100);
    return 0;
  });
}
