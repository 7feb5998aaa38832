// A grid hierarchy's moves between an agglomerated level's pieces (as the ranks of the level
// above hold it) and the blocks that hold them (GridHierarchy::transfer, behind gather and
// scatter): where each rank's piece lies, the buffer's segments, MPI's view of the buffer
// (device memory where MPI reads it, else a host copy), the messages and their count.
#include "core/CopyElement.hpp"
#include "grid/HierarchyLevel.hpp"

#include <hcart/core/DeviceAwareMpi.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Loops.hpp>

#include <utility>

namespace hcart {

namespace {

// One element of `bytes` bytes, component c of cell (i, j, k), between a field (with
// `extent` cells per direction, components one after another) and a buffer holding a box
// row-major (component slowest).
struct BoxBytes {
  unsigned char* field;
  unsigned char* buffer;
  int ext_j, ext_k;           // the field's extents in j and k
  std::int64_t per_component; // the field's cells
  int i0, j0, k0;             // the box's first local cell
  int nj, nk;                 // its extents in j and k
  std::int64_t box_cells;
  int components;
  int bytes;
  bool to_buffer;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const std::int64_t in_box = (static_cast<std::int64_t>(i - i0) * nj + (j - j0)) * nk + (k - k0);
    const std::int64_t in_field = (static_cast<std::int64_t>(i) * ext_j + j) * ext_k + k;
    for (int c = 0; c < components; ++c) {
      unsigned char* f = field + (c * per_component + in_field) * bytes;
      unsigned char* b = buffer + (c * box_cells + in_box) * bytes;
      if (to_buffer)
        impl::copy_element(b, f, bytes);
      else
        impl::copy_element(f, b, bytes);
    }
  }
};

// A global box [lo, hi) as the local box of a field whose first cell (local 0) is global
// `origin`.
Box local_box(const std::array<std::int64_t, 3>& lo, const std::array<std::int64_t, 3>& hi,
              const std::array<std::int64_t, 3>& origin) {
  Box b;
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = static_cast<int>(lo[d] - origin[d]);
    b.hi[d] = static_cast<int>(hi[d] - origin[d]);
  }
  return b;
}

void copy_box(unsigned char* field, std::array<int, 3> extent, int components, int bytes,
              const Box& box, unsigned char* buffer, bool to_buffer) {
  if (box.empty()) return;
  const BoxBytes f{field,
                   buffer,
                   extent[1],
                   extent[2],
                   static_cast<std::int64_t>(extent[0]) * extent[1] * extent[2],
                   box.lo[0],
                   box.lo[1],
                   box.lo[2],
                   box.extent(1),
                   box.extent(2),
                   box.cells(),
                   components,
                   bytes,
                   to_buffer};
  for_each_cell("hcart_level_move", box, f, LoopPattern::Portable);
}

// One gather or scatter of a level, laid out: every rank's piece of the level's pieces, the
// buffer (a segment per member of the held block other than this rank, then one for this
// rank's own piece, sent to its owner or copied where it owns it), and MPI's view of it.
class Move {
public:
  Move(const Decomposition& pieces, const Grid& pieces_grid, const Grid* held, int owner,
       const std::vector<int>& members, bool gather, std::size_t element_bytes)
      : m_pieces(pieces), m_halo(pieces_grid.halo_width()), m_owner(owner), m_gather(gather),
        m_element_bytes(element_bytes) {
    for (int d = 0; d < 3; ++d) {
      m_piece_origin[d] = pieces_grid.global_offset()[d] - pieces_grid.halo_width()[d];
      if (held) m_held_origin[d] = held->global_offset()[d] - held->halo_width()[d];
    }
    for (const int r : members) {
      if (r == me()) continue;
      m_segments.emplace_back(r, m_own_offset);
      m_own_offset += (piece_bytes(r) + 63) / 64 * 64;
    }
  }

  int me() const { return m_pieces.rank(); }
  int owner() const { return m_owner; }
  const std::vector<std::pair<int, std::size_t>>& segments() const { return m_segments; }
  std::size_t own_offset() const { return m_own_offset; }
  std::size_t bytes_needed() const { return m_own_offset + piece_bytes(me()); }

  /// Rank r's piece as a global box: owned (gather) or with its halo (scatter).
  std::pair<std::array<std::int64_t, 3>, std::array<std::int64_t, 3>> piece(int r) const {
    int c[3];
    HCART_MPI_CHECK(MPI_Cart_coords(m_pieces.comm(), r, 3, c));
    const int with_halo = m_gather ? 0 : 1;
    std::array<std::int64_t, 3> lo{}, hi{};
    for (int d = 0; d < 3; ++d) {
      lo[d] = m_pieces.block_begin(d, c[d]) - with_halo * m_halo[d];
      hi[d] = m_pieces.block_begin(d, c[d] + 1) + with_halo * m_halo[d];
    }
    return {lo, hi};
  }
  std::size_t piece_bytes(int r) const {
    const auto [lo, hi] = piece(r);
    return static_cast<std::size_t>((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])) *
           m_element_bytes;
  }
  /// Rank r's piece in the held block's field, and this rank's in its pieces field.
  Box in_held(int r) const {
    const auto [lo, hi] = piece(r);
    return local_box(lo, hi, m_held_origin);
  }
  Box in_piece() const {
    const auto [lo, hi] = piece(me());
    return local_box(lo, hi, m_piece_origin);
  }

