// The HaloExchanger's benchmark (targets in docs/benchmarks.md), run on 2 ranks:
//   hcart-mpiexec -n 2 build/bin/hcart-bench-exchanger [--size 256] [--repeats 7] [--iterations 20]
//  1. hcart::HaloExchanger, Faces, one 256^3 double field: time per exchange, the share of
//     packing and unpacking in it, and a device-to-device copy of the bytes packed (the
//     floor of each of the two).
//  2. A hand-written exchange of the same faces, side by side, as a Kokkos user writes it:
//     each face copied into a buffer from a subview (Kokkos::deep_copy, a kernel on every
//     backend), MPI_Sendrecv per direction and side, the received buffer copied into the
//     halo; on a GPU MPI gets device buffers or host mirrors, as hcart's exchanger would
//     (the report says which).
//     Also: Full mode's two methods, several fields in one message or one each, and the
//     share of the fields' collective check (HaloOptions::collective_checks) in an exchange,
//     against fields bound once (HaloExchanger::bind).
//  3. A 7-point stencil sweep over the owned cells with the grid's policy, against the
//     copy bandwidth measured in the same run (a streaming copy of two arrays of the same
//     size): the roofline time is updates * 16 B / copy bandwidth (one read and one write
//     per update once the neighbours are in cache; the copy is counted the same way).
#include "BenchTiming.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/core/DeviceAwareMpi.hpp>
#include <hcart/hcart.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
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

// Host memory the copy engine reaches directly, as the exchanger's staging buffers.
#if defined(KOKKOS_ENABLE_CUDA)
using PinnedSpace = Kokkos::CudaHostPinnedSpace;
#else
using PinnedSpace = Kokkos::HostSpace;
#endif

// The slowest rank's time of each repeat.
double slowest(double t, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
  return t;
}

// The textbook exchange as a Kokkos user writes it: for each direction and side, copy the
// face into a contiguous buffer (Kokkos::deep_copy from a subview: a kernel on any backend),
// swap with MPI_Sendrecv, copy the received buffer into the halo. MPI gets the device
// buffers when hcart's run-time decision says it takes device memory (device_mpi()), else
// host mirrors of them (on a host build the mirror is the buffer itself: no copy).
class HandWrittenExchange {
public:
  using Buffer = Kokkos::View<double***, Kokkos::LayoutRight, hcart::MemorySpace>;

  explicit HandWrittenExchange(const hcart::Grid& grid)
      : m_grid(grid), m_device_buffers(hcart::device_mpi().device_buffers) {
    const auto n = grid.local_size();
    const auto h = grid.halo_width();
    for (int d = 0; d < 3; ++d) {
      std::array<int, 3> face = n;
      face[d] = h[d];
      m_send[d] = Buffer("send", face[0], face[1], face[2]);
      m_recv[d] = Buffer("recv", face[0], face[1], face[2]);
      m_send_host[d] = Kokkos::create_mirror_view(m_send[d]);
      m_recv_host[d] = Kokkos::create_mirror_view(m_recv[d]);
    }
  }

