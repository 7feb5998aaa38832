// Halo exchange benchmark (issue targets in docs/benchmarks.md), run on 2 ranks:
//   hcart-mpiexec -n 2 build/bin/hcart-bench-halo [--size 256] [--repeats 7] [--iterations 20]
//  1. hcart::HaloExchanger, Faces, one 256^3 double field: time per exchange, and the share
//     of packing and unpacking in it.
//  2. A hand-written exchange of the same faces, side by side: plain loops pack each face,
//     MPI_Sendrecv per direction and side, plain loops unpack.
//  3. A 7-point stencil sweep over the owned cells with the grid's policy, against the
//     copy bandwidth measured in the same run (a streaming copy of two arrays of the same
//     size): the roofline time is updates * 16 B / copy bandwidth (one read and one write
//     per update once the neighbours are in cache; the copy is counted the same way).
#include "BenchTiming.hpp"

#include <hcart/hcart.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;

// v = u: the copy the roofline is measured with.
struct CopyField {
  hcart::Field<double> u, v;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { v(i, j, k) = u(i, j, k); }
};

// A plain 7-point average through the grid's policy.
struct SevenPoint {
  hcart::Field<double> u, v;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    v(i, j, k) = (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) + u(i, j + 1, k) +
                  u(i, j, k - 1) + u(i, j, k + 1)) *
                 (1.0 / 6.0);
  }
};
using hcart::bench::stats;

// The slowest rank's time of each repeat.
double slowest(double t, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
  return t;
}

