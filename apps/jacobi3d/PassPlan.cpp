#include "PassPlan.hpp"

#include <hcart/core/MpiCheck.hpp>
#include <hcart/mapping/Mesh.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <algorithm>
#include <limits>

namespace hcart::jacobi {

namespace {
// The wavefront keeps 3 planes of each of its depth - 1 intermediate iterations and 3 of u
// in flight; it pays when they stay in cache. 16 MiB fits the last-level cache that a rank
// reaches on current server processors (a 256^2 plane is 0.5 MiB: depth 8; 512^2: depth 2).
constexpr double kWavefrontCacheBytes = 16.0 * 1024 * 1024;
constexpr double kMaxRedundantShare = 0.1;
} // namespace

bool BlockShape::has_neighbours() const {
  for (const auto& sides : open) {
    if (sides[0] || sides[1]) return true;
  }
  return false;
}

double redundant_share(const BlockShape& block, long depth) {
  const auto& n = block.local_size;
  double owned = 1.0, total = 0.0;
  for (int d = 0; d < 3; ++d)
    owned *= n[d];
  for (long t = 1; t <= depth; ++t) {
    double box = 1.0;
    for (int d = 0; d < 3; ++d) {
      box *= static_cast<double>(n[d] + (depth - t) * (block.open[d][0] + block.open[d][1]));
    }
    total += box;
  }
  return total / (static_cast<double>(depth) * owned) - 1.0;
}

long iterations_per_pass(const Settings& settings, const BlockShape& block,
                         const std::array<int, 3>& halo, bool wavefront) {
  if (!wavefront) return 1;
  const bool neighbours = block.has_neighbours();
  if (neighbours && settings.overlap) return 1;
  // Across a side with a neighbour (or a periodic self) a pass needs a halo as deep as its
  // iterations, and the neighbours' blocks must hold that many cells.
  long deepest = std::numeric_limits<long>::max();
  for (int d = 0; d < 3; ++d) {
    if (block.open[d][0] || block.open[d][1]) {
      deepest = std::min<long>({deepest, halo[d], block.local_size[d]});
    }
  }
  if (settings.temporal_blocking > 0) {
    return std::max(1L, std::min(settings.temporal_blocking, deepest));
  }
  // Automatic: as deep as the cache holds the planes in flight, with at most 10% of
  // redundant updates.
  const auto& n = block.local_size;
  const double plane = static_cast<double>(n[1] + 2) * static_cast<double>(n[2] + 2) * 8.0;
  const long fits = static_cast<long>(kWavefrontCacheBytes / (3 * plane));
  const long cap = neighbours ? kAutoDepthWithNeighbours : kMaxWavefrontDepth;
  long depth = std::max(1L, std::min({cap, fits, deepest}));
  while (depth > 1 && redundant_share(block, depth) > kMaxRedundantShare)
    --depth;
  return depth;
}

BlockShape block_shape(const Decomposition& decomp) {
  BlockShape b;
  const auto dims = decomp.dims();
  const auto coords = decomp.coords();
  const GridSpec& spec = decomp.spec();
  for (int d = 0; d < 3; ++d) {
    b.local_size[d] = static_cast<int>(block_extent(spec.global_size[d], dims[d], coords[d]));
    for (int side = 0; side < 2; ++side) {
      std::array<int, 3> o{0, 0, 0};
      o[d] = side == 0 ? -1 : 1;
      b.open[d][side] = decomp.neighbour(o) != MPI_PROC_NULL;
    }
  }
  return b;
}

GridPlan plan_grid(const Settings& settings, const GridSpec& spec,
                   const DecompositionOptions& options, MPI_Comm comm) {
  GridPlan plan;
  plan.spec = spec;
  plan.spec.halo_width = {1, 1, 1};
  plan.options = options;
  if (plan.options.weights.empty()) {
    // The communication of one iteration decides the process grid, whatever the depth.
    Mesh mesh;
    for (int d = 0; d < 3; ++d) {
      mesh.global_size.push_back(spec.global_size[d]);
      mesh.halo_width.push_back(1);
      mesh.periodic.push_back(spec.periodic[d]);
      mesh.cost_factor.push_back(spec.cost_factor[d]);
    }
    plan.options.weights = communication_weights(mesh);
  }
  int ranks = 1;
  HCART_MPI_CHECK(MPI_Comm_size(comm, &ranks));
  const bool periodic = spec.periodic[0] || spec.periodic[1] || spec.periodic[2];
  // Without neighbours the wavefront needs no halo; with overlap or without blocking (or
  // without a wavefront) one layer is all an iteration reads.
  if ((ranks == 1 && !periodic) || settings.overlap || settings.temporal_blocking == 1 ||
      !host_execution) {
    return plan;
  }
  const Decomposition trial(comm, plan.spec, plan.options);
  const BlockShape block = block_shape(trial);
  const int any = std::numeric_limits<int>::max();
  long depth =
      block.has_neighbours() ? iterations_per_pass(settings, block, {any, any, any}, true) : 1;
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &depth, 1, MPI_LONG, MPI_MIN, trial.comm()));
  plan.depth = std::max(1L, depth);
  for (int d = 0; d < 3; ++d) {
    if (trial.dims()[d] > 1 || spec.periodic[d])
      plan.spec.halo_width[d] = static_cast<int>(plan.depth);
  }
  // Rows on 32-byte boundaries (PassPlan.hpp): one rank holds all k when k is not cut.
  if (trial.dims()[2] == 1 && !spec.periodic[2] && spec.global_size[2] % kAlignedRowHalo == 0)
    plan.spec.halo_width[2] = std::max(plan.spec.halo_width[2], kAlignedRowHalo);
  return plan;
}

} // namespace hcart::jacobi
