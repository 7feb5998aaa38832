// A user's kernel at the speed of hcart's own (targets in docs/benchmarks.md, "Users'
// kernels"): one Jacobi sweep (the 7-point update of Jacobi3D, arithmetic of
// apps/jacobi3d/PointUpdates.hpp) and one isotropic 27-point Laplacian (the API guide's), each
// written as a user writes it — a functor through hcart::for_each_cell, on hcart::Field views
// and on hcart::FieldAccessor — against hcart's tuned row kernel (Jacobi3D's hand-written
// rows, AVX2 clone; host builds), a plain C loop on raw pointers, a plain Kokkos MDRange
// sweep, and the copy bandwidth measured in the same run:
//
//   hcart-mpiexec -n 1 build/bin/hcart-bench-user-kernels [--size 256] [--repeats 7] [--sweeps 10]
//
// Every variant is timed in turn, repeat by repeat; the slowest rank's time per sweep
// counts; min / median over the repeats. The roofline time of a sweep is updates * 16 B /
// copy bandwidth (one read and one write per update once the neighbours are in cache; the
// copy is counted the same way, the better of a copy kernel and Kokkos::deep_copy). Before
// timing, every 7-point variant's result is compared bit for bit with the tuned kernel's
// (and every 27-point one with the plain loop's): a variant that computed something else
// would stop the benchmark.
#include "BenchFields.hpp"
#include "BenchTiming.hpp"
#include "D3Q19.hpp"
#include "PointUpdates.hpp"
#include "Relax.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/hcart.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

// The LBM example's step as a plain loop (LbmPlain.cpp), with this build's flags and with
// -march=native.
void lbm_plain_default(const double* f, double* g, std::int64_t sc, std::int64_t si,
                       std::int64_t sj, int i, int j0, int j1, int k0, int k1,
                       const std::int64_t* from, double omega);
#ifdef HCART_BENCH_LBM_NATIVE
void lbm_plain_native(const double* f, double* g, std::int64_t sc, std::int64_t si, std::int64_t sj,
                      int i, int j0, int j1, int k0, int k1, const std::int64_t* from,
                      double omega);
#endif

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;
using hcart::bench::stats;
using hcart::jacobi::Stencil;

// ---- the 7-point Jacobi sweep, as users write it -------------------------------------------
struct JacobiOnViews {
  hcart::Field<double> u, v;
  Stencil s;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    v(i, j, k) = hcart::jacobi::update(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k),
                                       u(i, j + 1, k), u(i, j, k - 1), u(i, j, k + 1), 0.0, s);
  }
};

// The same on views, with 64-bit indices: Kokkos stores the extents of a view with three
// run-time extents as 32-bit unsigned and computes k + N2 * j in that type, which may wrap, so
// the compiler cannot prove that a row's addresses step by one element and does not
// vectorise; 64-bit indices make the arithmetic 64-bit (docs/benchmarks.md, "Users'
// kernels").
struct JacobiOnViews64 {
  hcart::Field<double> u, v;
  Stencil s;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t j, std::int64_t k) const {
    v(i, j, k) = hcart::jacobi::update(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k),
                                       u(i, j + 1, k), u(i, j, k - 1), u(i, j, k + 1), 0.0, s);
  }
};

struct JacobiOnAccessors {
  hcart::FieldAccessor<const double> u;
  hcart::FieldAccessor<double> v;
  Stencil s;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    v(i, j, k) = hcart::jacobi::update(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k),
                                       u(i, j + 1, k), u(i, j, k - 1), u(i, j, k + 1), 0.0, s);
  }
};

// ---- the isotropic 27-point Laplacian (the API guide's reaction3d) -------------------------
template <class In, class Out>
struct Laplacian27 {
  In u;
  Out w;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    double faces = 0, edges = 0, corners = 0;
    for (int a = -1; a <= 1; ++a)
      for (int b = -1; b <= 1; ++b)
        for (int c = -1; c <= 1; ++c) {
          const int away = (a != 0) + (b != 0) + (c != 0);
          const double x = u(i + a, j + b, k + c);
          if (away == 1) faces += x;
          if (away == 2) edges += x;
          if (away == 3) corners += x;
        }
    w(i, j, k) = (14.0 * faces + 3.0 * edges + corners - 128.0 * u(i, j, k)) / 30.0;
  }
};

// ---- plain C loops on raw pointers, a plane per host task ----------------------------------
struct PlainJacobi {
  const double* u;
  double* v;
  long si, sj;
  hcart::Box box;
  Stencil s;
  void operator()(int i) const {
    for (int j = box.lo[1]; j < box.hi[1]; ++j) {
      const double* a = u + i * si + j * sj;
      double* out = v + i * si + j * sj;
      for (int k = box.lo[2]; k < box.hi[2]; ++k)
        out[k] = hcart::jacobi::update(a[k - si], a[k + si], a[k - sj], a[k + sj], a[k - 1],
                                       a[k + 1], 0.0, s);
    }
  }
};

