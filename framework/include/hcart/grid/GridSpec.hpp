// hcart::GridSpec: the global mesh a user decomposes (docs/api-guide.md).
//
//   hcart::GridSpec spec;
//   spec.global_size = {256, 512, 1024};
//   spec.halo_width  = {1, 1, 1};
//   spec.periodic    = {false, false, true};
//   spec.cost_factor = {1.0, 1.0, 1.0};
//
// Always three directions: a 2D problem is 3D with size 1 and halo 0 in the unused one (any
// of the three: hcart::for_each_cell runs the rows of a 2-D box along its contiguous
// direction, so {n, n, 1} runs as fast as {1, n, n}).
#pragma once

#include <hcart/mapping/Mesh.hpp>

#include <array>
#include <cstdint>

namespace hcart {

struct GridSpec {
  std::array<std::int64_t, 3> global_size{{1, 1, 1}}; ///< cells per direction, >= 1
  std::array<int, 3> halo_width{{1, 1, 1}};           ///< halo layers per direction, >= 0
  std::array<bool, 3> periodic{{false, false, false}};
  std::array<double, 3> cost_factor{{1.0, 1.0, 1.0}}; ///< c_i >= 0 in w_i = G c_i h_i / g_i
  /// Block boundaries at multiples of this many cells (1 to the size; 1: the balanced rule).
  /// A grid hierarchy sets it (hcart::nested_spec) so that every level's blocks halve into
  /// the next level's: hcart/mapping/Blocks.hpp.
  std::array<std::int64_t, 3> block_multiple{{1, 1, 1}};

  /// \brief The same mesh as the mapping layer sees it.
  Mesh to_mesh() const {
    Mesh mesh;
    mesh.global_size.assign(global_size.begin(), global_size.end());
    mesh.halo_width.assign(halo_width.begin(), halo_width.end());
    mesh.periodic.assign(periodic.begin(), periodic.end());
    mesh.cost_factor.assign(cost_factor.begin(), cost_factor.end());
    if (block_multiple != std::array<std::int64_t, 3>{{1, 1, 1}})
      mesh.block_multiple.assign(block_multiple.begin(), block_multiple.end());
    return mesh;
  }
};

} // namespace hcart
