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
//
// On the host a whole sweep can also read and write memory once instead of twice (the two
// colours' passes each stream every cell's cache lines):
//
//   halo.exchange(u);                                         // the black values for red
//   hcart::for_each_red_black_interior("gs", grid, grid.owned_box(), accessor(u), Point{u, f});
//   halo.exchange(u);                                         // the red values for black
//   hcart::for_each_red_black_shell("gs", grid, grid.owned_box(), accessor(u), Point{u, f});
//
// where Point{u, f}(i, j, k) returns the cell's new value from its neighbours (it stores
// nothing: the loops do, which lets them walk a row at a unit stride)
//
// with the same bits as the red pass followed by the black one (hcart::Multigrid's smoother
// on host builds).
#pragma once

#include <hcart/grid/Box.hpp>
#include <hcart/grid/FieldAccessor.hpp>
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

// The point updates of a row's cells of one colour, u(i, j, k) = point(i, j, k) for k in [k0,
// k1), in pieces of kColourPiece cells: every cell's value computed into a local buffer (a
// loop of unit stride that writes no field, which the host compiler vectorises), then the
// colour's stored (every other cell). The other colour's values are computed and dropped:
// twice the arithmetic in vector registers is still less time than a loop over every other
// cell, which stays scalar (it stores with a gap). A point reads itself and the other colour,
// which the stores leave as they were, so every value is the one a plain loop computes.
constexpr int kColourPiece = 64;
template <class T, class Point>
KOKKOS_INLINE_FUNCTION void colour_row(const FieldAccessor<T>& u, const Point& point,
                                       long long parity, int i, int j, int k0, int k1) {
  T values[kColourPiece];
  for (int p0 = k0; p0 < k1; p0 += kColourPiece) {
    const int p1 = p0 + kColourPiece < k1 ? p0 + kColourPiece : k1;
    for (int k = p0; k < p1; ++k)
      values[k - p0] = point(i, j, k);
    for (int k = p0 + static_cast<int>((parity + i + j + p0) & 1); k < p1; k += 2)
      u(i, j, k) = values[k - p0];
  }
}

// One work item of a sweep's pass over plane i: row (i, j)'s red cells, then row (i - 1, j)'s
// black cells where that row lies in the interior box (the black cells that read no other
// rank's red ones).
template <class T, class Point>
struct RedBlackRows {
  FieldAccessor<T> u;
  Point point;
  long long red_parity; // global i + j + k of local (0, 0, 0): red where even
  Box owned, interior;
  KOKKOS_INLINE_FUNCTION void row(int i, int j) const {
    if (i < owned.hi[0]) colour_row(u, point, red_parity, i, j, owned.lo[2], owned.hi[2]);
    const int b = i - 1;
    if (b >= interior.lo[0] && b < interior.hi[0] && j >= interior.lo[1] && j < interior.hi[1])
      colour_row(u, point, red_parity + 1, b, j, interior.lo[2], interior.hi[2]);
  }
};

// u(i, j, k) = point(i, j, k) at one cell (the coloured loops of the shell).
template <class T, class Point>
struct StorePoint {
  FieldAccessor<T> u;
  Point point;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { u(i, j, k) = point(i, j, k); }
};

} // namespace impl

/// \brief Runs f(i, j, k) for the cells of `box` (local indices of `grid`) whose global
/// indices sum to an even number (colour 0) or an odd one (colour 1).
/// \throws hcart::Error for another colour.
template <class Functor>
void for_each_coloured_cell(const std::string& label, const Grid& grid, const Box& box, int colour,
                            const Functor& f) {
  HCART_CHECK(colour == 0 || colour == 1,
              "hcart::for_each_coloured_cell: colour " << colour << ", expected 0 or 1");
  if (box.empty()) return;
  long long base = colour;
  for (int d = 0; d < 3; ++d)
    base += grid.global_index(d, 0);
  if constexpr (host_execution) {
    impl::for_each_whole_row(label, box,
                             impl::ColouredRows<Functor>{f, base, box.lo[2], box.hi[2]});
  } else {
    Box half = box;
    half.lo[2] = 0;
    half.hi[2] = (box.extent(2) + 1) / 2;
    for_each_cell(label, half, impl::ColouredCells<Functor>{f, base, box.lo[2], box.hi[2]});
  }
}

/// \brief The cells of `box` (a grid's owned cells or part of them) whose update in a red-black
/// sweep reads no value from another rank: the box less its layer of cells at every face
/// across which a neighbour (another rank, or this one across a periodic wrap) lies.
inline Box red_black_interior(const Grid& grid, const Box& box) {
  Box inner = box;
  for (int d = 0; d < 3; ++d) {
    if (!grid.block().is_physical(d, 0)) ++inner.lo[d];
    if (!grid.block().is_physical(d, 1)) --inner.hi[d];
    if (inner.hi[d] < inner.lo[d]) inner.hi[d] = inner.lo[d];
  }
  return inner;
}

/// \brief The two colours of a red-black Gauss-Seidel sweep over `box`, u(i, j, k) = point(i,
/// j, k) at each cell (`point` reads the cell itself and cells of the other colour, never
/// another of its own: red-black's contract), the black ones in red_black_interior(grid,
/// box) only, in one pass over memory on the host: plane by plane along i, each row's red
/// cells and then the black cells of the row behind it (one launch a plane; a black cell of
/// plane i - 1 reads red cells of planes i - 2 to i, all done), every row at a unit stride
/// (impl::colour_row). Each cell reads the values a red pass followed by a black pass reads,
/// so the bits are theirs. The rest of the black cells (for_each_red_black_shell) follow
/// after the exchange of the red ones. Host builds only (\throws hcart::Error on a device).
template <class T, class Point>
void for_each_red_black_interior(const std::string& label, const Grid& grid, const Box& box,
                                 const FieldAccessor<T>& u, const Point& point) {
  if (box.empty()) return;
  long long parity = 0;
  for (int d = 0; d < 3; ++d)
    parity += grid.global_index(d, 0);
  const impl::RedBlackRows<T, Point> rows{u, point, parity, box, red_black_interior(grid, box)};
  for (int i = box.lo[0]; i <= box.hi[0]; ++i) {
    Box plane = box;
    plane.lo[0] = i;
    plane.hi[0] = i + 1;
    impl::for_each_whole_row(label, plane, rows);
  }
}

/// \brief The black cells of `box` outside red_black_interior(grid, box), u(i, j, k) =
/// point(i, j, k) at each:
/// the rest of for_each_red_black_interior's sweep, after the red cells' exchange.
template <class T, class Point>
void for_each_red_black_shell(const std::string& label, const Grid& grid, const Box& box,
                              const FieldAccessor<T>& u, const Point& point) {
  const impl::StorePoint<T, Point> f{u, point};
  const Box inner = red_black_interior(grid, box);
  // The shell as disjoint slabs: along i both ends, then along j within the inner i range,
  // then along k within the inner i and j ranges.
  Box rest = box;
  for (int d = 0; d < 3; ++d) {
    Box low = rest, high = rest;
    low.hi[d] = inner.lo[d];
    high.lo[d] = inner.hi[d] > inner.lo[d] ? inner.hi[d] : inner.lo[d];
    for (const Box& slab : {low, high}) {
      if (!slab.empty()) for_each_coloured_cell(label, grid, slab, 1, f);
    }
    rest.lo[d] = inner.lo[d];
    rest.hi[d] = high.lo[d];
  }
}

} // namespace hcart
