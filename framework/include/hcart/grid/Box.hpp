// hcart::Box: a box of local indices [lo, hi) in three directions, as a small value that
// kernels on every backend can copy (Kokkos::Array, no std:: containers).
//
//   const hcart::Box owned = grid.owned_box();
//   hcart::for_each_cell("init", owned, functor);            // hcart/grid/Loops.hpp
//   hcart::Box slab = owned;  slab.hi[0] = slab.lo[0] + 1;    // the first owned plane
//
// The grid hands out boxes (owned cells, cells with halo), the halo plan describes every
// message by the boxes it sends and receives, and the loops take boxes.
#pragma once

#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>

namespace hcart {

struct Box {
  Kokkos::Array<int, 3> lo{};
  Kokkos::Array<int, 3> hi{};

  /// \brief Cells in direction `d` (0 when the box is empty there).
  KOKKOS_INLINE_FUNCTION int extent(int d) const { return hi[d] > lo[d] ? hi[d] - lo[d] : 0; }
  /// \brief Number of cells.
  KOKKOS_INLINE_FUNCTION std::int64_t cells() const {
    return static_cast<std::int64_t>(extent(0)) * extent(1) * extent(2);
  }
  KOKKOS_INLINE_FUNCTION bool empty() const { return cells() == 0; }
  KOKKOS_INLINE_FUNCTION bool contains(int i, int j, int k) const {
    return lo[0] <= i && i < hi[0] && lo[1] <= j && j < hi[1] && lo[2] <= k && k < hi[2];
  }
  /// \brief The box moved by (di, dj, dk) cells.
  KOKKOS_INLINE_FUNCTION Box shifted(int di, int dj, int dk) const {
    Box b = *this;
    b.lo[0] += di, b.hi[0] += di;
    b.lo[1] += dj, b.hi[1] += dj;
    b.lo[2] += dk, b.hi[2] += dk;
    return b;
  }
};

/// \brief The box [lo, hi) from host arrays.
inline Box make_box(const std::array<int, 3>& lo, const std::array<int, 3>& hi) {
  Box b;
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = lo[d];
    b.hi[d] = hi[d];
  }
  return b;
}

inline bool operator==(const Box& a, const Box& b) {
  for (int d = 0; d < 3; ++d) {
    if (a.lo[d] != b.lo[d] || a.hi[d] != b.hi[d]) return false;
  }
  return true;
}
inline bool operator!=(const Box& a, const Box& b) {
  return !(a == b);
}

} // namespace hcart