private:
  const Decomposition& m_pieces;
  std::array<int, 3> m_halo;
  int m_owner;
  bool m_gather;
  std::size_t m_element_bytes;
  std::array<std::int64_t, 3> m_piece_origin{}, m_held_origin{};
  std::vector<std::pair<int, std::size_t>> m_segments; // (rank, byte offset)
  std::size_t m_own_offset = 0;
};

// The buffer as the kernels fill it (device memory) and as MPI reads it: the same memory, or
// a host copy where MPI cannot read the device's.
struct Staging {
  Kokkos::View<unsigned char*, MemorySpace> device;
  Kokkos::View<unsigned char*, Kokkos::HostSpace> host;
  bool mpi_reads_device;
  unsigned char* kernels() const { return device.data(); }
  unsigned char* mpi() const { return mpi_reads_device ? device.data() : host.data(); }
  void copy(std::size_t first, std::size_t count, bool to_host) const {
    if (mpi_reads_device || count == 0) return;
    const std::pair<std::size_t, std::size_t> range(first, first + count);
    if (to_host) {
      Kokkos::deep_copy(Kokkos::subview(host, range), Kokkos::subview(device, range));
    } else {
      Kokkos::deep_copy(Kokkos::subview(device, range), Kokkos::subview(host, range));
    }
  }
};

} // namespace

void GridHierarchy::transfer(int l, bool gather, int components, std::size_t bytes,
                             const unsigned char* from, std::array<int, 3> from_extent,
                             unsigned char* to, std::array<int, 3> to_extent) const {
  const Level& level = *m_levels[static_cast<std::size_t>(l)];
  HCART_CHECK(level.agglomerated && level.pieces,
              "hcart::GridHierarchy"
                  << (gather ? "::gather" : "::scatter") << ": level " << l
                  << (level.agglomerated ? " is not held above on this rank"
                                         : " is not agglomerated: nothing to move"));
  const Decomposition& pieces = *level.pieces;
  const Move move(pieces, *level.pieces_grid, level.grid.get(), level.owner, level.members, gather,
                  bytes * static_cast<std::size_t>(components));
  if (level.buffer.extent(0) < move.bytes_needed()) {
    level.buffer = Kokkos::View<unsigned char*, MemorySpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "hcart::hierarchy::buffer"),
        move.bytes_needed());
    level.host_buffer = Kokkos::View<unsigned char*, Kokkos::HostSpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "hcart::hierarchy::host"),
        move.bytes_needed());
  }
  const Staging buffer{level.buffer, level.host_buffer,
                       device_mpi().device_buffers || !device_mpi().device_build};
  const MPI_Comm comm = pieces.comm();
  const int me = move.me(), tag = 7171 + l, b = static_cast<int>(bytes);
  const std::size_t own = move.own_offset(), own_bytes = move.piece_bytes(me);
  const bool owned_here = move.owner() == me;
  auto* source = const_cast<unsigned char*>(from);
  // Counted per machine level at the sender (a piece copied within its rank: self).
  const auto count = [&](int peer, std::size_t sent) {
    const auto s = static_cast<std::size_t>(pieces.separating_level(me, peer));
    m_traffic.bytes[s] += static_cast<std::int64_t>(sent);
    m_traffic.messages[s] += 1;
  };
  const auto post = [&](bool send, std::size_t offset, std::size_t count_bytes, int peer,
                        std::vector<MPI_Request>& requests) {
    requests.emplace_back();
    unsigned char* data = buffer.mpi() + offset;
    const int n = static_cast<int>(count_bytes);
    HCART_MPI_CHECK(send ? MPI_Isend(data, n, MPI_BYTE, peer, tag, comm, &requests.back())
                         : MPI_Irecv(data, n, MPI_BYTE, peer, tag, comm, &requests.back()));
  };
  const auto wait = [](std::vector<MPI_Request>& requests) {
    HCART_MPI_CHECK(
        MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  };
  ++m_traffic.exchanges;
  std::vector<MPI_Request> requests;
  if (gather) {
    // Members' pieces in; this rank's piece out to its owner (or into the held block).
    for (const auto& [r, offset] : move.segments())
      post(false, offset, move.piece_bytes(r), r, requests);
    copy_box(source, from_extent, components, b, move.in_piece(), buffer.kernels() + own, true);
    count(move.owner(), own_bytes);
    if (owned_here) {
      copy_box(to, to_extent, components, b, move.in_held(me), buffer.kernels() + own, false);
    } else {
      fence("hcart_gather");
      buffer.copy(own, own_bytes, true);
      post(true, own, own_bytes, move.owner(), requests);
    }
    wait(requests);
    buffer.copy(0, own, false);
    for (const auto& [r, offset] : move.segments())
      copy_box(to, to_extent, components, b, move.in_held(r), buffer.kernels() + offset, false);
  } else {
    // The held block's pieces (halos included) out to their members; this rank's in.
    for (const auto& [r, offset] : move.segments())
      copy_box(source, from_extent, components, b, move.in_held(r), buffer.kernels() + offset,
               true);
    fence("hcart_scatter");
    buffer.copy(0, own, true);
    for (const auto& [r, offset] : move.segments()) {
      post(true, offset, move.piece_bytes(r), r, requests);
      count(r, move.piece_bytes(r));
    }
    if (owned_here) {
      count(me, own_bytes);
      copy_box(source, from_extent, components, b, move.in_held(me), buffer.kernels() + own, true);
    } else {
      post(false, own, own_bytes, move.owner(), requests);
    }
    wait(requests);
    if (!owned_here) buffer.copy(own, own_bytes, false);
    copy_box(to, to_extent, components, b, move.in_piece(), buffer.kernels() + own, false);
  }
  fence("hcart_level_move");
}

} // namespace hcart
