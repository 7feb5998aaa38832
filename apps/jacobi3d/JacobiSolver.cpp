#include "JacobiSolver.hpp"

#include "AppDeck.hpp"
#include "AppTimers.hpp"
#include "jacobi_kernels.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/HostClones.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/io/Xdmf.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>

namespace hcart::jacobi {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Rows [0, rows) of one plane of the host sweep: out = update(centre) for k in [k0, k1) on
// each row, with the planes below and above in i at `below` and `above`, the right-hand side
// at `rhs` (or null) and rows sj apart in all of them. Returns max |out - centre| when
// `check`, else 0. The neighbouring planes are pointers of their own, not a stride, so that
// the wavefront's planes may lie in its ring buffer.
// Out of line so that HCART_HOST_CLONES can build it for AVX2 as well; a plane per call
// keeps the cost of the dispatched call out of the row loop.
HCART_HOST_CLONES double sweep_plane(const double* __restrict below,
                                     const double* __restrict centre,
                                     const double* __restrict above, double* __restrict out,
                                     const double* __restrict rhs, long sj, int rows, int k0,
                                     int k1, const Stencil s, bool check) {
  const double* a = centre;
  double worst = 0.0;
  for (int r = 0; r < rows; ++r, below += sj, a += sj, above += sj, out += sj,
           rhs = rhs != nullptr ? rhs + sj : nullptr) {
    if (rhs == nullptr && !check) {
      for (int k = k0; k < k1; ++k) {
        out[k] = update(below[k], above[k], a[k - sj], a[k + sj], a[k - 1], a[k + 1], 0.0, s);
      }
      continue;
    }
    for (int k = k0; k < k1; ++k) {
      const double next = update(below[k], above[k], a[k - sj], a[k + sj], a[k - 1], a[k + 1],
                                 rhs != nullptr ? rhs[k] : 0.0, s);
      const double change = next > a[k] ? next - a[k] : a[k] - next;
      worst = change > worst ? change : worst;
      out[k] = next;
    }
  }
  return check ? worst : 0.0;
}

// The wavefront keeps 3 planes of each of its depth - 1 intermediate iterations and 3 of u
// in flight; it pays when they stay in cache. 16 MiB fits the last-level cache that one core
// reaches on current server processors (a 256^2 plane is 0.5 MiB: depth 8; 512^2: depth 2).
constexpr double kWavefrontCacheBytes = 16.0 * 1024 * 1024;
constexpr long kMaxWavefrontDepth = 8;
constexpr double kMaxRedundantShare = 0.1;
} // namespace