struct Plain27 {
  const double* u;
  double* w;
  long si, sj;
  hcart::Box box;
  void operator()(int i) const {
    for (int j = box.lo[1]; j < box.hi[1]; ++j) {
      const double* a = u + i * si + j * sj;
      double* out = w + i * si + j * sj;
      for (int k = box.lo[2]; k < box.hi[2]; ++k) {
        double faces = 0, edges = 0, corners = 0;
        for (int x = -1; x <= 1; ++x)
          for (int y = -1; y <= 1; ++y)
            for (int z = -1; z <= 1; ++z) {
              const int away = (x != 0) + (y != 0) + (z != 0);
              const double value = a[x * si + y * sj + k + z];
              if (away == 1) faces += value;
              if (away == 2) edges += value;
              if (away == 3) corners += value;
            }
        out[k] = (14.0 * faces + 3.0 * edges + corners - 128.0 * a[k]) / 30.0;
      }
    }
  }
};

// v = u over a box: the copy the roofline is measured with.
struct Copy {
  hcart::FieldAccessor<const double> u;
  hcart::FieldAccessor<double> v;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { v(i, j, k) = u(i, j, k); }
};

// u(i, j, k): smooth, distinct values, so that every variant has something to compute.
struct Initial {
  hcart::Field<double> u;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    u(i, j, k) = 1.0 + 1e-3 * i + 1e-5 * j + 1e-7 * k;
  }
};

double slowest(double t) {
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

struct Variant {
  Variant(std::string n, std::function<void()> s) : name(std::move(n)), sweep(std::move(s)) {}
  std::string name;
  std::function<void()> sweep;
  std::vector<double> times; // per sweep, slowest rank
};

} // namespace

