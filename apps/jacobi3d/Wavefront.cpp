#include "Wavefront.hpp"

#include "Relax.hpp"

#include <hcart/core/Error.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>

namespace hcart::jacobi {

namespace {

using HostSpace = Kokkos::DefaultHostExecutionSpace;

// CPU time of the calling thread.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
using Team = Kokkos::TeamPolicy<HostSpace>;

struct WavefrontTeam {
  double* u;
  double* ring;
  const double* rhs; // null: Laplace
  long si, sj;
  Stencil s;
  long iterations; // of this pass
  bool check;
  std::array<int, 3> halo, local;
  std::array<std::array<bool, 2>, 3> open; // a neighbour across the low / high side
  double* worst;                           // per team member
  double* cpu;                             // per team member: CPU seconds of the pass

  // The box of iteration t in direction d: [lo, hi).
  long lo(int d, long t) const { return halo[d] - (open[d][0] ? iterations - t : 0); }
  long hi(int d, long t) const { return halo[d] + local[d] + (open[d][1] ? iterations - t : 0); }
  // Plane i of iteration t: u itself for iteration 0 and for the Dirichlet planes outside.
  double* level(long t, long i) const {
    if (t == 0 || i < lo(0, t) || i >= hi(0, t)) return u + i * si;
    return ring + ((t - 1) * 3 + i % 3) * si;
  }

  void operator()(const Team::member_type& member) const {
    const long me = member.team_rank(), team = member.team_size();
    const double cpu0 = thread_cpu_seconds();
    double mine = 0.0;
    for (long p = lo(0, 1); p < hi(0, 1) + iterations - 1; ++p) {
      for (long t = 1; t <= iterations; ++t) {
        const long i = p - t + 1;
        if (i < lo(0, t) || i >= hi(0, t)) continue;
        // This member's share of the plane's rows.
        const long rows = hi(1, t) - lo(1, t), share = (rows + team - 1) / team;
        const long r0 = std::min(rows, me * share), r1 = std::min(rows, r0 + share);
        if (r1 > r0) {
          const long row = (lo(1, t) + r0) * sj;
          double* out = t == iterations ? u + i * si : level(t, i);
          const double change = relax_plane(
              level(t - 1, i - 1) + row, level(t - 1, i) + row, level(t - 1, i + 1) + row,
              out + row, rhs != nullptr ? rhs + i * si + row : nullptr, sj,
              static_cast<int>(r1 - r0), static_cast<int>(lo(2, t)), static_cast<int>(hi(2, t)), s,
              check && t == iterations);
          mine = change > mine ? change : mine;
        }
        // The plane is complete before anyone reads it.
        member.team_barrier();
      }
    }
    worst[me] = mine;
    cpu[me] = thread_cpu_seconds() - cpu0;
  }
};

} // namespace

Wavefront::Wavefront(const Field<double>& u, const Block& block, long iterations)
    : m_block(block), m_iterations(iterations) {
  HCART_CHECK(host_execution, "jacobi::Wavefront: host execution only, not on the "
                                  << execution_space_name() << " execution space");
  HCART_CHECK(iterations >= 2,
              "jacobi::Wavefront: " << iterations << " iterations per pass, expected 2 or more");
  const long plane = static_cast<long>(u.stride(0));
  // Every slot starts as a copy of the first owned plane: on sides without a neighbour its
  // frame holds the Dirichlet values (the same on every plane: they are constant per
  // face), which the stencil reads there; the passes write the boxes inside.
  m_ring = Kokkos::View<double*, Kokkos::HostSpace>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "jacobi_wavefront"),
      static_cast<std::size_t>(3 * (iterations - 1) * plane));
  using Plane = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const auto first = Kokkos::subview(u, block.halo_width[0], Kokkos::ALL, Kokkos::ALL);
  for (long slot = 0; slot < 3 * (iterations - 1); ++slot) {
    Kokkos::deep_copy(Plane(m_ring.data() + slot * plane, u.extent(1), u.extent(2)), first);
  }
  const WavefrontTeam probe{};
  m_threads = std::max(1, Team(1, Kokkos::AUTO).team_size_max(probe, Kokkos::ParallelForTag()));
  m_threads = std::min<int>(m_threads, m_space.concurrency());
  m_worst = Kokkos::View<double*, Kokkos::HostSpace>("jacobi_wavefront_worst",
                                                     static_cast<std::size_t>(m_threads));
  m_cpu = Kokkos::View<double*, Kokkos::HostSpace>("jacobi_wavefront_cpu",
                                                   static_cast<std::size_t>(m_threads));
}

double Wavefront::pass(const Field<double>& u, const Field<double>& rhs, bool poisson,
                       const Stencil& s, long iterations, bool check) {
  HCART_CHECK(iterations >= 2 && iterations <= m_iterations,
              "jacobi::Wavefront::pass: " << iterations << " iterations, expected 2 to "
                                          << m_iterations);
  std::array<std::array<bool, 2>, 3> open{};
  for (int d = 0; d < 3; ++d) {
    for (int side = 0; side < 2; ++side)
      open[d][side] = !m_block.is_physical(d, side);
  }
  const WavefrontTeam team{u.data(),
                           m_ring.data(),
                           poisson ? rhs.data() : nullptr,
                           static_cast<long>(u.stride(0)),
                           static_cast<long>(u.stride(1)),
                           s,
                           iterations,
                           check,
                           m_block.halo_width,
                           m_block.local_size,
                           open,
                           m_worst.data(),
                           m_cpu.data()};
  // The whole team, unless it was starved recently (then one thread until the next probe).
  const int members = m_threads > 1 && m_passes < m_alone_until ? 1 : m_threads;
  const auto t0 = std::chrono::steady_clock::now();
  Kokkos::parallel_for("jacobi_wavefront", Team(m_space, 1, members), team);
  fence(m_space, "jacobi_pass");
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++m_passes;
  if (members < m_threads) {
    ++m_starved_passes;
  } else if (members > 1 && wall > kJudgedPass) {
    double least = wall;
    for (int t = 0; t < members; ++t)
      least = std::min(least, m_cpu(t));
    if (least < kStarvedShare * wall) {
      ++m_starved_passes;
      m_alone_until = m_passes + m_probe_interval;
      m_probe_interval = std::min(2 * m_probe_interval, 1024L);
    } else {
      m_probe_interval = 8;
    }
  }
  double worst = 0.0;
  for (int t = 0; t < members; ++t)
    worst = std::max(worst, m_worst(t));
  return worst;
}

} // namespace hcart::jacobi