  /// \brief Where MPI reads and writes, for the report.
  const char* buffers() const {
    if (hcart::host_execution) return "host memory";
    return m_device_buffers ? "device buffers to MPI"
                            : "device buffers staged through host mirrors";
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
        // Owned cells [h, h + n); towards +1 the last h owned layers go, and the low halo
        // [0, h) is filled from the -1 side; the mirror image towards -1.
        std::array<std::pair<int, int>, 3> send, recv;
        for (int j = 0; j < 3; ++j)
          send[j] = recv[j] = {h[j], h[j] + n[j]};
        send[d] = side > 0 ? std::make_pair(n[d], n[d] + h[d]) : std::make_pair(h[d], 2 * h[d]);
        recv[d] = side > 0 ? std::make_pair(0, h[d]) : std::make_pair(h[d] + n[d], n[d] + 2 * h[d]);
        if (to != MPI_PROC_NULL) {
          Kokkos::deep_copy(m_send[d], Kokkos::subview(u, send[0], send[1], send[2]));
          if (!m_device_buffers) Kokkos::deep_copy(m_send_host[d], m_send[d]);
        }
        const int count = static_cast<int>(m_send[d].size());
        double* out = m_device_buffers ? m_send[d].data() : m_send_host[d].data();
        double* in = m_device_buffers ? m_recv[d].data() : m_recv_host[d].data();
        MPI_Sendrecv(out, to == MPI_PROC_NULL ? 0 : count, MPI_DOUBLE, to, d * 2 + (side > 0), in,
                     count, MPI_DOUBLE, from, d * 2 + (side > 0), decomp.comm(), MPI_STATUS_IGNORE);
        if (from != MPI_PROC_NULL) {
          if (!m_device_buffers) Kokkos::deep_copy(m_recv[d], m_recv_host[d]);
          Kokkos::deep_copy(Kokkos::subview(u, recv[0], recv[1], recv[2]), m_recv[d]);
        }
      }
    }
  }

private:
  const hcart::Grid& m_grid;
  bool m_device_buffers;
  std::array<Buffer, 3> m_send, m_recv; // per direction: a face of h[d] layers
  std::array<Buffer::HostMirror, 3> m_send_host, m_recv_host;
};

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-exchanger", [&](hcart::Environment& env) {
    CLI::App app{"hcart halo and stencil benchmark"};
    int size = 256, repeats = 7, iterations = 20;
    app.add_option("--size", size, "cells per direction")->capture_default_str();
    app.add_option("--repeats", repeats, "timed repeats")->capture_default_str();
    app.add_option("--iterations", iterations, "exchanges per repeat")->capture_default_str();
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
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
    if (root) {
      std::printf("hand-written exchange: %s; hcart's exchanger: %s\n", manual.buffers(),
                  hcart::device_mpi().reason.c_str());
    }
    halo.exchange(u);
    manual.exchange(u);
    // The bytes this rank packs per exchange, and a device-to-device copy of as many bytes:
    // the floor that packing (field to buffer) and unpacking (buffer to field) each have.
    std::int64_t packed = 0;
    for (const std::int64_t b : halo.counters().bytes)
      packed += b;
    packed /= std::max<std::int64_t>(1, halo.counters().exchanges);
    const Kokkos::View<char*, hcart::MemorySpace> from("copy_from",
                                                       static_cast<std::size_t>(packed)),
        to("copy_to", static_cast<std::size_t>(packed));
    // The bytes' transfer at the link's bandwidth: each rank sends its packed bytes to the next
    // rank of a ring and receives as many from the one before, through pinned host memory
    // (device to host, MPI, host to device) where MPI takes no device buffers, straight from
    // device memory where it does: the floor of an exchange of those bytes.
    const bool via_host = hcart::device_mpi().device_build && !hcart::device_mpi().device_buffers;
#if defined(KOKKOS_ENABLE_CUDA)
    using Pinned = Kokkos::View<char*, Kokkos::CudaHostPinnedSpace>;
#else
    using Pinned = Kokkos::View<char*, Kokkos::HostSpace>;
