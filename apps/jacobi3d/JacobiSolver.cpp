// Jacobi3D's run loop: passes of one or several iterations, their halo exchanges, the
// residual checks, outputs and checkpoints on time.
#include "JacobiSolver.hpp"

#include "AppTimers.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/core/Timers.hpp>

#include <chrono>
#include <cmath>
#include <string>

namespace hcart::jacobi {

namespace {
using Clock = std::chrono::steady_clock;
} // namespace

double Solver::global_cells() const {
  const auto g = m_grid.global_size();
  return static_cast<double>(g[0]) * static_cast<double>(g[1]) * static_cast<double>(g[2]);
}

int Solver::threads_per_rank() const noexcept {
  return m_wavefront ? m_wavefront->threads() : host_threads();
}

HaloCounters Solver::halo_counters() const {
  HaloCounters sum = m_halo.counters();
  if (m_deep) sum += m_deep->counters();
  return sum;
}

// The exchanger of passes: Full (the grown boxes need edges and corners), as many layers as
// the pass has iterations (HaloWidth per call: a shorter last pass sends less). Made on
// first use; all ranks make the same passes.
HaloExchanger& Solver::deep_exchanger() {
  if (!m_deep) {
    HaloOptions options;
    options.width = static_cast<int>(m_iterations_per_pass);
    m_deep = std::make_unique<HaloExchanger>(m_grid, HaloMode::Full, options);
  }
  return *m_deep;
}

// The binding of m_halo that exchanges m_u: both fields are bound once (one check for the
// run, HaloExchanger::bind), at the first single iteration; all ranks make the same steps.
HaloBinding& Solver::bound_u() {
  if (m_bound[0].size() == 0) {
    m_bound[m_u_binding] = m_halo.bind(m_u);
    m_bound[1 - m_u_binding] = m_halo.bind(m_v);
  }
  return m_bound[m_u_binding];
}

// One iteration with the halo exchange; returns the local max |u_new - u_old| when `check`.
double Solver::step(bool check) {
  const Box owned = m_grid.owned_box();
  const RelaxFields fields{m_u, m_v, m_rhs, m_settings.problem == Problem::Poisson};
  double local = 0.0;
  if (!m_settings.overlap) {
    bound_u().exchange();
    apps::account_halo_times(m_timers, m_halo, m_accounted_halo);
    auto scope = m_timers.region("compute");
    local = relax(default_loop_pattern, fields, owned, m_stencil, check);
  } else {
    bound_u().start();
    {
      // Cells whose neighbours are all owned: one layer in from every face.
      auto scope = m_timers.region("compute");
      Box inner = owned;
      for (int d = 0; d < 3; ++d) {
        ++inner.lo[d];
        --inner.hi[d];
      }
      local = relax(default_loop_pattern, fields, inner, m_stencil, check);
    }
    bound_u().finish();
    apps::account_halo_times(m_timers, m_halo, m_accounted_halo);
    auto scope = m_timers.region("compute");
    // The shell, in six disjoint slabs: x faces whole, y faces inside x, z faces inside both.
    for (int d = 0; d < 3; ++d) {
      for (int side = 0; side < 2; ++side) {
        if (side == 1 && owned.extent(d) == 1) continue; // one layer: the low slab was it
        Box slab = owned;
        for (int j = 0; j < d; ++j) {
          ++slab.lo[j];
          --slab.hi[j];
        }
        slab.lo[d] = side == 0 ? owned.lo[d] : owned.hi[d] - 1;
        slab.hi[d] = slab.lo[d] + 1;
        local = std::max(local, relax(default_loop_pattern, fields, slab, m_stencil, check));
      }
    }
  }
  std::swap(m_u, m_v);
  m_u_binding = 1 - m_u_binding;
  ++m_iteration;
  return local;
}

// `iterations` (>= 2) iterations in one pass over u (Wavefront.hpp), after one exchange of
// halos as deep where there are neighbours. Returns the local max |u_new - u_old| of the last
// iteration when `check`.
double Solver::pass(long iterations, bool check) {
  if (m_grid.block().has_neighbours()) {
    HaloExchanger& deep = deep_exchanger();
    deep.exchange(HaloWidth{static_cast<int>(iterations)}, m_u);
    apps::account_halo_times(m_timers, deep, m_accounted_deep);
  }
  auto scope = m_timers.region("compute");
  const double worst = m_wavefront->pass(m_u, m_rhs, m_settings.problem == Problem::Poisson,
                                         m_stencil, iterations, check);
  m_iteration += iterations;
  return worst;
}

// `count` iterations; the residual (global max |u_new - u_old|) of the last when `check`,
// else -1. In passes of up to iterations_per_pass(); single ones through step().
double Solver::advance(long count, bool check) {
  double local = 0.0;
  for (long done = 0; done < count;) {
    const long iterations = std::min(count - done, m_iterations_per_pass);
    const bool last = done + iterations == count;
    local = iterations > 1 ? pass(iterations, check && last) : step(check && last);
    done += iterations;
  }
  if (!check) return -1.0;
  auto scope = m_timers.region("residual");
  double global = 0.0;
  HCART_MPI_CHECK(
      MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, m_grid.decomposition().comm()));
  // Every rank holds the same value: the error is collective.
  if (!std::isfinite(global)) {
    Error error("the solution is no longer finite at iteration " + std::to_string(m_iteration) +
                " (a value overflowed or became NaN; check [jacobi] boundary_values and the "
                "restart file)");
    error.set_collective(true);
    throw error;
  }
  return global;
}

