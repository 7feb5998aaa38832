// The halo packer: moves the cells of every message and field of one exchange phase
// between fields and message buffers in one kernel launch (internal: not installed).
//
// A phase is two copy lists: `pack` (field cells -> send buffer, and the local copies of
// periodic self-neighbours, field -> field) and `unpack` (receive buffer -> field cells).
// Each item names a field slot, a box of cells and an offset in the buffer; the fields
// themselves are passed at launch as FieldRefs (data pointer, byte strides, element size),
// so the lists stay valid when the caller swaps its fields between exchanges. Moving cells
// is moving bytes: one launch serves fields of any arithmetic types.
//
// Two loop patterns with the same result, byte for byte (tests compare them):
//   LoopPattern::HostRows   one task per row of cells along k, a memcpy each (host only);
//   LoopPattern::Portable   one thread per cell, the item found by a binary search of the
//                           first cells of the items (any backend: the device pattern).
#pragma once

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/Box.hpp>
#include <hcart/impl/halo/BoundField.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace hcart::impl {

enum class CopyKind : int {
  Pack,   ///< field box -> buffer (k fastest)
  Unpack, ///< buffer -> field box
  Local   ///< field box -> the same field's box moved by `shift`
};

struct CopyItem {
  int field = 0; ///< slot in the FieldRefs
  CopyKind kind = CopyKind::Pack;
  Box box;                        ///< the field cells read (Pack, Local) or written (Unpack)
  Kokkos::Array<int, 3> shift{};  ///< Local: destination = box moved by shift
  std::int64_t buffer_offset = 0; ///< bytes, Pack and Unpack
  std::int64_t first = 0;         ///< the item's first cell (Portable) or row (HostRows)
};

/// The copy lists of one launch, on the execution space.
class CopyList {
public:
  CopyList() = default;
  /// \brief Takes the items (their `first` is filled in here); allocates device views.
  explicit CopyList(std::vector<CopyItem> items);

  bool empty() const noexcept { return m_cells == 0; }
  std::int64_t cells() const noexcept { return m_cells; }
  /// \brief Runs the copies in one launch labelled `label` on `space` (nothing when
  /// empty); does not fence. Allocates nothing. \throws hcart::Error for
  /// LoopPattern::HostRows on a device build.
  void run(const ExecutionSpace& space, const char* label, LoopPattern pattern,
           const FieldRefs& fields, unsigned char* buffer) const;

private:
  Kokkos::View<CopyItem*, MemorySpace> m_by_cell; // first = first cell
  Kokkos::View<CopyItem*, MemorySpace> m_by_row;  // first = first row (host pattern)
  std::int64_t m_cells = 0, m_rows = 0;
  int m_threads = 1; // of the execution space, for the chunk size
};

// Copies one element of `bytes` bytes (1, 2, 4, 8 or 16; buffers and fields are aligned
// to it), as whole words.
KOKKOS_INLINE_FUNCTION void copy_element(unsigned char* to, const unsigned char* from, int bytes) {
#if defined(__GNUC__) || defined(__clang__)
  using word8 = std::uint64_t __attribute__((__may_alias__));
  using word4 = std::uint32_t __attribute__((__may_alias__));
  using word2 = std::uint16_t __attribute__((__may_alias__));
  switch (bytes) {
  case 8: *reinterpret_cast<word8*>(to) = *reinterpret_cast<const word8*>(from); return;
  case 4: *reinterpret_cast<word4*>(to) = *reinterpret_cast<const word4*>(from); return;
  case 2: *reinterpret_cast<word2*>(to) = *reinterpret_cast<const word2*>(from); return;
  case 16:
    reinterpret_cast<word8*>(to)[0] = reinterpret_cast<const word8*>(from)[0];
    reinterpret_cast<word8*>(to)[1] = reinterpret_cast<const word8*>(from)[1];
    return;
  default: break;
  }
#endif
  for (int b = 0; b < bytes; ++b)
    to[b] = from[b];
}

// The index of the last item whose `first` is <= index (items sorted by first).
KOKKOS_INLINE_FUNCTION int find_item(const Kokkos::View<CopyItem*, MemorySpace>& items,
                                     std::int64_t index) {
  int lo = 0, hi = static_cast<int>(items.extent(0)) - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (items(mid).first <= index)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/// The portable pattern: one thread per cell.
struct CopyCells {
  Kokkos::View<CopyItem*, MemorySpace> items;
  FieldRefs fields;
  unsigned char* buffer;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t cell) const {
    const CopyItem& it = items(find_item(items, cell));
    const std::int64_t n = cell - it.first;
    const int nk = it.box.extent(2), nj = it.box.extent(1);
    const int k = static_cast<int>(n % nk);
    const std::int64_t rest = n / nk;
    const int j = static_cast<int>(rest % nj), i = static_cast<int>(rest / nj);
    const FieldRef& f = fields[it.field];
    unsigned char* at = f.data + (it.box.lo[0] + i) * f.stride_i + (it.box.lo[1] + j) * f.stride_j +
                        static_cast<std::int64_t>(it.box.lo[2] + k) * f.elem_bytes;
    unsigned char* packed = buffer + it.buffer_offset + n * f.elem_bytes;
    switch (it.kind) {
    case CopyKind::Pack: copy_element(packed, at, f.elem_bytes); break;
    case CopyKind::Unpack: copy_element(at, packed, f.elem_bytes); break;
    case CopyKind::Local: {
      unsigned char* to = at + it.shift[0] * f.stride_i + it.shift[1] * f.stride_j +
                          static_cast<std::int64_t>(it.shift[2]) * f.elem_bytes;
      copy_element(to, at, f.elem_bytes);
      break;
    }
    }
  }
};

/// The host pattern: one task per row along k, copied with memcpy.
struct CopyRows {
  Kokkos::View<CopyItem*, MemorySpace> items;
  FieldRefs fields;
  unsigned char* buffer;

  void operator()(std::int64_t row) const {
    const CopyItem& it = items(find_item(items, row));
    const std::int64_t r = row - it.first;
    const int nj = it.box.extent(1);
    const int j = static_cast<int>(r % nj), i = static_cast<int>(r / nj);
    const FieldRef& f = fields[it.field];
    const std::size_t bytes = static_cast<std::size_t>(it.box.extent(2)) * f.elem_bytes;
    unsigned char* at = f.data + (it.box.lo[0] + i) * f.stride_i + (it.box.lo[1] + j) * f.stride_j +
                        static_cast<std::int64_t>(it.box.lo[2]) * f.elem_bytes;
    unsigned char* packed = buffer + it.buffer_offset + r * static_cast<std::int64_t>(bytes);
    switch (it.kind) {
    case CopyKind::Pack: std::memcpy(packed, at, bytes); break;
    case CopyKind::Unpack: std::memcpy(at, packed, bytes); break;
    case CopyKind::Local:
      std::memcpy(at + it.shift[0] * f.stride_i + it.shift[1] * f.stride_j +
                      static_cast<std::int64_t>(it.shift[2]) * f.elem_bytes,
                  at, bytes);
      break;
    }
  }
};

} // namespace hcart::impl
