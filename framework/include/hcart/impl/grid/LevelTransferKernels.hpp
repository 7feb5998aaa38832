// The kernels between the levels of a grid hierarchy (internal: hcart/grid/LevelTransfers.hpp):
// where a coarse cell's fine cells are, and the restriction and prolongation of cell- and
// vertex-centred values, every component, each value from its operands in a fixed order (so
// the result is bitwise the same on every decomposition).
#pragma once

#include <hcart/grid/Field.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace hcart {

/// \brief Where level l's cells sit among level l - 1's, in local indices of two grids (the
/// fine one, and the coarse one or an agglomerated level's pieces): usable in kernels.
///   cell-centred:   coarse global c holds fine globals 2c and 2c + 1 (ratio 2), or c (1)
///   vertex-centred: coarse global c is fine global 2c + 1 (ratio 2), or c (1)
struct LevelMap {
  Kokkos::Array<long long, 3> fine_origin{};   ///< fine global index of fine local 0
  Kokkos::Array<long long, 3> coarse_origin{}; ///< coarse global index of coarse local 0
  Kokkos::Array<int, 3> ratio{{1, 1, 1}};
  bool vertex = false;
  /// \brief The fine local index of coarse local index `c` in direction `d`: the first
  /// child of a cell, the coinciding point of a vertex.
  KOKKOS_INLINE_FUNCTION int fine(int d, int c) const {
    const long long g = coarse_origin[d] + c;
    const long long f = ratio[d] == 1 ? g : (vertex ? 2 * g + 1 : 2 * g);
    return static_cast<int>(f - fine_origin[d]);
  }
};

namespace impl {

// Field values as 4D (components first); a Field is one component.
template <class T>
using Values = Kokkos::View<T****, Kokkos::LayoutRight, MemorySpace, Kokkos::MemoryUnmanaged>;

// Restriction of cell-centred values: the mean of the children, summed in the order of
// their indices.
template <class T>
struct RestrictCells {
  Values<T> fine, coarse;
  LevelMap map;
  T scale; // 1 / children
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const int fi = map.fine(0, i), fj = map.fine(1, j), fk = map.fine(2, k);
    for (int c = 0; c < static_cast<int>(coarse.extent(0)); ++c) {
      T sum = T(0);
      for (int a = 0; a < map.ratio[0]; ++a)
        for (int b = 0; b < map.ratio[1]; ++b)
          for (int e = 0; e < map.ratio[2]; ++e)
            sum += fine(c, fi + a, fj + b, fk + e);
      coarse(c, i, j, k) = sum * scale;
    }
  }
};

// Restriction of vertex-centred values: full weighting, (1/4, 1/2, 1/4) along each
// coarsened direction around the coinciding fine point (its neighbours: fine halos filled).
template <class T>
struct RestrictVertices {
  Values<T> fine, coarse;
  LevelMap map;
  KOKKOS_INLINE_FUNCTION static T weight(int ratio, int offset) {
    return ratio == 1 ? T(1) : (offset == 0 ? T(0.5) : T(0.25));
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const int fi = map.fine(0, i), fj = map.fine(1, j), fk = map.fine(2, k);
    const int ri = map.ratio[0] == 1 ? 0 : 1, rj = map.ratio[1] == 1 ? 0 : 1,
              rk = map.ratio[2] == 1 ? 0 : 1;
    for (int c = 0; c < static_cast<int>(coarse.extent(0)); ++c) {
      T sum = T(0);
      for (int a = -ri; a <= ri; ++a)
        for (int b = -rj; b <= rj; ++b)
          for (int e = -rk; e <= rk; ++e)
            sum += weight(map.ratio[0], a) * weight(map.ratio[1], b) * weight(map.ratio[2], e) *
                   fine(c, fi + a, fj + b, fk + e);
      coarse(c, i, j, k) = sum;
    }
  }
};

// Prolongation to one fine cell (i, j, k): per direction up to two coarse operands and their
// weights, then the tensor product in a fixed order; added to the fine value or stored.
template <class T>
struct Prolong {
  Values<T> coarse, fine;
  LevelMap map; // here: fine_origin of the fine grid, coarse_origin of the coarse one
  bool add;
  // Direction d of fine local index f: coarse local indices n[0], n[1] (n[1] unused when
  // count is 1) and their weights.
  KOKKOS_INLINE_FUNCTION void operands(int d, int f, int* n, T* w, int& count) const {
    const long long g = map.fine_origin[d] + f;
    if (map.ratio[d] == 1) {
      n[0] = static_cast<int>(g - map.coarse_origin[d]);
      w[0] = T(1);
      count = 1;
      return;
    }
    if (map.vertex) {
      // Odd fine points coincide with coarse ones; even ones lie halfway between two.
      const long long half = (g - 1) >> 1; // floor((g - 1) / 2)
      if ((g & 1) == 1) {
        n[0] = static_cast<int>(half - map.coarse_origin[d]);
        w[0] = T(1);
        count = 1;
      } else {
        n[0] = static_cast<int>(half - map.coarse_origin[d]);
        n[1] = n[0] + 1;
        w[0] = w[1] = T(0.5);
        count = 2;
      }
      return;
    }
    // Cell-centred: the parent, 3/4, and its neighbour on the fine cell's side, 1/4.
    const long long parent = g >> 1; // floor(g / 2)
    n[0] = static_cast<int>(parent - map.coarse_origin[d]);
    n[1] = n[0] + ((g & 1) == 1 ? 1 : -1);
    w[0] = T(0.75);
    w[1] = T(0.25);
    count = 2;
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    int ni[2], nj[2], nk[2], ci, cj, ck;
    T wi[2], wj[2], wk[2];
    operands(0, i, ni, wi, ci);
    operands(1, j, nj, wj, cj);
    operands(2, k, nk, wk, ck);
    for (int c = 0; c < static_cast<int>(fine.extent(0)); ++c) {
      T sum = T(0);
      for (int a = 0; a < ci; ++a)
        for (int b = 0; b < cj; ++b)
          for (int e = 0; e < ck; ++e)
            sum += wi[a] * wj[b] * wk[e] * coarse(c, ni[a], nj[b], nk[e]);
      fine(c, i, j, k) = add ? fine(c, i, j, k) + sum : sum;
    }
  }
};

} // namespace impl

} // namespace hcart