long Solver::iterations_to_next_check() const {
  return m_settings.check_every - m_iteration % m_settings.check_every;
}

Result Solver::iterate(long count) {
  Result r;
  const auto t0 = Clock::now();
  for (long left = count; left > 0;) {
    const long chunk = std::min(left, iterations_to_next_check());
    const bool check = (m_iteration + chunk) % m_settings.check_every == 0;
    const double residual = advance(chunk, check);
    if (check) r.residual = residual;
    left -= chunk;
  }
  r.iterations = count;
  r.seconds = seconds_since(t0);
  return r;
}

Result Solver::run(const std::function<void(const Progress&)>& progress) {
  Result r;
  const auto t0 = Clock::now();
  const double io_before = m_timers.seconds("io");
  auto last_report = t0;
  const long first = m_iteration;
  double last_residual = -1.0;
  // Up to the next iteration that needs something: a residual, an output, a checkpoint or
  // the end (after_step acts only on multiples of its periods).
  auto to_next = [&](long period) {
    return period > 0 ? period - m_iteration % period : m_settings.max_iterations;
  };
  while (m_iteration < m_settings.max_iterations) {
    const long chunk =
        std::min({iterations_to_next_check(), to_next(m_output.every),
                  to_next(m_output.checkpoint_every), m_settings.max_iterations - m_iteration});
    const bool check = (m_iteration + chunk) % m_settings.check_every == 0 ||
                       m_iteration + chunk == m_settings.max_iterations;
    const double residual = advance(chunk, check);
    r.iterations = m_iteration - first;
    if (check) {
      r.residual = last_residual = residual;
      r.converged = m_settings.tolerance > 0 && residual < m_settings.tolerance;
    }
    after_step(last_residual);
    if (r.converged) break;
    // Progress lines only where all ranks agree on the time (after a reduction).
    if (check && progress && m_settings.progress_seconds > 0) {
      double elapsed = std::chrono::duration<double>(Clock::now() - last_report).count();
      HCART_MPI_CHECK(MPI_Bcast(&elapsed, 1, MPI_DOUBLE, 0, m_grid.decomposition().comm()));
      if (elapsed >= m_settings.progress_seconds) {
        progress({m_iteration, m_iteration - first, residual, seconds_since(t0)});
        last_report = Clock::now();
      }
    }
  }
  // The final state, unless it was just written.
  if (m_output.every > 0 && m_iteration % m_output.every != 0) write_output();
  r.seconds = seconds_since(t0);
  r.output_seconds = m_timers.seconds("io") - io_before;
  return r;
}

} // namespace hcart::jacobi
