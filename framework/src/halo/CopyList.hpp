// The halo packer: moves the cells of every message and field of one exchange phase
// between fields and message buffers in one kernel launch (internal: not installed).
//
// A phase is two copy lists: `pack` (field cells -> send buffer, and the local copies of
// periodic self-neighbours, field -> field, both sides of a direction in one item) and `unpack`
// (receive buffer -> field cells). Each item names a field slot, a box of cells and an offset in
// the buffer; the fields themselves are passed at launch as FieldRefs (data pointer, byte strides,
// element size), so the lists stay valid when the caller swaps its fields between exchanges. Moving
// cells is moving bytes: one launch serves fields of any arithmetic types.
//
// Two loop patterns with the same result, byte for byte (tests compare them):
//   LoopPattern::HostRows   tasks of consecutive rows of cells along k (host only);
//   LoopPattern::Portable   one thread per cell, the item found by a binary search of the
//                           first cells of the items (any backend: the device pattern); the
//                           launch carries the refs of as many slots as the items name (4 or
//                           all 64).
#pragma once

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/Box.hpp>
#include <hcart/impl/halo/BoundField.hpp>

#include "core/CopyElement.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace hcart::impl {

enum class CopyKind : int {
  Pack,     ///< field box -> buffer (k fastest)
  Unpack,   ///< buffer -> field box
  Local,    ///< field box -> the same field's box moved by `shift`
  LocalPair ///< Local, and the box of the same shape at `lo2` -> moved by `shift2`
};

struct CopyItem {
  int field = 0; ///< slot in the FieldRefs
  CopyKind kind = CopyKind::Pack;
  Box box;                        ///< the field cells read (Pack, Local) or written (Unpack)
  Kokkos::Array<int, 3> shift{};  ///< Local: destination = box moved by shift
  Kokkos::Array<int, 3> lo2{};    ///< LocalPair: the second box's first cell
  Kokkos::Array<int, 3> shift2{}; ///< LocalPair: its destination = it moved by shift2
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
  /// The launches of the portable pattern with the refs of `Slots` slots.
  template <int Slots>
  void run_cells(const ExecutionSpace& space, const char* label, const FieldRefs& fields,
                 unsigned char* buffer) const;

  static constexpr int kFewSlots = 4;
  Kokkos::View<CopyItem*, MemorySpace> m_by_cell; // first = first cell
  Kokkos::View<CopyItem*, MemorySpace> m_by_row;  // first = first row (host pattern)
  std::int64_t m_cells = 0, m_rows = 0;
  int m_slots = 0;   // field slots the items name (the highest + 1)
  int m_threads = 1; // of the execution space, for the chunk size
};

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

// The byte offset of a move by `shift` cells in field `f`.
KOKKOS_INLINE_FUNCTION std::int64_t shifted(const FieldRef& f, const Kokkos::Array<int, 3>& shift) {
  return shift[0] * f.stride_i + shift[1] * f.stride_j +
         static_cast<std::int64_t>(shift[2]) * f.elem_bytes;
}

/// The portable pattern: one thread per cell, the fields of the first `Slots` slots (a
/// launch whose functor is small enough for the kernel's parameters, below 512 bytes, costs
/// less than one passed through constant memory or as a 4 KiB parameter block).
template <int Slots>
struct CopyCells {
  Kokkos::View<CopyItem*, MemorySpace> items;
  Kokkos::Array<FieldRef, Slots> fields;
  unsigned char* buffer;

  template <class Index>
  KOKKOS_INLINE_FUNCTION void operator()(Index cell) const {
    const CopyItem& it = items(find_item(items, cell));
    // 32-bit arithmetic within an item (CopyList checks that each has fewer than 2^32
    // cells): a 64-bit division costs several times more on a GPU.
    const auto n = static_cast<std::uint32_t>(cell - it.first);
    const auto nk = static_cast<std::uint32_t>(it.box.extent(2)),
               nj = static_cast<std::uint32_t>(it.box.extent(1));
    const std::uint32_t rest = n / nk;
    const int k = static_cast<int>(n - rest * nk), j = static_cast<int>(rest % nj),
              i = static_cast<int>(rest / nj);
    const FieldRef& f = fields[it.field];
    unsigned char* at = f.data + (it.box.lo[0] + i) * f.stride_i + (it.box.lo[1] + j) * f.stride_j +
                        static_cast<std::int64_t>(it.box.lo[2] + k) * f.elem_bytes;
    unsigned char* packed = buffer + it.buffer_offset + static_cast<std::int64_t>(n) * f.elem_bytes;
    switch (it.kind) {
    case CopyKind::Pack: copy_element(packed, at, f.elem_bytes); break;
    case CopyKind::Unpack: copy_element(at, packed, f.elem_bytes); break;
    case CopyKind::Local:
    case CopyKind::LocalPair: {
      copy_element(at + shifted(f, it.shift), at, f.elem_bytes);
      if (it.kind == CopyKind::LocalPair) {
        unsigned char* at2 = f.data + (it.lo2[0] + i) * f.stride_i + (it.lo2[1] + j) * f.stride_j +
                             static_cast<std::int64_t>(it.lo2[2] + k) * f.elem_bytes;
        copy_element(at2 + shifted(f, it.shift2), at2, f.elem_bytes);
      }
      break;
    }
    }
  }
};

