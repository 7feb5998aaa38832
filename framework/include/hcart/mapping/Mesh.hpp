// hcart::Mesh: the global mesh as the mapping layer sees it (any number of dimensions),
// and the two quantities the planner derives from it: communication weights and the
// largest number of pieces each direction may be cut into.
//
//   hcart::Mesh mesh{{2048, 1024, 512}, {1, 1, 1}, {false, false, true}, {1.0, 1.0, 1.0}};
//   std::vector<double> w = hcart::communication_weights(mesh);   // G * c_i * h_i / g_i
//   std::vector<std::int64_t> b = hcart::cut_bounds(mesh);        // floor(g_i / max(h_i, 1))
//
// Pure C++: no MPI, Kokkos or hwloc. grid/GridSpec is the 3D user-facing form.
#pragma once

#include <cstdint>
#include <vector>

namespace hcart {

/// \brief Global sizes g_i, halo widths h_i, periodic flags and cost factors c_i of a
/// d-dimensional mesh (all vectors of length d; empty cost_factor means all 1).
struct Mesh {
  std::vector<std::int64_t> global_size;
  std::vector<int> halo_width;
  std::vector<bool> periodic;
  std::vector<double> cost_factor;
  /// Block boundaries at multiples of this many cells per direction (grid hierarchies:
  /// blocks that halve evenly level after level; hcart/mapping/Blocks.hpp), 1 to the size.
  /// Empty means 1 everywhere: the balanced rule.
  std::vector<std::int64_t> block_multiple{};
};

/// \brief The block multiple of direction i (1 when the mesh names none).
inline std::int64_t block_multiple_of(const Mesh& mesh, std::size_t i) {
  return mesh.block_multiple.empty() ? 1 : mesh.block_multiple[i];
}

/// \brief Checks that the vectors agree in length (1..16), sizes >= 1, halos >= 0, cost
/// factors finite and >= 0, block multiples 1 to the size. \throws
/// hcart::InputError naming the bad value.
void validate(const Mesh& mesh);

/// \brief w_i = G * c_i * h_i / g_i with G = prod g_i: the halo traffic one cut
/// perpendicular to direction i costs (computed as c_i * h_i * prod_{j != i} g_j).
/// \throws hcart::InputError as validate().
std::vector<double> communication_weights(const Mesh& mesh);

/// \brief b_i = floor(g_i / max(h_i, 1)): every rank must own at least one halo width of
/// cells, so direction i may be cut into at most b_i pieces (1 for a direction of size 1;
/// at least 1 where it is not periodic: one piece has no neighbour to fill its halo from).
/// With a block multiple m_i: floor(ceil(g_i / m_i) / ceil(max(h_i, 1) / m_i)) (whole
/// multiples), fewer where the last block would hold less than max(h_i, m_i) cells.
std::vector<std::int64_t> cut_bounds(const Mesh& mesh);

/// \brief Per direction, the number a dim must divide so that every block of the direction
/// has one size (PlanOptions::equal_blocks): g_i / m_i whole multiples m_i (the block
/// multiple, 1 without), or 1 where g_i is no whole multiple (one block only).
std::vector<std::int64_t> equal_block_divisors(const Mesh& mesh);

} // namespace hcart
