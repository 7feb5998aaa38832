// Temporal blocking on the host: D Jacobi iterations in one pass over memory, in place on
// u, with all of the rank's threads.
//
// Iteration t (t = 0 is u) covers the owned box grown by D - t on every side with a
// neighbour, so one exchange of halos D deep before the pass serves all of it (the solver
// does it); on the other sides the halo holds the Dirichlet values for good. Along x the pass
// is a wavefront: at position p iteration t is computed on plane p - t + 1 from planes
// p - t .. p - t + 2 of iteration t - 1, which are complete by then. Iterations 1 .. D - 1
// live in a ring of 3 planes each; the last goes to u's plane p - D + 1, whose old values no
// later update reads. u is read and written once per pass: 16 / D bytes per update instead
// of 24.
//
// Threads: one team of all the rank's threads; each computes its share of the rows of every
// plane update, and the team meets at a barrier before the next one, so each plane is
// complete before any thread reads it. A team member that another process keeps off its
// core stalls every barrier (on 2 cores with one busy process, 2 threads ran 11x slower than
// one): each member measures the CPU time it got during the pass, and when one got less than
// 70% of the pass's wall time the next passes run with one thread, the whole team being tried
// again after 8, 16, 32 ... passes (docs/benchmarks.md, "Threads beside a busy core"). Every value
// is computed from the same operands by the same update() as one iteration per pass (Relax.hpp), so
// the field, the residuals and the stopping iteration are bitwise the same for every D and thread
// count.
//
// Host execution only (raw pointers into host memory): on a device build the solver does one
// iteration per pass.
#pragma once

#include "PointUpdates.hpp"

#include <hcart/grid/Block.hpp>
#include <hcart/grid/Field.hpp>

namespace hcart::jacobi {

class Wavefront {
public:
  /// \brief Room for passes of up to `iterations` (>= 2) on fields of `block` shaped like
  /// `u`, whose Dirichlet frame (the halo on sides without a neighbour) the ring copies.
  Wavefront(const Field<double>& u, const Block& block, long iterations);

  /// \brief `iterations` (2 .. the constructor's) iterations on u in place, with the
  /// right-hand side `rhs` when `poisson`. Returns this rank's max |u_new - u_old| of the
  /// last iteration when `check`, else 0.
  double pass(const Field<double>& u, const Field<double>& rhs, bool poisson, const Stencil& s,
              long iterations, bool check);

  /// \brief Threads that share a pass (when none is starved).
  int threads() const noexcept { return m_threads; }
  /// \brief Passes so far, and those that found the team starved or ran with one thread
  /// because it had been.
  long passes() const noexcept { return m_passes; }
  long starved_passes() const noexcept { return m_starved_passes; }

  /// \brief A team member that got less than this share of a core during a pass was
  /// starved: another process (or more threads than cores) competes for its core.
  static constexpr double kStarvedShare = 0.7;
  /// \brief Only passes longer than this (seconds) are judged: in shorter ones the launch of
  /// the team weighs on the measurement.
  static constexpr double kJudgedPass = 2e-3;

private:
  Block m_block;
  long m_iterations;
  int m_threads = 1;
  Kokkos::DefaultHostExecutionSpace m_space;        // made once: Kokkos 4 allocates in each
  Kokkos::View<double*, Kokkos::HostSpace> m_ring;  // the intermediate iterations' planes
  Kokkos::View<double*, Kokkos::HostSpace> m_worst; // per thread
  Kokkos::View<double*, Kokkos::HostSpace> m_cpu;   // per thread: CPU seconds of the pass
  // Starved teams: passes run by one thread until the next probe of the whole team.
  long m_passes = 0, m_starved_passes = 0;
  long m_alone_until = 0;    // pass number of the next probe of the whole team
  long m_probe_interval = 8; // doubles while probes find the team starved
};

} // namespace hcart::jacobi