Solver::Solver(const Grid& grid, const Settings& settings, Timers& timers, const Output& output)
    : m_grid(grid), m_settings(settings), m_output(output), m_timers(timers),
      m_u(grid.make_field<double>("u")), m_v(grid.make_field<double>("v")),
      m_halo(grid, HaloMode::Faces) {
  const auto n = grid.global_size();
  m_stencil =
      make_stencil(static_cast<double>(n[0]), static_cast<double>(n[1]), static_cast<double>(n[2]));
  // Dirichlet values in the halo slabs of faces without a neighbour, in both fields, across
  // the whole extent of the other directions: the wavefront also updates halo cells of
  // neighbouring ranks next to such a face, and reads the boundary value beside them.
  const Decomposition& decomp = grid.decomposition();
  const auto e = grid.extent();
  const auto h = grid.halo_width();
  const auto local = grid.local_size();
  for (int d = 0; d < 3; ++d) {
    for (int side = 0; side < 2; ++side) {
      std::array<int, 3> o{0, 0, 0};
      o[d] = side == 0 ? -1 : 1;
      m_open[d][side] = decomp.neighbour(o) != MPI_PROC_NULL;
      if (m_open[d][side]) continue;
      const double value =
          settings.problem == Problem::Laplace ? settings.boundary_values[2 * d + side] : 0.0;
      std::array<int, 3> lo{0, 0, 0}, hi = e;
      lo[d] = side == 0 ? 0 : h[d] + local[d];
      hi[d] = side == 0 ? h[d] : e[d];
      const Field<double> u = m_u, v = m_v;
      Kokkos::parallel_for(
          "jacobi_bc", Grid::box_policy(lo, hi),
          KOKKOS_LAMBDA(int i, int j, int k) { u(i, j, k) = v(i, j, k) = value; });
    }
  }
  if (settings.problem == Problem::Poisson) {
    m_rhs = grid.make_field<double>("rhs");
    const Field<double> f = m_rhs;
    const auto off = grid.global_offset();
    const auto g = grid.global_size();
    // On halo cells too (the wavefront updates those of neighbours): a function of the
    // global index, so bitwise the value the owner has.
    Kokkos::parallel_for(
        "jacobi_rhs", grid.with_halo_policy(), KOKKOS_LAMBDA(int i, int j, int k) {
          f(i, j, k) =
              poisson_rhs(coordinate(off[0] + i - h[0], g[0]), coordinate(off[1] + j - h[1], g[1]),
                          coordinate(off[2] + k - h[2], g[2]));
        });
  }
  Kokkos::fence();
  if (!output.restart.empty()) {
    auto scope = m_timers.region("io");
    const FileContents file = inspect_fields(decomp.comm(), output.restart);
    agree_on_errors(decomp.comm(), [&] {
      HCART_REQUIRE(file.metadata.application == "jacobi3d" && file.metadata.kind == "checkpoint",
                    "[output] restart = \"" << output.restart << "\": a " << file.metadata.kind
                                            << " of '" << file.metadata.application
                                            << "', expected a jacobi3d checkpoint");
    });
    read_field(output.restart, grid, "u", m_u);
    m_iteration = static_cast<long>(file.metadata.step);
  }
  // One depth on all ranks: blocks of different sizes may choose differently, and every
  // pass begins with an exchange that all of them take part in.
  m_depth = choose_depth();
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &m_depth, 1, MPI_LONG, MPI_MIN, decomp.comm()));
  if (m_depth > 1 && has_neighbours()) {
    m_deep = std::make_unique<HaloExchanger>(grid, HaloMode::Full);
  }
  if (m_depth > 1) {
    // Every slot starts as a copy of the first owned plane: on sides without a neighbour its
    // frame holds the Dirichlet values (the same on every plane: they are constant per
    // face), which the stencil reads there; the wavefront writes the boxes inside.
    const long plane = static_cast<long>(m_u.stride(0));
    m_ring = Kokkos::View<double*, Kokkos::HostSpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "jacobi_wavefront"),
        static_cast<std::size_t>(3 * (m_depth - 1) * plane));
    const double* first = m_u.data() + h[0] * plane;
    for (long slot = 0; slot < 3 * (m_depth - 1); ++slot) {
      std::copy(first, first + plane, m_ring.data() + slot * plane);
    }
  }
}

bool Solver::has_neighbours() const {
  for (const auto& sides : m_open) {
    if (sides[0] || sides[1]) return true;
  }
  return false;
}

// Updates a pass of `depth` iterations computes beyond the owned ones, relative: iteration t
// covers the owned box grown by depth - t on every side with a neighbour.
double Solver::redundant_share(long depth) const {
  const auto n = m_grid.local_size();
  double owned = 1.0, total = 0.0;
  for (int d = 0; d < 3; ++d)
    owned *= n[d];
  for (long t = 1; t <= depth; ++t) {
    double box = 1.0;
    for (int d = 0; d < 3; ++d) {
      box *= static_cast<double>(n[d] + (depth - t) * (m_open[d][0] + m_open[d][1]));
    }
    total += box;
  }
  return total / (static_cast<double>(depth) * owned) - 1.0;
}

long Solver::choose_depth() const {
  if constexpr (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible) {
    return 1; // the wavefront is a host loop
  } else {
    // Across a side with a neighbour (or a periodic self) a pass needs a halo as deep as its
    // iterations; overlap asks for an exchange hidden behind every single iteration.
    long deepest = std::numeric_limits<long>::max();
    const auto h = m_grid.halo_width();
    for (int d = 0; d < 3; ++d) {
      if (m_open[d][0] || m_open[d][1]) deepest = std::min<long>(deepest, h[d]);
    }
    if (has_neighbours() && m_settings.overlap) return 1;
    if (m_settings.temporal_blocking > 0) return std::min(m_settings.temporal_blocking, deepest);
    // Automatic: the wavefront runs on one thread, so only where the execution space has one;
    // as deep as the cache holds the planes in flight, with at most 10% of redundant updates.
    if (ExecutionSpace().concurrency() > 1) return 1;
    const double plane = static_cast<double>(m_u.stride(0)) * sizeof(double);
    const long fits = static_cast<long>(kWavefrontCacheBytes / (3 * plane));
    long depth = std::max(1L, std::min({kMaxWavefrontDepth, fits, deepest}));
    while (depth > 1 && redundant_share(depth) > kMaxRedundantShare)
      --depth;
    return depth;
  }
}

