// A candidate device launch, measured beside the grid's policy by hcart-bench-jacobi
// --roofline (docs/benchmarks.md, "GPU and many-core runs"): the cells of a box as one flat
// range of work items, k fastest, as Kokkos::deep_copy walks a whole view, instead of the 3D
// MDRange's tiles. On an H200 a copy through the grid's policy reached 2.23 TB/s against
// deep_copy's 4.15 TB/s, and the Jacobi sweep 83% of that copy: the launch, not the stencil.
// `Along` cells of a row per work item: item g of a row takes cells g, g + G, g + 2G, ...
// (G = ceil(row / Along) items per row), so that a warp's consecutive threads read
// consecutive cells at every step. Not yet hcart's launcher: the GPU run decides.
#pragma once

#include <hcart/core/Error.hpp>
#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/Box.hpp>

#include <cstdint>
#include <limits>

namespace hcart::bench {

template <class Functor, int Along>
struct FlatCells {
  Functor f;
  int i0, j0, k0, k1;
  unsigned nj, groups; // rows along j; work items per row

  KOKKOS_INLINE_FUNCTION void operator()(int n) const {
    // Two 32-bit divisions per work item (a 64-bit one costs several times more on a GPU).
    const unsigned item = static_cast<unsigned>(n);
    const unsigned row = item / groups;
    const int g = static_cast<int>(item - row * groups);
    const unsigned i = row / nj;
    const int j = j0 + static_cast<int>(row - i * nj);
    for (int c = 0; c < Along; ++c) {
      const int k = k0 + g + c * static_cast<int>(groups);
      if (k < k1) f(i0 + static_cast<int>(i), j, k);
    }
  }
};

/// \brief f(i, j, k) for every cell of `box`, as a flat range of ceil(nk / Along) work
/// items per row. \throws hcart::Error for a box of 2^31 work items or more.
template <int Along, class Functor>
void for_each_cell_flat(const char* label, const Box& box, const Functor& f) {
  static_assert(Along >= 1, "at least one cell per work item");
  if (box.empty()) return;
  const std::int64_t groups = (box.extent(2) + Along - 1) / Along;
  const std::int64_t items = std::int64_t(box.extent(0)) * box.extent(1) * groups;
  HCART_CHECK(items <= std::numeric_limits<int>::max(),
              "for_each_cell_flat: " << items << " work items, expected fewer than 2^31");
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecutionSpace>(0, static_cast<int>(items)),
                       FlatCells<Functor, Along>{f, box.lo[0], box.lo[1], box.lo[2], box.hi[2],
                                                 static_cast<unsigned>(box.extent(1)),
                                                 static_cast<unsigned>(groups)});
}

} // namespace hcart::bench
