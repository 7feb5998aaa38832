// Loops over the cells of one colour of a red-black (checkerboard) colouring by global
// parity: the cells whose global indices sum to an even number (colour 0, red) or an odd one
// (colour 1, black), on every decomposition the same cells, so a red-black Gauss-Seidel sweep
// gives the same bits on any rank count.
//
//   hcart::for_each_coloured_cell("red", grid, grid.owned_box(), 0, SmoothRed{u, f, s});
//   halo.exchange(u);
//   hcart::for_each_coloured_cell("black", grid, grid.owned_box(), 1, SmoothBlack{u, f, s});
//
// The functor is called as f(i, j, k) on local indices, only for the cells of the colour:
// no guard inside it. It walks every other cell along k: on the host a row per work item
// (as a plain loop does), on a device the launchers of hcart/grid/Loops.hpp over a box half
// as long in k.
#pragma once

#include <hcart/grid/Box.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>

#include <string>

namespace hcart {

namespace impl {

// Cell kk of row (i, j) of the half box: the kk-th cell of the colour from k0.
template <class Functor>
struct ColouredCells {
  Functor f;
  long long parity_base; // global i + j + k of local (0, 0, 0), plus the colour
  int k0, k1;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int kk) const {
    const int k = k0 + 2 * kk + static_cast<int>((parity_base + i + j + k0) & 1);
    if (k < k1) f(i, j, k);
  }
};

// Host launches: a row per work item, every other cell of it (the loop a plain code has).
template <class Functor>
struct ColouredRows {
  Functor f;
  long long parity_base;
  int k0, k1;
  KOKKOS_INLINE_FUNCTION void row(int i, int j) const {
    for (int k = k0 + static_cast<int>((parity_base + i + j + k0) & 1); k < k1; k += 2)
      f(i, j, k);
  }
};

} // namespace impl

/// \brief Runs f(i, j, k) for the cells of `box` (local indices of `grid`) whose global
/// indices sum to an even number (colour 0) or an odd one (colour 1).
/// \throws hcart::Error for another colour.
template <class Functor>
void for_each_coloured_cell(const std::string& label, const Grid& grid, const Box& box,
                            int colour, const Functor& f) {
  HCART_CHECK(colour == 0 || colour == 1,
              "hcart::for_each_coloured_cell: colour " << colour << ", expected 0 or 1");
  if (box.empty()) return;
  long long base = colour;
  for (int d = 0; d < 3; ++d)
    base += grid.global_index(d, 0);
  if constexpr (host_execution) {
    impl::for_each_whole_row(label, box, impl::ColouredRows<Functor>{f, base, box.lo[2], box.hi[2]});
  } else {
    Box half = box;
    half.lo[2] = 0;
    half.hi[2] = (box.extent(2) + 1) / 2;
    for_each_cell(label, half, impl::ColouredCells<Functor>{f, base, box.lo[2], box.hi[2]});
  }
}

} // namespace hcart