void Solver::write_output() {
  auto scope = m_timers.region("io");
  const std::string path = apps::numbered_file(m_output.directory, "jacobi3d", m_iteration);
  FileMetadata meta = apps::file_metadata("jacobi3d", "output", static_cast<double>(m_iteration),
                                          m_iteration, m_output);
  write_fields(path, m_grid, {{"u", m_u}}, meta);
  const std::string name = std::filesystem::path(path).filename().string();
  m_outputs.emplace_back(name, meta.time);
  // The unknowns are the nodes of a uniform grid: the first at h, spaced h.
  XdmfGeometry geometry;
  const auto g = m_grid.global_size();
  for (int d = 0; d < 3; ++d) {
    geometry.origin[d] = geometry.spacing[d] = 1.0 / static_cast<double>(g[d] + 1);
  }
  agree_on_errors(m_grid.decomposition().comm(), [&] {
    if (m_grid.decomposition().rank() != 0) return;
    write_xdmf(path.substr(0, path.size() - 3) + ".xmf", name, g, {"u"}, meta.time, geometry);
    write_xdmf_series((std::filesystem::path(m_output.directory) / "jacobi3d.xmf").string(),
                      m_outputs, g, {"u"}, geometry);
  });
}

std::string Solver::write_checkpoint(double residual) {
  auto scope = m_timers.region("io");
  const std::string path = apps::numbered_file(m_output.directory, "checkpoint", m_iteration);
  FileMetadata meta = apps::file_metadata("jacobi3d", "checkpoint",
                                          static_cast<double>(m_iteration), m_iteration, m_output);
  meta.state["iteration"] = static_cast<double>(m_iteration);
  meta.state["residual"] = residual;
  write_fields(path, m_grid, {{"u", m_u}}, meta);
  // Older checkpoints go only now that a newer one is complete.
  apps::keep_newest(m_checkpoints, path, m_output.checkpoint_keep,
                    m_grid.decomposition().rank() == 0);
  return path;
}

void Solver::after_step(double residual) {
  if (m_output.every > 0 && m_iteration % m_output.every == 0) write_output();
  if (m_output.checkpoint_every > 0 && m_iteration % m_output.checkpoint_every == 0) {
    write_checkpoint(residual);
  }
}

double Solver::global_cells() const {
  const auto g = m_grid.global_size();
  return static_cast<double>(g[0]) * static_cast<double>(g[1]) * static_cast<double>(g[2]);
}

HaloCounters Solver::halo_counters() const {
  HaloCounters sum = m_halo.counters();
  if (m_deep) {
    const HaloCounters& deep = m_deep->counters();
    for (std::size_t l = 0; l < sum.bytes.size(); ++l) {
      sum.bytes[l] += deep.bytes[l];
      sum.messages[l] += deep.messages[l];
    }
    sum.exchanges += deep.exchanges;
  }
  return sum;
}