namespace {

// The D3Q19 step of the LBM example (docs/tutorial/D3Q19.hpp) on a periodic cube of `size`
// cells: through the API (for_each_cell, ComponentAccessor: the example's own kernel)
// against the same arithmetic as a plain loop on raw pointers, built with this build's flags
// and with -march=native; each checked bitwise against the first before timing. The report
// is in million lattice updates per second (MLUP/s).
void lbm_section(hcart::Environment& env, int size, int repeats, int sweeps) {
  hcart::GridSpec spec;
  spec.global_size = {size, size, size};
  spec.periodic = {true, true, true};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  const auto f = grid.make_components<double>("f", lbm::kQ);
  const auto g = grid.make_components<double>("g", lbm::kQ);
  const auto reference = grid.make_components<double>("reference", lbm::kQ);
  {
    auto host = hcart::host_mirror(f);
    const auto e = grid.extent();
    for (int q = 0; q < lbm::kQ; ++q)
      for (int i = 0; i < e[0]; ++i)
        for (int j = 0; j < e[1]; ++j)
          for (int k = 0; k < e[2]; ++k)
            host(q, i, j, k) =
                lbm::weight(q) * (1.0 + 0.01 * std::sin(0.3 * i + 0.2 * j + 0.1 * k + q));
    Kokkos::deep_copy(f, host);
  }
  const hcart::Box owned = grid.owned_box();
  const auto from = lbm::pull_offsets(hcart::accessor(f));
  const double omega = 1.0 / 0.8;
  const std::int64_t sc = static_cast<std::int64_t>(f.stride(0)),
                     si = static_cast<std::int64_t>(f.stride(1)),
                     sj = static_cast<std::int64_t>(f.stride(2));
  using Planes = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<int>>;
  using Plain = void (*)(const double*, double*, std::int64_t, std::int64_t, std::int64_t, int, int,
                         int, int, int, const std::int64_t*, double);
  auto plain = [&](Plain step) {
    const double* in = f.data();
    double* out = g.data();
    const std::int64_t* offsets = from.data();
    Kokkos::parallel_for("lbm_plain", Planes(owned.lo[0], owned.hi[0]), [=](int i) {
      step(in, out, sc, si, sj, i, owned.lo[1], owned.hi[1], owned.lo[2], owned.hi[2], offsets,
           omega);
    });
    hcart::fence("lbm_plain");
  };
  std::vector<Variant> variants;
  if (hcart::host_execution) {
#ifdef HCART_BENCH_LBM_NATIVE
    variants.push_back({"plain C loop, -O3 -march=native", [&] { plain(lbm_plain_native); }});
#endif
    variants.push_back({"plain C loop, this build's flags", [&] { plain(lbm_plain_default); }});
  }
  variants.push_back({"user: for_each_cell, ComponentAccessor", [&] {
                        hcart::for_each_cell("lbm", owned,
                                             lbm::StreamCollide<false, false>{hcart::accessor(f),
                                                                              hcart::accessor(g),
                                                                              from, omega});
                        hcart::fence("lbm");
                      }});
  variants.front().sweep();
  Kokkos::deep_copy(reference, g);
  for (std::size_t v = 1; v < variants.size(); ++v) {
    Kokkos::deep_copy(g, 0.0);
    variants[v].sweep();
    bool same = true;
    for (int q = 0; q < lbm::kQ; ++q)
      same = same && hcart::bench::count_differing_cells(
                         hcart::component(g, q), hcart::component(reference, q), owned) == 0;
    HCART_CHECK(same, "hcart-bench-user-kernels: '" << variants[v].name << "' differs from '"
                                                    << variants.front().name << "'");
  }
  for (int r = 0; r < repeats; ++r) {
    for (Variant& variant : variants) {
      variant.sweep();
      MPI_Barrier(MPI_COMM_WORLD);
      const auto t0 = Clock::now();
      for (int it = 0; it < sweeps; ++it)
        variant.sweep();
      variant.times.push_back(slowest(seconds_since(t0)) / sweeps);
    }
  }
  if (env.rank() != 0) return;
  const double cells = static_cast<double>(size) * size * size;
  std::printf("\nD3Q19 step (the LBM example), %d^3 periodic, %d ranks   min / median      "
              "MLUP/s (median)   speed\n",
              size, env.size());
  const auto first = stats(variants.front().times);
  for (const Variant& variant : variants) {
    const auto t = stats(variant.times);
    std::printf("  %-40s %8.3f / %8.3f ms  %10.1f      %6.3f\n", variant.name.c_str(), t.min * 1e3,
                t.median * 1e3, cells / t.median / 1e6, first.median / t.median);
  }
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-user-kernels", [&](hcart::Environment& env) {
    CLI::App app{"a user's kernel against hcart's own, the plain loop and the copy roofline"};
    int size = 256, repeats = 7, sweeps = 10, lbm_size = 64;
    app.add_option("--size", size, "cells per direction")->capture_default_str();
    app.add_option("--repeats", repeats, "timed repeats")->capture_default_str();
    app.add_option("--sweeps", sweeps, "sweeps per repeat")->capture_default_str();
    app.add_option("--lbm-size", lbm_size, "cells per direction of the D3Q19 step (0: none)")
        ->capture_default_str();
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    hcart::GridSpec spec;
    spec.global_size = {size, size, size};
    const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
    const hcart::Grid grid(decomp);
    const auto u = grid.make_field<double>("u"), v = grid.make_field<double>("v"),
               reference = grid.make_field<double>("reference");
    hcart::for_each_cell("initial", grid.with_halo_box(), Initial{u});
    const hcart::Box owned = grid.owned_box(), all = grid.with_halo_box();
    const Stencil s = hcart::jacobi::make_stencil(size, size, size);
    const long si = static_cast<long>(u.stride(0)), sj = static_cast<long>(u.stride(1));
    using Planes = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<int>>;
    const bool host = hcart::host_execution;
    const hcart::Field<double> copy_to = grid.make_field<double>("copy_to");

    // The reference results: the tuned kernel's (host) or the plain MDRange's.
    std::vector<Variant> seven, twenty_seven, copies;
    if (host) {
      seven.push_back(
          {"hcart's tuned rows (Jacobi3D)", [&] {
             hcart::jacobi::relax(hcart::LoopPattern::HostRows, {u, v, {}, false}, owned, s, false);
           }});
      seven.push_back({"plain C loop, raw pointers", [&] {
                         Kokkos::parallel_for("plain", Planes(owned.lo[0], owned.hi[0]),
                                              PlainJacobi{u.data(), v.data(), si, sj, owned, s});
                         hcart::fence("plain");
                       }});
    }
    seven.push_back({"plain Kokkos MDRange, views", [&] {
                       Kokkos::parallel_for("mdrange", grid.owned_policy(), JacobiOnViews{u, v, s});
                       hcart::fence("mdrange");
                     }});
    seven.push_back({"user: for_each_cell, Field views", [&] {
                       hcart::for_each_cell("user_views", owned, JacobiOnViews{u, v, s});
                       hcart::fence("user");
                     }});
    seven.push_back({"user: for_each_cell, Field views, int64 i,j,k", [&] {
                       hcart::for_each_cell("user_views64", owned, JacobiOnViews64{u, v, s});
                       hcart::fence("user");
                     }});
    seven.push_back({"user: for_each_cell, FieldAccessor", [&] {
                       hcart::for_each_cell(
                           "user_accessor", owned,
                           JacobiOnAccessors{hcart::accessor(u), hcart::accessor(v), s});
                       hcart::fence("user");
                     }});
    using View27 = Laplacian27<hcart::Field<double>, hcart::Field<double>>;
    using Accessor27 =
        Laplacian27<hcart::FieldAccessor<const double>, hcart::FieldAccessor<double>>;
    if (host) {
      twenty_seven.push_back({"plain C loop, raw pointers", [&] {
                                Kokkos::parallel_for("plain27", Planes(owned.lo[0], owned.hi[0]),
                                                     Plain27{u.data(), v.data(), si, sj, owned});
                                hcart::fence("plain");
                              }});
    }
    twenty_seven.push_back({"plain Kokkos MDRange, views", [&] {
                              Kokkos::parallel_for("mdrange27", grid.owned_policy(), View27{u, v});
                              hcart::fence("mdrange");
                            }});
    twenty_seven.push_back({"user: for_each_cell, Field views", [&] {
                              hcart::for_each_cell("user27_views", owned, View27{u, v});
                              hcart::fence("user");
                            }});
    twenty_seven.push_back({"user: for_each_cell, FieldAccessor", [&] {
                              hcart::for_each_cell(
                                  "user27_accessor", owned,
                                  Accessor27{hcart::accessor(u), hcart::accessor(v)});
                              hcart::fence("user");
                            }});
    copies.push_back(
        {"copy kernel (for_each_cell, FieldAccessor)", [&] {
           hcart::for_each_cell("copy", all, Copy{hcart::accessor(u), hcart::accessor(copy_to)});
           hcart::fence("copy");
         }});
    copies.push_back({"Kokkos::deep_copy", [&] { Kokkos::deep_copy(copy_to, u); }});

    // Every variant computes what the first of its kind computes, bit for bit.
    for (std::vector<Variant>* kind : {&seven, &twenty_seven}) {
      kind->front().sweep();
      Kokkos::deep_copy(reference, v);
      for (std::size_t q = 1; q < kind->size(); ++q) {
        Kokkos::deep_copy(v, 0.0);
        (*kind)[q].sweep();
        HCART_CHECK(hcart::bench::count_differing_cells(v, reference, owned) == 0,
                    "hcart-bench-user-kernels: '" << (*kind)[q].name << "' differs from '"
                                                  << kind->front().name << "'");
      }
    }

    for (int r = 0; r < repeats; ++r) {
      for (std::vector<Variant>* kind : {&copies, &seven, &twenty_seven}) {
        for (Variant& variant : *kind) {
          variant.sweep(); // warm
          MPI_Barrier(MPI_COMM_WORLD);
          const auto t0 = Clock::now();
          for (int it = 0; it < sweeps; ++it)
            variant.sweep();
          variant.times.push_back(slowest(seconds_since(t0)) / sweeps);
        }
      }
    }
    if (lbm_size > 0) lbm_section(env, lbm_size, repeats, sweeps);
    if (env.rank() != 0) return 0;
    const auto n = grid.local_size();
    const auto e = grid.extent();
    const double updates = static_cast<double>(n[0]) * n[1] * n[2];
    const double cells = static_cast<double>(e[0]) * e[1] * e[2];
    double bandwidth = 0; // bytes per second, the better copy at the median
    for (const Variant& c : copies)
      bandwidth = std::max(bandwidth, cells * 16.0 / stats(c.times).median);
    const double roofline = updates * 16.0 / bandwidth;
    std::printf("%d ranks x %d threads (%s), mesh %d^3, local %dx%dx%d; %d repeats of %d "
                "sweeps, per sweep, slowest rank\n",
                env.size(), hcart::execution_concurrency(), hcart::execution_space_name().c_str(),
                size, n[0], n[1], n[2], repeats, sweeps);
    for (const Variant& c : copies) {
      const auto t = stats(c.times);
      std::printf("%-46s min %8.3f ms  median %8.3f ms  %7.2f GB/s\n", c.name.c_str(), t.min * 1e3,
                  t.median * 1e3, cells * 16.0 / t.median / 1e9);
    }
    std::printf("roofline of a sweep (16 B per update at the better copy): %.3f ms\n",
                roofline * 1e3);
    auto table = [&](const char* title, const std::vector<Variant>& kind) {
      std::printf("\n%-42s %21s %18s %8s\n", title, "min / median", "% of roofline", "speed");
      const auto first = stats(kind.front().times);
      for (const Variant& variant : kind) {
        const auto t = stats(variant.times);
        std::printf("  %-40s %8.3f / %8.3f ms  %6.1f / %5.1f %%  %6.3f\n", variant.name.c_str(),
                    t.min * 1e3, t.median * 1e3, 100 * roofline / t.min, 100 * roofline / t.median,
                    first.median / t.median);
      }
    };
    table("7-point Jacobi sweep", seven);
    table("27-point Laplacian", twenty_seven);
    std::printf("(speed: the first variant's median time / this one's; the 27-point roofline is a "
                "copy's, a lower bound)\n");
    return 0;
  });
}
