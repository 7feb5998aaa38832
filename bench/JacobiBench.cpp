// Jacobi3D benchmarks (issue targets in docs/benchmarks.md):
//   hcart-mpiexec -n 1 build/bin/hcart-bench-jacobi --roofline [--size 256]
//                 [--iterations-per-pass N] [--json FILE] [--launches SHAPE,SHAPE,...]
//     hcart's Jacobi sweep against the copy bandwidth measured in the same run (on one rank,
//     or on every core with one rank each: the bandwidth is that of all ranks together). On
//     a GPU, --launches times the copy, the sweep's kernel and the solver's iteration through
//     for_each_cell in each device launch shape (HCART_DEVICE_LAUNCH values) side by side,
//     and on a CUDA build the same sweep as a plain CUDA code writes it (PlainCudaSweep.hpp):
//     each shape's sweep kernel over the plain one's time, repeat by repeat.
//   hcart-mpiexec -n 2 build/bin/hcart-bench-jacobi --reference  [--size 256]
//     hcart's solver (as the app sets it up, and with one iteration per pass) against a
//     Jacobi written the textbook way, side by side.
// Bytes per update: the sweep reads u and writes v (16 B once the neighbours are cached;
// 24 B with the write-allocate read of v). The copy v = u moves the same 16 / 24 B per
// cell, so the roofline time of a sweep is updates / copied cells * copy time. The solver's
// default fuses iterations into one pass over u (temporal blocking, 16 / depth B per
// update); both modes time it and, side by side, one iteration per pass.
#include "BenchFields.hpp"
#include "BenchTiming.hpp"
#include "JacobiSolver.hpp"
#include "PlainCudaSweep.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/core/HostClones.hpp>
#include <hcart/hcart.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;
using hcart::bench::stats;

// The textbook sweep: three plain loops over the owned cells. Built for AVX2 too, like
// hcart's row sweep (hcart/core/HostClones.hpp), so that the comparison is of the codes,
// not of the instruction sets.
HCART_HOST_CLONES void textbook_sweep(const double* u, double* v, const long* local,
                                      const long* ext, const hcart::jacobi::Stencil& stencil) {
  const long sj = ext[2], si = ext[1] * ext[2];
  for (long i = 1; i <= local[0]; ++i)
    for (long j = 1; j <= local[1]; ++j)
      for (long k = 1; k <= local[2]; ++k) {
        const long c = (i * ext[1] + j) * ext[2] + k;
        v[c] = hcart::jacobi::update(u[c - si], u[c + si], u[c - sj], u[c + sj], u[c - 1], u[c + 1],
                                     0.0, stencil);
      }
}

// Jacobi as found in textbooks: plain arrays with one ghost layer, for every direction a
// copy of the face into a buffer, MPI_Irecv and a blocking MPI_Send to each side, MPI_Wait,
// a copy back; then the sweep in plain loops; swap.
class TextbookJacobi {
public:
  TextbookJacobi(MPI_Comm world, long n) : m_n{n, n, n} {
    int size = 0;
    MPI_Comm_size(world, &size);
    int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
    MPI_Dims_create(size, 3, dims);
    MPI_Cart_create(world, 3, dims, periods, 1, &m_cart);
    int rank = 0, coords[3];
    MPI_Comm_rank(m_cart, &rank);
    MPI_Cart_coords(m_cart, rank, 3, coords);
    for (int d = 0; d < 3; ++d) {
      m_local[d] = n / dims[d] + (coords[d] < n % dims[d] ? 1 : 0);
      m_ext[d] = m_local[d] + 2;
      MPI_Cart_shift(m_cart, d, 1, &m_lo[d], &m_hi[d]);
    }
    m_u.assign(static_cast<std::size_t>(m_ext[0] * m_ext[1] * m_ext[2]), 0.0);
    m_v = m_u;
    const long most =
        std::max({m_local[1] * m_local[2], m_local[0] * m_local[2], m_local[0] * m_local[1]});
    m_send.resize(most);
    m_recv.resize(most);
    m_stencil = hcart::jacobi::make_stencil(double(n), double(n), double(n));
  }
  ~TextbookJacobi() { MPI_Comm_free(&m_cart); }
  void iterate(int count) {
    for (int it = 0; it < count; ++it) {
      exchange();
      sweep();
      std::swap(m_u, m_v);
    }
  }

private:
  long at(long i, long j, long k) const { return (i * m_ext[1] + j) * m_ext[2] + k; }
  void face(int d, long layer, bool pack) {
    long c = 0;
    const long a = d == 0 ? 1 : 0, b = d == 2 ? 1 : 2;
    (void)a;
    for (long x = 1; x <= m_local[d == 0 ? 1 : 0]; ++x)
      for (long y = 1; y <= m_local[b]; ++y) {
        long i = 0, j = 0, k = 0;
        if (d == 0) {
          i = layer;
          j = x;
          k = y;
        }
        if (d == 1) {
          i = x;
          j = layer;
          k = y;
        }
        if (d == 2) {
          i = x;
          j = y;
          k = layer;
        }
        if (pack)
          m_send[c++] = m_u[at(i, j, k)];
        else
          m_u[at(i, j, k)] = m_recv[c++];
      }
  }
  void exchange() {
    for (int d = 0; d < 3; ++d) {
      const int count = static_cast<int>(m_local[d == 0 ? 1 : 0] * m_local[d == 2 ? 1 : 2]);
      for (int side = 0; side < 2; ++side) {
        const int to = side == 0 ? m_hi[d] : m_lo[d], from = side == 0 ? m_lo[d] : m_hi[d];
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Irecv(m_recv.data(), count, MPI_DOUBLE, from, d, m_cart, &request);
        if (to != MPI_PROC_NULL) {
          face(d, side == 0 ? m_local[d] : 1, true);
          MPI_Send(m_send.data(), count, MPI_DOUBLE, to, d, m_cart);
        }
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        if (from != MPI_PROC_NULL) face(d, side == 0 ? 0 : m_local[d] + 1, false);
      }
    }
  }
  void sweep() { textbook_sweep(m_u.data(), m_v.data(), m_local, m_ext, m_stencil); }