// Updates v from u over the box; returns the local max |v - u| when `check`.
//
// On host memory the sweep runs over planes i, rows j and an inner loop along k on raw
// pointers: Kokkos 3.4 indexes a 3D view about 50% slower in the inner loop than pointer
// arithmetic does (docs/benchmarks.md), and the row loop vectorises. On a device the
// 3D policy of the grid maps threads to cells. Both evaluate update() on the same values
// in the same order, so the results are bitwise equal.
double Solver::sweep(const std::array<int, 3>& lo, const std::array<int, 3>& hi, bool check) {
  for (int d = 0; d < 3; ++d) {
    if (lo[d] >= hi[d]) return 0.0;
  }
  const Field<double> u = m_u, v = m_v, f = m_rhs;
  const Stencil s = m_stencil;
  const bool rhs = m_settings.problem == Problem::Poisson;
  double local = 0.0;
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible) {
    const long si = static_cast<long>(u.stride(0)), sj = static_cast<long>(u.stride(1));
    const double* up = u.data();
    double* vp = v.data();
    const double* fp = rhs ? f.data() : nullptr;
    const int j0 = lo[1], k0 = lo[2], k1 = hi[2];
    const int rows = hi[1] - lo[1];
    const Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<int>> planes(lo[0], hi[0]);
    auto plane = [=](int i, bool with_check) {
      const long base = i * si + j0 * sj;
      return sweep_plane(up + base - si, up + base, up + base + si, vp + base,
                         fp != nullptr ? fp + base : nullptr, sj, rows, k0, k1, s, with_check);
    };
    if (!check) {
      Kokkos::parallel_for(
          "jacobi", planes, KOKKOS_LAMBDA(int i) { plane(i, false); });
    } else {
      Kokkos::parallel_reduce(
          "jacobi_check", planes,
          KOKKOS_LAMBDA(int i, double& worst) {
            const double change = plane(i, true);
            worst = change > worst ? change : worst;
          },
          Kokkos::Max<double>(local));
    }
    return local;
  } else {
    const auto policy = Grid::box_policy(lo, hi);
    if (!check) {
      Kokkos::parallel_for(
          "jacobi", policy, KOKKOS_LAMBDA(int i, int j, int k) {
            v(i, j, k) = update(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                                u(i, j, k - 1), u(i, j, k + 1), rhs ? f(i, j, k) : 0.0, s);
          });
      return 0.0;
    }
    Kokkos::parallel_reduce(
        "jacobi_check", policy,
        KOKKOS_LAMBDA(int i, int j, int k, double& worst) {
          const double next = update(u(i - 1, j, k), u(i + 1, j, k), u(i, j - 1, k), u(i, j + 1, k),
                                     u(i, j, k - 1), u(i, j, k + 1), rhs ? f(i, j, k) : 0.0, s);
          const double old = u(i, j, k);
          const double change = next > old ? next - old : old - next;
          worst = change > worst ? change : worst;
          v(i, j, k) = next;
        },
        Kokkos::Max<double>(local));
    return local;
  }
}

// One iteration with the halo exchange; returns the local max |u_new - u_old| when `check`.
double Solver::step(bool check) {
  const auto h = m_grid.halo_width();
  const auto n = m_grid.local_size();
  const std::array<int, 3> lo{h[0], h[1], h[2]}, hi{h[0] + n[0], h[1] + n[1], h[2] + n[2]};
  double local = 0.0;
  if (!m_settings.overlap) {
    m_halo.exchange(m_u);
    apps::account_halo_times(m_timers, m_halo, m_accounted);
    auto scope = m_timers.region("compute");
    local = sweep(lo, hi, check);
    Kokkos::fence();
  } else {
    m_halo.start(m_u);
    {
      // Cells whose neighbours are all owned: one layer in from every face.
      auto scope = m_timers.region("compute");
      local = sweep({lo[0] + 1, lo[1] + 1, lo[2] + 1}, {hi[0] - 1, hi[1] - 1, hi[2] - 1}, check);
      Kokkos::fence();
    }
    m_halo.finish();
    apps::account_halo_times(m_timers, m_halo, m_accounted);
    auto scope = m_timers.region("compute");
    // The shell, in six disjoint slabs: x faces whole, y faces inside x, z faces inside both.
    for (int d = 0; d < 3; ++d) {
      for (int side = 0; side < 2; ++side) {
        if (side == 1 && n[d] == 1) continue; // one layer: the low slab was it
        std::array<int, 3> a = lo, b = hi;
        for (int j = 0; j < d; ++j) {
          a[j] = lo[j] + 1;
          b[j] = hi[j] - 1;
        }
        a[d] = side == 0 ? lo[d] : hi[d] - 1;
        b[d] = a[d] + 1;
        local = std::max(local, sweep(a, b, check));
      }
    }
    Kokkos::fence();
  }
  std::swap(m_u, m_v);
  ++m_iteration;
  return local;
}

