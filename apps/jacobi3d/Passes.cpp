#include "Passes.hpp"

#include <hcart/core/MpiCheck.hpp>

#include <algorithm>
#include <limits>

namespace hcart::jacobi {

namespace {
// The wavefront keeps 3 planes of each of its iterations - 1 intermediate iterations and 3 of
// u in flight; it pays when they stay in cache. 16 MiB fits the last-level cache that a rank
// reaches on current server processors (a 256^2 plane is 0.5 MiB: 8 iterations; 512^2: 2).
constexpr double kWavefrontCacheBytes = 16.0 * 1024 * 1024;
constexpr double kMaxRedundantShare = 0.1;

bool crossed(const Block& block, int d) {
  return !block.is_physical(d, 0) || !block.is_physical(d, 1);
}
} // namespace

double redundant_share(const Block& block, long iterations) {
  const auto& n = block.local_size;
  double owned = 1.0, total = 0.0;
  for (int d = 0; d < 3; ++d)
    owned *= n[d];
  for (long t = 1; t <= iterations; ++t) {
    double box = 1.0;
    for (int d = 0; d < 3; ++d) {
      const int sides = !block.is_physical(d, 0) + !block.is_physical(d, 1);
      box *= static_cast<double>(n[d] + (iterations - t) * sides);
    }
    total += box;
  }
  return total / (static_cast<double>(iterations) * owned) - 1.0;
}

long choose_iterations_per_pass(const Settings& settings, const Block& block, bool wavefront,
                                int threads) {
  if (!wavefront) return 1;
  const bool neighbours = block.has_neighbours();
  if (neighbours && settings.overlap) return 1;
  // Across a side with a neighbour (or a periodic self) the neighbour's block must hold as
  // many cells as the pass has iterations.
  long deepest = std::numeric_limits<long>::max();
  for (int d = 0; d < 3; ++d) {
    if (crossed(block, d)) deepest = std::min<long>(deepest, block.local_size[d]);
  }
  if (settings.iterations_per_pass > 0) {
    return std::max(1L, std::min(settings.iterations_per_pass, deepest));
  }
  // Automatic: none where the team's barriers would cost more than its threads' share of a
  // plane, else as many as the cache holds the planes in flight for, with at most 10% of
  // redundant updates.
  const auto& n = block.local_size;
  if (threads > 1 &&
      static_cast<double>(n[1]) * n[2] < static_cast<double>(kWavefrontCellsPerThread) * threads)
    return 1;
  const double plane = static_cast<double>(n[1] + 2) * static_cast<double>(n[2] + 2) * 8.0;
  const long fits = static_cast<long>(kWavefrontCacheBytes / (3 * plane));
  const long cap = neighbours ? kAutoIterationsWithNeighbours : kMaxWavefrontIterations;
  long iterations = std::max(1L, std::min({cap, fits, deepest}));
  while (iterations > 1 && redundant_share(block, iterations) > kMaxRedundantShare)
    --iterations;
  return iterations;
}

Passes plan_passes(const Settings& settings, const Decomposition& decomp) {
  const Block block = decomp.block({0, 0, 0});
  Passes p;
  p.iterations_per_pass = choose_iterations_per_pass(settings, block);
  // One choice for all: blocks of different sizes may choose differently, and every pass
  // begins with an exchange that all of them take part in.
  HCART_MPI_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, &p.iterations_per_pass, 1, MPI_LONG, MPI_MIN, decomp.comm()));
  bool passes_cross = false;
  for (int d = 0; d < 3; ++d) {
    if (crossed(block, d)) p.halo_width[d] = static_cast<int>(p.iterations_per_pass);
    passes_cross = passes_cross || crossed(block, d);
  }
  // Rows on 32-byte boundaries (above): one rank holds all of k when k is neither cut nor
  // wrapped. Where no pass crosses a rank (one rank alone, overlap, one iteration per pass,
  // a device) the halo stays one layer. (Every rank has a cut or wrapped direction or none
  // has: the same decision everywhere.)
  const bool blocking = host_execution && !settings.overlap && settings.iterations_per_pass != 1;
  const GridSpec& spec = decomp.spec();
  if (passes_cross && blocking && decomp.dims()[2] == 1 && !spec.periodic[2] &&
      spec.global_size[2] % kAlignedRowHalo == 0) {
    p.halo_width[2] = std::max(p.halo_width[2], kAlignedRowHalo);
  }
  return p;
}

} // namespace hcart::jacobi