  long m_n[3], m_local[3], m_ext[3];
  int m_lo[3], m_hi[3];
  MPI_Comm m_cart = MPI_COMM_NULL;
  std::vector<double> m_u, m_v, m_send, m_recv;
  hcart::jacobi::Stencil m_stencil;
};

// v = u over the cells of a box: the copy the roofline is measured with.
struct CopyField {
  hcart::Field<double> u, v;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { v(i, j, k) = u(i, j, k); }
};

// u = a value of the cell's index, different in every neighbour of a cell: a sweep that
// reads a wrong cell shows in its result.
struct FillByIndex {
  hcart::Field<double> u;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    u(i, j, k) = 1.0 + 1e-3 * ((7 * i + 13 * j + 29 * k) % 97);
  }
};

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-jacobi", [&](hcart::Environment& env) {
    CLI::App app{"Jacobi3D benchmarks"};
    long size = 256;
    int repeats = 5, iterations = 20;
    bool roofline = false, reference = false;
    app.add_option("--size", size, "unknowns per direction")->capture_default_str();
    app.add_option("--repeats", repeats)->capture_default_str();
    app.add_option("--iterations", iterations)->capture_default_str();
    long per_pass = 0;
    app.add_option("--iterations-per-pass", per_pass,
                   "iterations per pass of the solver timed first (0: its automatic choice)")
        ->capture_default_str()
        ->check(CLI::Range(0L, 64L));
    app.add_flag("--roofline", roofline, "sweep against the copy roofline");
    app.add_flag("--reference", reference, "hcart against the textbook Jacobi");
    std::string json_path;
    app.add_option("--json", json_path, "also write the --roofline figures to this JSON file");
    // The device launch shapes --roofline compares, the first the one its summary and share
    // are of (default: the launchers' setting alone).
    std::vector<std::string> launches;
    app.add_option("--launches", launches,
                   "device launch shapes to time side by side, e.g. tiles:128/64,flat:1,"
                   "columns:128/32/16 (a GPU build; default: HCART_DEVICE_LAUNCH's)")
        ->delimiter(',');
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    if (launches.empty()) launches.push_back(hcart::impl::to_string(hcart::impl::device_launch()));
    for (const std::string& text : launches)
      hcart::impl::parse_device_launch(text.c_str()); // a bad one stops here, on every rank
    // The solver as the app sets it up (halos as deep as its passes), and the same solver
    // with one iteration per pass over halos one cell deep, on the same decomposition.
    hcart::jacobi::Settings settings, single;
    settings.check_every = single.check_every = 1000000; // no residual in the timed iterations
    settings.iterations_per_pass = per_pass;
    single.iterations_per_pass = 1;
    hcart::GridSpec spec;
    spec.global_size = {size, size, size};
    const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
    const hcart::jacobi::Passes passes = hcart::jacobi::plan_passes(settings, decomp);
    const hcart::Grid grid(decomp, passes.halo_width), grid_single(decomp);
    hcart::Timers timers;
    hcart::jacobi::Solver solver(grid, settings, passes.iterations_per_pass, timers);
    hcart::jacobi::Solver one_per_pass(grid_single, single, 1, timers);
    const bool root = env.rank() == 0;
    const double cells = solver.global_cells();
    if (root) {
      std::printf("%d ranks, %ld^3 unknowns, dims %dx%dx%d, %d repeats of %d iterations; hcart "
                  "with %ld iterations per pass, halo width %d\n",
                  env.size(), size, decomp.dims()[0], decomp.dims()[1], decomp.dims()[2], repeats,
                  iterations, solver.iterations_per_pass(), grid.halo_width()[0]);
    }
    // A timed section per call, between barriers: the time of the slowest rank, per
    // iteration.
    auto timed = [&](auto&& body) {
      MPI_Barrier(MPI_COMM_WORLD);
      const auto t0 = Clock::now();
      body();
      MPI_Barrier(MPI_COMM_WORLD);
      return seconds_since(t0) / iterations;
    };
    if (roofline) {
      // Every timed section starts and ends with a barrier: the times are those of the
      // slowest rank, and the bandwidths are of all ranks together (the whole socket or
      // device with one rank per core or per GPU share).
      auto u = grid.make_field<double>("copy_u"), v = grid.make_field<double>("copy_v");
      Kokkos::deep_copy(u, 1.0);
      const auto e = grid.extent();
      double copied = double(e[0]) * e[1] * e[2];
      HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &copied, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
      // The device launch shapes to compare (hcart/impl/grid/DeviceLaunch.hpp), each timed
      // through for_each_cell, the launcher every kernel gets: a copy, the sweep's kernel
      // alone over the owned cells, and the solver's iteration. First, a check that every
      // shape's sweep gives the first shape's bits. On a host build the launchers take the
      // host rows, whatever the shape: one shape is timed.
      std::vector<hcart::impl::DeviceLaunch> shapes;
      for (const std::string& text : launches)
        shapes.push_back(hcart::impl::parse_device_launch(text.c_str()));
      if (hcart::host_execution) shapes.resize(1);
      const hcart::impl::DeviceLaunch setting = hcart::impl::device_launch();
      const hcart::Box owned = grid.owned_box();
      const hcart::jacobi::Stencil stencil = hcart::jacobi::make_stencil(
          static_cast<double>(size), static_cast<double>(size), static_cast<double>(size));
      auto w = grid.make_field<double>("check_w");
      hcart::for_each_cell("fill", grid.with_halo_box(), FillByIndex{u});
      const hcart::jacobi::RelaxCells into_v{u, v, {}, stencil, false},
          into_w{u, w, {}, stencil, false};
      for (std::size_t l = 0; l < shapes.size(); ++l) {
        hcart::impl::set_device_launch(shapes[l]);
        Kokkos::deep_copy(w, 0.0);
        hcart::for_each_cell("sweep", owned, l == 0 ? into_v : into_w);
        hcart::fence("sweep");
        const long differ = l == 0 ? 0 : hcart::bench::count_differing_cells(v, w, owned);
        if (differ != 0) {
          throw hcart::Error("the sweep through launch " + launches[l] + " differs from " +
                             launches[0] + "'s in " + std::to_string(differ) + " cells");
        }
      }
#if HCART_BENCH_PLAIN_CUDA
      Kokkos::deep_copy(w, 0.0);
      hcart::bench::plain_cuda_sweep(u, w, owned, stencil);
      hcart::fence("plain sweep");
      if (const long differ = hcart::bench::count_differing_cells(v, w, owned); differ != 0) {
        throw hcart::Error("the plain CUDA sweep differs from " + launches[0] + "'s in " +
                           std::to_string(differ) + " cells");
      }
#endif
      solver.iterate(2);
      one_per_pass.iterate(2);
      // One launch per iteration, each waited for.
      const auto kernel = [&](auto&& launch) {
        return timed([&] {
          for (int it = 0; it < iterations; ++it) {
            launch();
            hcart::fence("kernel");
          }
        });
      };
      struct Times {
        std::vector<double> copy, sweep_kernel, iteration, single, of_plain;
      };
      std::vector<Times> per_shape(shapes.size());
      std::vector<double> t_memcpy, share, share_single, t_plain;
      for (int r = 0; r < repeats; ++r) {
        // std::copy on the host, cudaMemcpy on a device
        t_memcpy.push_back(kernel([&] { Kokkos::deep_copy(v, u); }));
#if HCART_BENCH_PLAIN_CUDA
        t_plain.push_back(kernel([&] { hcart::bench::plain_cuda_sweep(u, v, owned, stencil); }));
#endif
        double best_copy = t_memcpy.back();
        for (std::size_t l = 0; l < shapes.size(); ++l) {
          hcart::impl::set_device_launch(shapes[l]);
          Times& t = per_shape[l];
          t.copy.push_back(kernel([&] {
            hcart::for_each_cell("copy", grid.with_halo_box(), CopyField{u, v});
          }));
          t.sweep_kernel.push_back(kernel([&] { hcart::for_each_cell("sweep", owned, into_v); }));
          if (!t_plain.empty()) t.of_plain.push_back(t_plain.back() / t.sweep_kernel.back());
          t.iteration.push_back(timed([&] { solver.iterate(iterations); }));
          t.single.push_back(timed([&] { one_per_pass.iterate(iterations); }));
          best_copy = std::min(best_copy, t.copy.back());
        }
        // The first shape's solver against the best copy of this repeat.
        share.push_back(cells / copied * best_copy / per_shape[0].iteration.back());
        share_single.push_back(cells / copied * best_copy / per_shape[0].single.back());
      }
      hcart::impl::set_device_launch(setting);
      const auto m = stats(t_memcpy), f = stats(share), f1 = stats(share_single);
      double best_copy = m.min;
      for (const Times& t : per_shape)
        best_copy = std::min(best_copy, stats(t.copy).min);
      const auto s = stats(per_shape[0].iteration), s1 = stats(per_shape[0].single);
      if (root) {
        std::printf(
            "Kokkos::deep_copy           min %8.3f ms  median %8.3f ms  %.1f GB/s at 16 B/cell\n",
            m.min * 1e3, m.median * 1e3, copied * 16 / m.min / 1e9);
        std::printf("hcart Jacobi iteration      min %8.3f ms  median %8.3f ms  %.1f MLUP/s at "
                    "the min  (%ld iterations per pass; launch %s)\n",
                    s.min * 1e3, s.median * 1e3, cells / s.min / 1e6, solver.iterations_per_pass(),
                    launches[0].c_str());
        std::printf("share of the copy roofline  min %8.1f %%   median %8.1f %%\n", f.min * 100,
                    f.median * 100);
        std::printf("one iteration per pass      min %8.3f ms  median %8.3f ms  %.1f MLUP/s at "
                    "the min\n",
                    s1.min * 1e3, s1.median * 1e3, cells / s1.min / 1e6);
        std::printf("share of the copy roofline  min %8.1f %%   median %8.1f %%\n", f1.min * 100,
                    f1.median * 100);
        if (!hcart::host_execution) {
          std::printf(
              "\nper launch shape (for_each_cell; %% of the best copy's roofline, %.1f GB/s, "
              "at the min):\n%-22s %12s %18s %18s %18s\n",
              copied * 16 / best_copy / 1e9, "launch", "copy GB/s", "sweep kernel", "iteration",
              "one per pass");
          for (std::size_t l = 0; l < shapes.size(); ++l) {
            const auto c = stats(per_shape[l].copy), k = stats(per_shape[l].sweep_kernel),
                       it = stats(per_shape[l].iteration), one = stats(per_shape[l].single);
            auto cell = [&](const hcart::bench::Stats& t) {
              char text[64];
              std::snprintf(text, sizeof text, "%6.1f GLUP %5.1f%%", cells / t.min / 1e9,
                            100 * cells / copied * best_copy / t.min);
              return std::string(text);
            };
            std::printf("%-22s %12.1f %18s %18s %18s\n", launches[l].c_str(),
                        copied * 16 / c.min / 1e9, cell(k).c_str(), cell(it).c_str(),
                        cell(one).c_str());
          }
          std::printf("every shape checked: the same bits as %s's sweep\n", launches[0].c_str());
          if (!t_plain.empty()) {
            const auto p = stats(t_plain);
            std::printf("\nplain CUDA sweep (128x2x1 blocks, restrict pointers): min %.3f ms, "
                        "%.1f GLUP/s, %.1f%% of the best copy's roofline; the same bits\n"
                        "each shape's sweep kernel against it (plain time / shape time, per "
                        "repeat):\n",
                        p.min * 1e3, cells / p.min / 1e9, 100 * cells / copied * best_copy / p.min);
            for (std::size_t l = 0; l < shapes.size(); ++l) {
              const auto q = stats(per_shape[l].of_plain);
              std::printf("%-22s min %.3f  median %.3f\n", launches[l].c_str(), q.min, q.median);
            }
          }
        }
      }
      if (root && !json_path.empty()) {
        auto timing = [](const hcart::bench::Stats& t) {
          return nlohmann::json{{"min_s", t.min}, {"median_s", t.median}};
        };
        nlohmann::json shapes_json = nlohmann::json::array();
        for (std::size_t l = 0; l < shapes.size(); ++l) {
          const auto c = stats(per_shape[l].copy), k = stats(per_shape[l].sweep_kernel),
                     it = stats(per_shape[l].iteration), one = stats(per_shape[l].single);
          shapes_json.push_back({{"launch", launches[l]},
                                 {"copy_kernel", timing(c)},
                                 {"copy_kernel_gb_s", copied * 16 / c.min / 1e9},
                                 {"sweep_kernel", timing(k)},
                                 {"sweep_kernel_glups", cells / k.min / 1e9},
                                 {"iteration", timing(it)},
                                 {"glups", cells / it.min / 1e9},
                                 {"roofline_share", cells / copied * best_copy / it.min},
                                 {"one_per_pass_iteration", timing(one)}});
          if (!t_plain.empty()) {
            const auto q = stats(per_shape[l].of_plain);
            shapes_json.back()["of_plain_cuda"] = {{"min", q.min}, {"median", q.median}};
          }
        }
        nlohmann::json out = {
            {"benchmark", "jacobi_roofline"},
            {"ranks", env.size()},
            {"size", size},
            {"execution_space", hcart::execution_space_name()},
            {"threads_per_rank", hcart::host_threads()},
            {"iterations_per_pass", solver.iterations_per_pass()},
            {"launch", launches[0]},
            {"copy_kernel", timing(stats(per_shape[0].copy))},
            {"deep_copy", timing(m)},
            {"copy_bandwidth_gb_s", copied * 16 / best_copy / 1e9},
            {"iteration", timing(s)},
            {"glups", cells / s.min / 1e9},
            {"roofline_share", {{"min", f.min}, {"median", f.median}}},
            {"one_per_pass_iteration", timing(s1)},
            {"one_per_pass_glups", cells / s1.min / 1e9},
            {"one_per_pass_roofline_share", {{"min", f1.min}, {"median", f1.median}}},
            {"launches", shapes_json}};
        if (!t_plain.empty()) out["plain_cuda_sweep"] = timing(stats(t_plain));
        std::ofstream file(json_path);
        file << out.dump(2) << "\n";
        if (!file) throw hcart::Error("cannot write --json file '" + json_path + "'");
      }
    }
    if (reference) {
      TextbookJacobi textbook(MPI_COMM_WORLD, size);
      textbook.iterate(2);
      solver.iterate(2);
      one_per_pass.iterate(2);
      std::vector<double> t_hcart, t_single, t_book, ratio, ratio_single;
      // Timed back to back; which code goes first alternates between repeats.
      for (int r = 0; r < repeats; ++r) {
        const auto run_hcart = [&] {
          t_hcart.push_back(timed([&] { solver.iterate(iterations); }));
        };
        const auto run_single = [&] {
          t_single.push_back(timed([&] { one_per_pass.iterate(iterations); }));
        };
        const auto run_book = [&] {
          t_book.push_back(timed([&] { textbook.iterate(iterations); }));
        };
        if (r % 2 == 0) {
          run_hcart();
          run_single();
          run_book();
        } else {
          run_book();
          run_single();
          run_hcart();
        }
        ratio.push_back(t_hcart.back() / t_book.back());
        ratio_single.push_back(t_single.back() / t_book.back());
      }
      if (root) {
        const auto a = stats(t_hcart), b = stats(t_book), q = stats(ratio);
        const auto a1 = stats(t_single), q1 = stats(ratio_single);
        std::printf("hcart Jacobi iteration      min %8.3f ms  median %8.3f ms\n", a.min * 1e3,
                    a.median * 1e3);
        std::printf("textbook Jacobi iteration   min %8.3f ms  median %8.3f ms\n", b.min * 1e3,
                    b.median * 1e3);
        std::printf("ratio hcart / textbook      min %8.3f     median %8.3f\n", q.min, q.median);
        std::printf("one iteration per pass      min %8.3f ms  median %8.3f ms\n", a1.min * 1e3,
                    a1.median * 1e3);
        std::printf("its ratio / textbook        min %8.3f     median %8.3f\n", q1.min, q1.median);
      }
    }
    return 0;
  });
}