// `depth` (>= 2) iterations in one pass over u, in place. Iteration t (t = 0 is u) covers
// the owned box grown by depth - t on every side with a neighbour, so one exchange of halos
// `depth` deep (Full: the grown boxes need edges and corners) before the pass serves all of
// it; on the other sides the halo holds the Dirichlet values for good. Along x the pass is a
// wavefront: at position p iteration t is computed on plane p - t + 1 from planes
// p - t .. p - t + 2 of iteration t - 1, which are complete by then. Iterations
// 1 .. depth - 1 live in a ring of 3 planes each; the last goes to u's plane p - depth + 1,
// whose old values no later update reads. Every value is computed from the same operands by
// the same update() as in step() (on whichever rank owns it), so the result is bitwise the
// same. u is read and written once per pass: 16 / depth bytes per update instead of 24.
// Returns the local max |u_new - u_old| of the last iteration when `check`.
double Solver::wavefront(long depth, bool check) {
  if (m_deep) {
    m_deep->exchange(m_u);
    apps::account_halo_times(m_timers, *m_deep, m_accounted_deep);
  }
  auto scope = m_timers.region("compute");
  const auto h = m_grid.halo_width();
  const auto n = m_grid.local_size();
  const long si = static_cast<long>(m_u.stride(0)), sj = static_cast<long>(m_u.stride(1));
  double* u = m_u.data();
  double* ring = m_ring.data();
  const double* f = m_settings.problem == Problem::Poisson ? m_rhs.data() : nullptr;
  // The box of iteration t in direction d: [lo, hi).
  auto lo = [&](int d, long t) { return h[d] - (m_open[d][0] ? depth - t : 0); };
  auto hi = [&](int d, long t) { return h[d] + n[d] + (m_open[d][1] ? depth - t : 0); };
  // Plane i of iteration t: u itself for iteration 0 and for the Dirichlet planes outside.
  auto level = [&](long t, long i) -> double* {
    if (t == 0 || i < lo(0, t) || i >= hi(0, t)) return u + i * si;
    return ring + ((t - 1) * 3 + i % 3) * si;
  };
  double worst = 0.0;
  for (long p = lo(0, 1); p < hi(0, 1) + depth - 1; ++p) {
    for (long t = 1; t <= depth; ++t) {
      const long i = p - t + 1;
      if (i < lo(0, t) || i >= hi(0, t)) continue;
      const long row = lo(1, t) * sj;
      double* out = t == depth ? u + i * si : level(t, i);
      const double change = sweep_plane(
          level(t - 1, i - 1) + row, level(t - 1, i) + row, level(t - 1, i + 1) + row, out + row,
          f != nullptr ? f + i * si + row : nullptr, sj, static_cast<int>(hi(1, t) - lo(1, t)),
          static_cast<int>(lo(2, t)), static_cast<int>(hi(2, t)), m_stencil, check && t == depth);
      worst = change > worst ? change : worst;
    }
  }
  m_iteration += depth;
  return worst;
}

// `count` iterations; the residual (global max |u_new - u_old|) of the last when `check`,
// else -1. In wavefront passes of up to m_depth iterations; single ones through step().
double Solver::advance(long count, bool check) {
  double local = 0.0;
  for (long done = 0; done < count;) {
    const long depth = std::min(count - done, m_depth);
    const bool last = done + depth == count;
    if (depth > 1) {
      local = wavefront(depth, check && last);
    } else {
      local = step(check && last);
    }
    done += depth;
  }
  if (!check) return -1.0;
  auto scope = m_timers.region("residual");
  double global = 0.0;
  HCART_MPI_CHECK(
      MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, m_grid.decomposition().comm()));
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
  r.seconds = since(t0);
  return r;
}

Result Solver::run(const std::function<void(const Progress&)>& progress) {
  Result r;
  const auto t0 = Clock::now();
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
      r.converged = residual < m_settings.tolerance;
    }
    after_step(last_residual);
    if (r.converged) break;
    // Progress lines only where all ranks agree on the time (after a reduction).
    if (check && progress && m_settings.progress_seconds > 0) {
      double elapsed = std::chrono::duration<double>(Clock::now() - last_report).count();
      HCART_MPI_CHECK(MPI_Bcast(&elapsed, 1, MPI_DOUBLE, 0, m_grid.decomposition().comm()));
      if (elapsed >= m_settings.progress_seconds) {
        progress({m_iteration, m_iteration - first, residual, since(t0)});
        last_report = Clock::now();
      }
    }
  }
  // The final state, unless it was just written.
  if (m_output.every > 0 && m_iteration % m_output.every != 0) write_output();
  r.seconds = since(t0);
  return r;
}

} // namespace hcart::jacobi