#endif
    const Pinned send_host(Kokkos::view_alloc(Kokkos::WithoutInitializing, "link_send"),
                           via_host ? static_cast<std::size_t>(packed) : 0),
        recv_host(Kokkos::view_alloc(Kokkos::WithoutInitializing, "link_recv"),
                  via_host ? static_cast<std::size_t>(packed) : 0);
    const auto transfer = [&] {
      const int next = (env.rank() + 1) % env.size(),
                last = (env.rank() + env.size() - 1) % env.size();
      char* out = via_host ? send_host.data() : from.data();
      char* in = via_host ? recv_host.data() : to.data();
      if (via_host) Kokkos::deep_copy(send_host, from);
      MPI_Sendrecv(out, static_cast<int>(packed), MPI_BYTE, next, 7, in, static_cast<int>(packed),
                   MPI_BYTE, last, 7, comm, MPI_STATUS_IGNORE);
      if (via_host) Kokkos::deep_copy(to, recv_host);
    };
    std::vector<double> t_hcart, t_manual, pack_share, pack_unpack, t_bytes, t_link;
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
      double mine = (after.pack - before.pack + after.unpack - before.unpack) / iterations;
      MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_DOUBLE, MPI_MAX, comm);
      pack_unpack.push_back(mine);
      hcart::fence("bench_copy");
      t0 = Clock::now();
      for (int it = 0; it < iterations; ++it)
        Kokkos::deep_copy(to, from);
      hcart::fence("bench_copy");
      t_bytes.push_back(slowest(seconds_since(t0), comm) / iterations);
      MPI_Barrier(comm);
      t0 = Clock::now();
      for (int it = 0; it < iterations; ++it)
        transfer();
      t_link.push_back(slowest(seconds_since(t0), comm) / iterations);
    }
    std::vector<double> ratio(t_hcart.size());
    for (std::size_t r = 0; r < ratio.size(); ++r)
      ratio[r] = t_hcart[r] / t_manual[r];
    if (root) {
      const auto a = stats(t_hcart), b = stats(t_manual), c = stats(ratio), p = stats(pack_share);
      std::printf("hcart exchange (faces)           min %9.4f ms  median %9.4f ms\n", a.min * 1e3,
                  a.median * 1e3);
      std::printf("hand-written MPI_Sendrecv        min %9.4f ms  median %9.4f ms\n", b.min * 1e3,
                  b.median * 1e3);
      std::printf("ratio hcart / hand-written       min %8.3f     median %8.3f\n", c.min, c.median);
      std::printf("pack + unpack share of hcart     min %8.1f %%   median %8.1f %%\n", p.min * 100,
                  p.median * 100);
      const auto pu = stats(pack_unpack), cb = stats(t_bytes);
      std::printf("pack + unpack (slowest rank)     min %9.4f ms  median %9.4f ms\n", pu.min * 1e3,
                  pu.median * 1e3);
      std::printf("copy of the packed bytes (%.2f MiB) min %6.3f ms  median %9.4f ms  "
                  "(pack + unpack / copy at the medians: %.2f)\n",
                  static_cast<double>(packed) / (1 << 20), cb.min * 1e3, cb.median * 1e3,
                  pu.median / cb.median);
      const auto l = stats(t_link);
      std::printf("the bytes' transfer (%s)   min %9.4f ms  median %9.4f ms  (%.2f GB/s a rank; "
                  "exchange / transfer at the medians: %.2f)\n",
                  via_host ? "device-host-MPI-host-device" : "MPI from device memory", l.min * 1e3,
                  l.median * 1e3, static_cast<double>(packed) / l.min / 1e9, a.median / l.median);
    }

    // The slowest rank's time per call of `iterations` calls.
    auto time_it = [&](auto&& call) {
      MPI_Barrier(comm);
      const auto t0 = Clock::now();
      for (int it = 0; it < iterations; ++it)
        call();
      return slowest(seconds_since(t0), comm) / iterations;
    };

    // 1b. Pack + unpack against a device copy of the same bytes, Faces and Full (3 phases),
    // and on a device whose MPI takes no device memory both ways of staging through pinned
    // host buffers (HCART_HALO_STAGING): the kernels writing and reading the pinned buffers,
    // or device buffers copied by the copy engine (its time apart: stage), with a copy of the
    // packed bytes to the host and back beside it. Side by side, repeat by repeat.
    {
      struct Variant {
        const char* name;
        hcart::HaloMode mode;
        const char* staging;
        std::unique_ptr<hcart::HaloExchanger> halo;
        std::int64_t packed = 0;
        Kokkos::View<char*, hcart::MemorySpace> from, to;
        Kokkos::View<char*, PinnedSpace> host;
        std::vector<double> exchange, pack_unpack, stage, copy, round_trip;
      };
      std::vector<Variant> variants;
      const bool staged = !hcart::host_execution && !halo.device_buffers();
      for (const hcart::HaloMode mode : {hcart::HaloMode::Faces, hcart::HaloMode::Full}) {
        for (const char* staging : {"kernel", "copy"}) {
          if (!staged && std::string(staging) == "copy") continue;
          setenv("HCART_HALO_STAGING", staging, 1);
          Variant variant;
          variant.name = mode == hcart::HaloMode::Faces ? "faces" : "full";
          variant.mode = mode;
          variant.staging = staged ? staging : "none";
          hcart::HaloOptions options;
          options.full_method = hcart::FullMethod::ThreePhase;
          variant.halo = std::make_unique<hcart::HaloExchanger>(grid, mode, options);
          variant.halo->exchange(u);
          for (const std::int64_t b : variant.halo->counters().bytes)
            variant.packed += b;
          variant.packed /= std::max<std::int64_t>(1, variant.halo->counters().exchanges);
          variant.from =
              Kokkos::View<char*, hcart::MemorySpace>("copy_from", std::size_t(variant.packed));
          variant.to =
              Kokkos::View<char*, hcart::MemorySpace>("copy_to", std::size_t(variant.packed));
          variant.host = Kokkos::View<char*, PinnedSpace>("copy_host", std::size_t(variant.packed));
          variants.push_back(std::move(variant));
        }
      }
      unsetenv("HCART_HALO_STAGING");
      for (int r = 0; r < repeats; ++r) {
        for (Variant& variant : variants) {
          const hcart::HaloTimes before = variant.halo->times();
          MPI_Barrier(comm);
          auto t0 = Clock::now();
          for (int it = 0; it < iterations; ++it)
            variant.halo->exchange(u);
          variant.exchange.push_back(slowest(seconds_since(t0), comm) / iterations);
          const hcart::HaloTimes after = variant.halo->times();
          variant.pack_unpack.push_back(slowest(
              (after.pack - before.pack + after.unpack - before.unpack) / iterations, comm));
          variant.stage.push_back(slowest((after.stage - before.stage) / iterations, comm));
          hcart::fence("bench_copy");
          MPI_Barrier(comm);
          t0 = Clock::now();
          for (int it = 0; it < iterations; ++it)
            Kokkos::deep_copy(variant.to, variant.from);
          hcart::fence("bench_copy");
          variant.copy.push_back(slowest(seconds_since(t0), comm) / iterations);
          MPI_Barrier(comm);
          t0 = Clock::now();
          for (int it = 0; it < iterations; ++it) {
            Kokkos::deep_copy(variant.host, variant.from);
            Kokkos::deep_copy(variant.to, variant.host);
          }
          hcart::fence("bench_copy");
          variant.round_trip.push_back(slowest(seconds_since(t0), comm) / iterations);
        }
      }
      if (root) {
        std::printf("\n%-6s %-7s %9s %12s %14s %12s %9s %11s %14s\n", "mode", "staging", "MiB",
                    "exchange", "pack+unpack", "device copy", "ratio", "stage", "to host+back");
        for (const Variant& variant : variants) {
          const auto e = stats(variant.exchange), pu = stats(variant.pack_unpack),
                     st = stats(variant.stage), c = stats(variant.copy),
                     rt = stats(variant.round_trip);
          std::printf("%-6s %-7s %9.2f %9.4f ms %11.4f ms %9.4f ms %9.2f %8.4f ms %11.4f ms\n",
                      variant.name, variant.staging,
                      static_cast<double>(variant.packed) / (1 << 20), e.median * 1e3,
                      pu.median * 1e3, c.median * 1e3, pu.median / c.median, st.median * 1e3,
                      rt.median * 1e3);
        }
        std::printf("(medians of %d repeats of %d; ratio: pack + unpack / device copy of the "
                    "packed bytes; stage: copies between device and pinned buffers, against a "
                    "copy to the host and back of the same bytes)\n",
                    repeats, iterations);
      }
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
        std::printf("full, 26 concurrent messages     min %9.4f ms  median %9.4f ms\n", a.min * 1e3,
                    a.median * 1e3);
        std::printf("full, 3 ordered phases           min %9.4f ms  median %9.4f ms\n", b.min * 1e3,
                    b.median * 1e3);
        std::printf("3 fields, one message/neighbour  min %9.4f ms  median %9.4f ms\n", c.min * 1e3,
                    c.median * 1e3);
        std::printf("3 fields, one message/field      min %9.4f ms  median %9.4f ms\n", d.min * 1e3,
                    d.median * 1e3);
      }
    }

    // 2c. The fields' collective check (HaloOptions::collective_checks, on by default): the
    // same Faces exchange of one field with the check, without it, and bound once
    // (HaloExchanger::bind: checked at the binding, not per exchange), repeat by repeat in
    // turn. A form's share of the check is 1 - (time without) / (time of the form), per
    // repeat; the binding's own check (once) is reported against the exchanges timed.
    {
      hcart::HaloOptions unchecked;
      unchecked.collective_checks = false;
      hcart::HaloExchanger checked_halo(grid, hcart::HaloMode::Faces);
      hcart::HaloExchanger unchecked_halo(grid, hcart::HaloMode::Faces, unchecked);
      hcart::HaloExchanger bound_halo(grid, hcart::HaloMode::Faces);
      MPI_Barrier(comm);
      const auto t_bind0 = Clock::now();
      hcart::HaloBinding bound = bound_halo.bind(u);
      double t_bind = seconds_since(t_bind0);
      MPI_Allreduce(MPI_IN_PLACE, &t_bind, 1, MPI_DOUBLE, MPI_MAX, comm);
      checked_halo.exchange(u);
      unchecked_halo.exchange(u);
      bound.exchange();
      std::vector<double> t_on, t_off, t_bound, share, share_bound;
      double bound_total = 0.0;
      for (int r = 0; r < repeats; ++r) {
        t_on.push_back(time_it([&] { checked_halo.exchange(u); }));
        t_off.push_back(time_it([&] { unchecked_halo.exchange(u); }));
        t_bound.push_back(time_it([&] { bound.exchange(); }));
        share.push_back(1.0 - t_off.back() / t_on.back());
        share_bound.push_back(1.0 - t_off.back() / t_bound.back());
        bound_total += t_bound.back() * iterations;
      }
      if (root) {
        const auto a = stats(t_on), b = stats(t_off), c = stats(share), d = stats(t_bound),
                   e = stats(share_bound);
        std::printf("faces, collective check on       min %9.4f ms  median %9.4f ms\n", a.min * 1e3,
                    a.median * 1e3);
        std::printf("faces, collective check off      min %9.4f ms  median %9.4f ms\n", b.min * 1e3,
                    b.median * 1e3);
        std::printf("faces, bound once (bind)         min %9.4f ms  median %9.4f ms\n", d.min * 1e3,
                    d.median * 1e3);
        std::printf("the check's share of the exchange min %7.1f %%   median %8.1f %%\n",
                    c.min * 100, c.median * 100);
        std::printf("bound: share per exchange        min %7.1f %%   median %8.1f %%\n",
                    e.min * 100, e.median * 100);
        std::printf("bound: its one check %.4f ms, %.2f %% of the %d bound exchanges timed\n",
                    t_bind * 1e3, 100.0 * t_bind / (t_bind + bound_total), repeats * iterations);
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
      std::printf("copy, %dx%dx%d cells              min %9.4f ms  median %9.4f ms  (%.2f GB/s at "
                  "the min)\n",
                  extent[0], extent[1], extent[2], c.min * 1e3, c.median * 1e3,
                  copied * 16 / c.min / 1e9);
      std::printf("7-point stencil sweep            min %9.4f ms  median %9.4f ms\n", s.min * 1e3,
                  s.median * 1e3);
      std::printf(
          "sweep / copy roofline (16 B/upd) min %8.1f %%   median %8.1f %%  (slowest rank)\n",
          e.min * 100, e.median * 100);
    }
    return 0;
  });
}