/// The host pattern: each task a run of consecutive rows along k (kRowsPerTask, the items
/// found once per task and then walked), a row copied with memcpy, or element by element
/// where it is a few elements long (a z face: one element per row, where a call and a
/// search per row cost more than the copy).
struct CopyRows {
  static constexpr std::int64_t kRowsPerTask = 64;
  Kokkos::View<CopyItem*, MemorySpace> items;
  FieldRefs fields;
  unsigned char* buffer;
  std::int64_t rows = 0; // in all items

  static void copy_bytes(unsigned char* to, const unsigned char* from, std::size_t bytes,
                         int elem_bytes) {
    if (bytes <= 4 * static_cast<std::size_t>(elem_bytes)) {
      for (std::size_t b = 0; b < bytes; b += static_cast<std::size_t>(elem_bytes))
        copy_element(to + b, from + b, elem_bytes);
    } else {
      std::memcpy(to, from, bytes);
    }
  }

  // Rows [r0, r1) of item `it`: the addresses once, then pointer steps; `copy(at, at2,
  // packed)` moves one row (at2: LocalPair's second box).
  template <class Copy>
  void walk(const CopyItem& it, std::int64_t r0, std::int64_t r1, std::size_t bytes,
            const Copy& copy) const {
    const int nj = it.box.extent(1);
    int j = static_cast<int>(r0 % nj), i = static_cast<int>(r0 / nj);
    const FieldRef& f = fields[it.field];
    const auto row_of = [&](const Kokkos::Array<int, 3>& lo) {
      return f.data + (lo[0] + i) * f.stride_i + (lo[1] + j) * f.stride_j +
             static_cast<std::int64_t>(lo[2]) * f.elem_bytes;
    };
    const Kokkos::Array<int, 3> lo{it.box.lo[0], it.box.lo[1], it.box.lo[2]};
    unsigned char* packed = buffer + it.buffer_offset + r0 * static_cast<std::int64_t>(bytes);
    for (std::int64_t r = r0; r < r1;) {
      // A run of rows along j, to the end of the item's j range or of the task's rows.
      const int run = static_cast<int>(std::min<std::int64_t>(nj - j, r1 - r));
      unsigned char* at = row_of(lo);
      unsigned char* at2 = row_of(it.lo2);
      for (int n = 0; n < run; ++n) {
        copy(at, at2, packed);
        at += f.stride_j;
        at2 += f.stride_j;
        packed += bytes;
      }
      r += run;
      j = 0;
      ++i;
    }
  }

  // Rows [r0, r1) of item `it`, with the kind and the row's length decided once.
  void copy_rows(const CopyItem& it, std::int64_t r0, std::int64_t r1) const {
    const FieldRef& f = fields[it.field];
    const int e = f.elem_bytes;
    const auto bytes = static_cast<std::size_t>(it.box.extent(2)) * static_cast<std::size_t>(e);
    const std::int64_t to = shifted(f, it.shift), to2 = shifted(f, it.shift2);
    using word8 = std::uint64_t __attribute__((__may_alias__));
    switch (it.kind) {
    case CopyKind::Pack:
      walk(it, r0, r1, bytes, [&](unsigned char* at, unsigned char*, unsigned char* p) {
        copy_bytes(p, at, bytes, e);
      });
      break;
    case CopyKind::Unpack:
      walk(it, r0, r1, bytes, [&](unsigned char* at, unsigned char*, unsigned char* p) {
        copy_bytes(at, p, bytes, e);
      });
      break;
    case CopyKind::Local:
      walk(it, r0, r1, bytes, [&](unsigned char* at, unsigned char*, unsigned char*) {
        copy_bytes(at + to, at, bytes, e);
      });
      break;
    case CopyKind::LocalPair:
      if (bytes == 8 && e == 8) { // a z face of doubles: a word each side, nothing else
        walk(it, r0, r1, bytes, [&](unsigned char* at, unsigned char* at2, unsigned char*) {
          *reinterpret_cast<word8*>(at + to) = *reinterpret_cast<const word8*>(at);
          *reinterpret_cast<word8*>(at2 + to2) = *reinterpret_cast<const word8*>(at2);
        });
      } else {
        walk(it, r0, r1, bytes, [&](unsigned char* at, unsigned char* at2, unsigned char*) {
          copy_bytes(at + to, at, bytes, e);
          copy_bytes(at2 + to2, at2, bytes, e);
        });
      }
      break;
    }
  }

  void operator()(std::int64_t task) const {
    const std::int64_t begin = task * kRowsPerTask;
    const std::int64_t end = std::min(begin + kRowsPerTask, rows);
    const int count = static_cast<int>(items.extent(0));
    for (int t = find_item(items, begin); t < count && items(t).first < end; ++t) {
      const CopyItem& it = items(t);
      const std::int64_t first = std::max(begin, it.first);
      const std::int64_t last =
          std::min(end, it.first + static_cast<std::int64_t>(it.box.extent(0)) * it.box.extent(1));
      copy_rows(it, first - it.first, last - it.first);
    }
  }
};

} // namespace hcart::impl
