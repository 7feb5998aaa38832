// hcart::Block: one rank's block of the global mesh as every part of hcart sees it — its
// owned cells, where they sit in the mesh, the halo it has, and what lies across each of its
// 6 faces, 12 edges and 8 corners: another rank, this rank itself across a periodic wrap, or
// the physical boundary of the domain.
//
//   const hcart::Block& block = grid.block();                // or decomp.block(halo)
//   block.local_size;  block.halo_width;  block.global_offset;
//   block.at({+1, 0, 0}).across == hcart::Across::OtherRank;  // .rank, .periodic_wrap
//   block.is_physical(0, 1);                                  // x+ is the domain's boundary
//   block.has_neighbours();                                   // any face with a neighbour
//
// Pure data, no MPI or Kokkos: the Grid makes it from its Decomposition; the halo plan, the
// physical boundaries and the apps' own plans (Jacobi3D's passes and wavefront) read it, and tests
// build it by hand.
#pragma once

#include <array>
#include <cstdint>

namespace hcart {

/// \brief What lies across one face, edge or corner of a block.
enum class Across {
  Boundary,  ///< the physical boundary of the domain (non-periodic): nothing to exchange
  OtherRank, ///< another rank (maybe across a periodic wrap)
  Self       ///< this rank itself, across a periodic wrap (one rank in that direction)
};

struct Block {
  /// \brief The neighbour across one offset.
  struct Neighbour {
    Across across = Across::Boundary;
    int rank = -1;              ///< in the Cartesian communicator (-1 across a boundary)
    bool periodic_wrap = false; ///< crossing the offset wraps around a periodic direction
  };

  std::array<int, 3> local_size{};             ///< owned cells per direction
  std::array<int, 3> halo_width{};             ///< halo layers per direction
  std::array<std::int64_t, 3> global_offset{}; ///< global index of the first owned cell
  std::array<std::int64_t, 3> global_size{};   ///< cells of the whole mesh
  std::array<bool, 3> periodic{};              ///< periodic directions of the mesh
  std::array<Neighbour, 27> neighbours{};      ///< by offset_index()

  /// \brief The index of offset o (each -1, 0 or +1): (o0+1)*9 + (o1+1)*3 + o2+1.
  static int offset_index(const std::array<int, 3>& o) {
    return (o[0] + 1) * 9 + (o[1] + 1) * 3 + (o[2] + 1);
  }
  /// \brief The unit offset of side `side` (0: low, 1: high) of direction `dir`.
  static std::array<int, 3> face(int dir, int side) {
    std::array<int, 3> o{0, 0, 0};
    o[dir] = side == 0 ? -1 : 1;
    return o;
  }
  const Neighbour& at(const std::array<int, 3>& o) const { return neighbours[offset_index(o)]; }
  Neighbour& at(const std::array<int, 3>& o) { return neighbours[offset_index(o)]; }

  /// \brief True when side `side` (0: low, 1: high) of direction `dir` is the physical
  /// boundary of the domain.
  bool is_physical(int dir, int side) const {
    return at(face(dir, side)).across == Across::Boundary;
  }
  /// \brief True when some face has a neighbour (another rank or a periodic self).
  bool has_neighbours() const {
    for (int d = 0; d < 3; ++d) {
      if (!is_physical(d, 0) || !is_physical(d, 1)) return true;
    }
    return false;
  }
  /// \brief Field extents: local_size + 2 halo_width.
  std::array<int, 3> extent() const {
    return {local_size[0] + 2 * halo_width[0], local_size[1] + 2 * halo_width[1],
            local_size[2] + 2 * halo_width[2]};
  }
};

} // namespace hcart