// The textbook exchange: for each direction and side, pack the face with loops, swap
// with MPI_Sendrecv, unpack with loops.
class HandWrittenExchange {
public:
  explicit HandWrittenExchange(const hcart::Grid& grid) : m_grid(grid) {
    const auto n = grid.local_size();
    std::size_t most = 0;
    for (int d = 0; d < 3; ++d) {
      std::size_t face = 1;
      for (int j = 0; j < 3; ++j)
        face *= j == d ? grid.halo_width()[d] : n[j];
      most = std::max(most, face);
    }
    m_send.resize(most);
    m_recv.resize(most);
  }
  void exchange(const hcart::Field<double>& u) {
    const auto n = m_grid.local_size();
    const auto h = m_grid.halo_width();
    const hcart::Decomposition& decomp = m_grid.decomposition();
    for (int d = 0; d < 3; ++d) {
      if (h[d] == 0) continue;
      for (int side : {-1, +1}) {
        std::array<int, 3> o{0, 0, 0};
        o[d] = side;
        const int to = decomp.neighbour(o);
        const int from = decomp.neighbour({-o[0], -o[1], -o[2]});
        if (to == MPI_PROC_NULL && from == MPI_PROC_NULL) continue;
        std::array<int, 3> slo{h[0], h[1], h[2]}, shi{h[0] + n[0], h[1] + n[1], h[2] + n[2]};
        std::array<int, 3> rlo = slo, rhi = shi;
        if (side > 0) {
          slo[d] = n[d];
          shi[d] = n[d] + h[d];
          rlo[d] = 0;
          rhi[d] = h[d];
        } else {
          slo[d] = h[d];
          shi[d] = 2 * h[d];
          rlo[d] = h[d] + n[d];
          rhi[d] = n[d] + 2 * h[d];
        }
        std::size_t count = 0;
        if (to != MPI_PROC_NULL) {
          for (int i = slo[0]; i < shi[0]; ++i)
            for (int j = slo[1]; j < shi[1]; ++j)
              for (int k = slo[2]; k < shi[2]; ++k)
                m_send[count++] = u(i, j, k);
        }
        const std::size_t cells =
            static_cast<std::size_t>(rhi[0] - rlo[0]) * (rhi[1] - rlo[1]) * (rhi[2] - rlo[2]);
        MPI_Sendrecv(m_send.data(), static_cast<int>(count), MPI_DOUBLE, to, d * 2 + (side > 0),
                     m_recv.data(), static_cast<int>(cells), MPI_DOUBLE, from, d * 2 + (side > 0),
                     decomp.comm(), MPI_STATUS_IGNORE);
        if (from != MPI_PROC_NULL) {
          count = 0;
          for (int i = rlo[0]; i < rhi[0]; ++i)
            for (int j = rlo[1]; j < rhi[1]; ++j)
              for (int k = rlo[2]; k < rhi[2]; ++k)
                u(i, j, k) = m_recv[count++];
        }
      }
    }
  }

private:
  const hcart::Grid& m_grid;
  std::vector<double> m_send, m_recv;
};

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-halo", [&](hcart::Environment& env) {
    CLI::App app{"hcart halo and stencil benchmark"};
    int size = 256, repeats = 7, iterations = 20;
    app.add_option("--size", size, "cells per direction")->capture_default_str();
    app.add_option("--repeats", repeats, "timed repeats")->capture_default_str();
    app.add_option("--iterations", iterations, "exchanges per repeat")->capture_default_str();
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e);
    }
    hcart::GridSpec spec;
    spec.global_size = {size, size, size};
    spec.halo_width = {1, 1, 1};
    const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
    const hcart::Grid grid(decomp);
    auto u = grid.make_field<double>("u");
    auto v = grid.make_field<double>("v");
    Kokkos::deep_copy(u, 1.0);
    const MPI_Comm comm = decomp.comm();
    const bool root = env.rank() == 0;
    if (root) {
      std::printf("%d ranks, mesh %d^3, dims %dx%dx%d, local %dx%dx%d, %d repeats of %d\n",
                  env.size(), size, decomp.dims()[0], decomp.dims()[1], decomp.dims()[2],
                  grid.local_size()[0], grid.local_size()[1], grid.local_size()[2], repeats,
                  iterations);
    }

    // 1 + 2: hcart against the hand-written exchange, interleaved repeat by repeat.
    hcart::HaloExchanger halo(grid, hcart::HaloMode::Faces);
    HandWrittenExchange manual(grid);
    halo.exchange(u);
    manual.exchange(u);
    std::vector<double> t_hcart, t_manual, pack_share;
    for (int r = 0; r < repeats; ++r) {
      const hcart::HaloTimes before = halo.times();
      MPI_Barrier(comm);
      auto t0 = Clock::now();
      for (int it = 0; it < iterations; ++it)
        halo.exchange(u);
      const double th = slowest(seconds_since(t0), comm) / iterations;
      const hcart::HaloTimes after = halo.times();
      double share = (after.pack - before.pack + after.unpack - before.unpack) / iterations / th;
      MPI_Allreduce(MPI_IN_PLACE, &share, 1, MPI_DOUBLE, MPI_MAX, comm);
      MPI_Barrier(comm);
      t0 = Clock::now();
      for (int it = 0; it < iterations; ++it)
        manual.exchange(u);
      t_manual.push_back(slowest(seconds_since(t0), comm) / iterations);
      t_hcart.push_back(th);
      pack_share.push_back(share);
    }
    std::vector<double> ratio(t_hcart.size());
    for (std::size_t r = 0; r < ratio.size(); ++r)
      ratio[r] = t_hcart[r] / t_manual[r];
    if (root) {
      const auto a = stats(t_hcart), b = stats(t_manual), c = stats(ratio), p = stats(pack_share);
      std::printf("hcart exchange (faces)           min %8.3f ms  median %8.3f ms\n", a.min * 1e3,
                  a.median * 1e3);
      std::printf("hand-written MPI_Sendrecv        min %8.3f ms  median %8.3f ms\n", b.min * 1e3,
                  b.median * 1e3);
      std::printf("ratio hcart / hand-written       min %8.3f     median %8.3f\n", c.min, c.median);
      std::printf("pack + unpack share of hcart     min %8.1f %%   median %8.1f %%\n", p.min * 100,
                  p.median * 100);
    }

    // 2b. Full mode: 26 concurrent messages against 3 ordered phases; and three fields in
    // one message per neighbour against one message per field.
    {
      const auto w = grid.make_field<double>("w"), x = grid.make_field<double>("x");
      hcart::HaloOptions concurrent, phases, per_field;
      concurrent.full_method = hcart::FullMethod::Concurrent;
      phases.full_method = hcart::FullMethod::ThreePhase;
      per_field.aggregate_fields = false;
      hcart::HaloExchanger full26(grid, hcart::HaloMode::Full, concurrent);
      hcart::HaloExchanger full3(grid, hcart::HaloMode::Full, phases);
      hcart::HaloExchanger together(grid, hcart::HaloMode::Faces);
      hcart::HaloExchanger apart(grid, hcart::HaloMode::Faces, per_field);
      auto time_it = [&](auto&& call) {
        MPI_Barrier(comm);
        const auto t0 = Clock::now();
        for (int it = 0; it < iterations; ++it)
          call();
        return slowest(seconds_since(t0), comm) / iterations;
      };
      full26.exchange(u);
      full3.exchange(u);
      together.exchange(u, w, x);
      apart.exchange(u, w, x);
      std::vector<double> t26, t3, tt, ta;
      for (int r = 0; r < repeats; ++r) {
        t26.push_back(time_it([&] { full26.exchange(u); }));
        t3.push_back(time_it([&] { full3.exchange(u); }));
        tt.push_back(time_it([&] { together.exchange(u, w, x); }));
        ta.push_back(time_it([&] { apart.exchange(u, w, x); }));
      }
      if (root) {
        const auto a = stats(t26), b = stats(t3), c = stats(tt), d = stats(ta);
        std::printf("full, 26 concurrent messages     min %8.3f ms  median %8.3f ms\n", a.min * 1e3,
                    a.median * 1e3);
        std::printf("full, 3 ordered phases           min %8.3f ms  median %8.3f ms\n", b.min * 1e3,
                    b.median * 1e3);
        std::printf("3 fields, one message/neighbour  min %8.3f ms  median %8.3f ms\n", c.min * 1e3,
                    c.median * 1e3);
        std::printf("3 fields, one message/field      min %8.3f ms  median %8.3f ms\n", d.min * 1e3,
                    d.median * 1e3);
      }
    }

    // 3. Stencil sweep against the copy bandwidth.
    const auto n = grid.local_size();
    const double updates = static_cast<double>(n[0]) * n[1] * n[2];
    const auto extent = grid.extent();
    const double copied = static_cast<double>(extent[0]) * extent[1] * extent[2];
    std::vector<double> t_copy, t_sweep, efficiency;
    for (int r = 0; r < repeats; ++r) {
      MPI_Barrier(comm);
      auto t0 = Clock::now();
      for (int it = 0; it < 5; ++it) {
        hcart::for_each_cell("copy", grid.with_halo_box(), CopyField{u, v});
        hcart::fence("copy");
      }
      const double tc = seconds_since(t0) / 5;
      MPI_Barrier(comm);
      t0 = Clock::now();
      for (int it = 0; it < 5; ++it) {
        hcart::for_each_cell("stencil", grid.owned_box(), SevenPoint{u, v});
        hcart::fence("stencil");
      }
      const double ts = seconds_since(t0) / 5;
      const double bandwidth = copied * 16.0 / tc; // bytes per second, read + write
      const double roofline = updates * 16.0 / bandwidth;
      t_copy.push_back(tc);
      t_sweep.push_back(ts);
      double e = roofline / ts;
      MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_DOUBLE, MPI_MIN, comm);
      efficiency.push_back(e);
    }
    if (root) {
      const auto c = stats(t_copy), s = stats(t_sweep), e = stats(efficiency);
      std::printf("copy, %dx%dx%d cells              min %8.3f ms  median %8.3f ms  (%.2f GB/s at "
                  "the min)\n",
                  extent[0], extent[1], extent[2], c.min * 1e3, c.median * 1e3,
                  copied * 16 / c.min / 1e9);
      std::printf("7-point stencil sweep            min %8.3f ms  median %8.3f ms\n", s.min * 1e3,
                  s.median * 1e3);
      std::printf(
          "sweep / copy roofline (16 B/upd) min %8.1f %%   median %8.1f %%  (slowest rank)\n",
          e.min * 100, e.median * 100);
    }
    return 0;
  });
}
