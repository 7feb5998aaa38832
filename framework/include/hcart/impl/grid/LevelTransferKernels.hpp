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

// The kernels read and write through raw pointers and strides (a 4D view's index
// arithmetic per operand cost twice the plain loops' time): per component c, cell (i, j, k)
// is data[c * sc + i * si + j * sj + k].
template <class T>
struct Strided {
  T* data;
  long long sc, si, sj;
  KOKKOS_INLINE_FUNCTION T* at(int c, int i, int j, int k) const {
    return data + c * sc + i * si + j * sj + k;
  }
};
template <class T>
Strided<T> strided(const Values<T>& v) {
  return {v.data(), static_cast<long long>(v.stride(0)), static_cast<long long>(v.stride(1)),
          static_cast<long long>(v.stride(2))};
}

// Restriction of cell-centred values: the mean of the children, summed in the order of
// their indices.
template <class T>
struct RestrictCells {
  Strided<const T> fine;
  Strided<T> coarse;
  int components;
  LevelMap map;
  T scale; // 1 / children
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const int fi = map.fine(0, i), fj = map.fine(1, j), fk = map.fine(2, k);
    for (int c = 0; c < components; ++c) {
      const T* f = fine.at(c, fi, fj, fk);
      T sum = T(0);
      for (int a = 0; a < map.ratio[0]; ++a)
        for (int b = 0; b < map.ratio[1]; ++b)
          for (int e = 0; e < map.ratio[2]; ++e)
            sum += f[a * fine.si + b * fine.sj + e];
      *coarse.at(c, i, j, k) = sum * scale;
    }
  }
};

// Restriction of vertex-centred values: full weighting, (1/4, 1/2, 1/4) along each
// coarsened direction around the coinciding fine point (its neighbours: fine halos filled),
// the terms in the order of their offsets, each weight the product w_a w_b w_e in that order.
// `All`: every direction coarsened (the 27 terms unrolled, their weights constants).
template <class T, bool All>
struct RestrictVertices {
  Strided<const T> fine;
  Strided<T> coarse;
  int components;
  LevelMap map;

  KOKKOS_INLINE_FUNCTION static T w(int ratio, int o) {
    return ratio == 1 ? T(1) : (o == 0 ? T(0.5) : T(0.25));
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const int fi = map.fine(0, i), fj = map.fine(1, j), fk = map.fine(2, k);
    const int ri = All || map.ratio[0] == 2 ? 1 : 0, rj = All || map.ratio[1] == 2 ? 1 : 0,
              rk = All || map.ratio[2] == 2 ? 1 : 0;
    for (int c = 0; c < components; ++c) {
      const T* f = fine.at(c, fi, fj, fk);
      T sum = T(0);
      if constexpr (All) {
        for (int a = -1; a <= 1; ++a)
          for (int b = -1; b <= 1; ++b)
            for (int e = -1; e <= 1; ++e)
              sum += w(2, a) * w(2, b) * w(2, e) * f[a * fine.si + b * fine.sj + e];
      } else {
        for (int a = -ri; a <= ri; ++a)
          for (int b = -rj; b <= rj; ++b)
            for (int e = -rk; e <= rk; ++e)
              sum += w(map.ratio[0], a) * w(map.ratio[1], b) * w(map.ratio[2], e) *
                     f[a * fine.si + b * fine.sj + e];
      }
      *coarse.at(c, i, j, k) = sum;
    }
  }
};

// Prolongation to one fine cell (i, j, k): per direction up to two coarse operands and their
// weights, then the tensor product in a fixed order; added to the fine value or stored.
template <class T>
struct Prolong {
  Strided<const T> coarse;
  Strided<T> fine;
  int components;
  LevelMap map; // here: fine_origin of the fine grid, coarse_origin of the coarse one
  bool add;
  // Direction d of fine local index f: coarse local indices n[0], n[1] (n[1] unused when
  // count is 1) and their weights.
  KOKKOS_INLINE_FUNCTION void operands(int d, int f, int* n, T* w, int& count) const {
    const long long g = map.fine_origin[d] + f;
    if (map.ratio[d] == 1) {
      n[0] = n[1] = static_cast<int>(g - map.coarse_origin[d]);
      w[0] = T(1);
      w[1] = T(0);
      count = 1;
      return;
    }
    if (map.vertex) {
      // Odd fine points coincide with coarse ones; even ones lie halfway between two.
      const long long half = (g - 1) >> 1; // floor((g - 1) / 2)
      n[0] = static_cast<int>(half - map.coarse_origin[d]);
      n[1] = n[0] + 1;
      if ((g & 1) == 1) {
        w[0] = T(1);
        w[1] = T(0);
        count = 1;
      } else {
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
  // The value of fine point (i, j, k) of component c from the operands of its directions:
  // the terms in the order a, b, e, each ((w_a w_b) w_e) x.
  KOKKOS_INLINE_FUNCTION T value(int c, const int* ni, const T* wi, int ci, const int* nj,
                                 const T* wj, int cj, const int* nk, const T* wk, int ck) const {
    const T* from = coarse.at(c, 0, 0, 0);
    T sum = T(0);
    for (int a = 0; a < ci; ++a)
      for (int b = 0; b < cj; ++b) {
        const T wab = wi[a] * wj[b];
        const T* row = from + ni[a] * coarse.si + nj[b] * coarse.sj;
        sum += wab * wk[0] * row[nk[0]];
        if (ck == 2) sum += wab * wk[1] * row[nk[1]];
      }
    return sum;
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    int ni[2], nj[2], nk[2], ci, cj, ck;
    T wi[2], wj[2], wk[2];
    operands(0, i, ni, wi, ci);
    operands(1, j, nj, wj, cj);
    operands(2, k, nk, wk, ck);
    for (int c = 0; c < components; ++c) {
      const T sum = value(c, ni, wi, ci, nj, wj, cj, nk, wk, ck);
      T* to = fine.at(c, i, j, k);
      *to = add ? *to + sum : sum;
    }
  }
  // A whole row along k (host launches): the coarse rows of i's and j's operands and their
  // weights once a row, then each point from its k operands (the same terms in the same
  // order as operator()).
  int k0 = 0, k1 = 0;
  KOKKOS_INLINE_FUNCTION void row(int i, int j) const {
    int ni[2], nj[2], nk[2], ci, cj, ck;
    T wi[2], wj[2], wk[2];
    operands(0, i, ni, wi, ci);
    operands(1, j, nj, wj, cj);
    for (int c = 0; c < components; ++c) {
      const T* from = coarse.at(c, 0, 0, 0);
      const T* rows[4];
      T wab[4];
      int pairs = 0;
      for (int a = 0; a < ci; ++a)
        for (int b = 0; b < cj; ++b) {
          rows[pairs] = from + ni[a] * coarse.si + nj[b] * coarse.sj;
          wab[pairs] = wi[a] * wj[b];
          ++pairs;
        }
      T* to = fine.at(c, i, j, 0);
      const auto one = [&](int k) {
        operands(2, k, nk, wk, ck);
        T sum = T(0);
        for (int p = 0; p < pairs; ++p) {
          sum += wab[p] * wk[0] * rows[p][nk[0]];
          if (ck == 2) sum += wab[p] * wk[1] * rows[p][nk[1]];
        }
        to[k] = add ? to[k] + sum : sum;
      };
      if (!(map.vertex && map.ratio[2] == 2)) {
        for (int k = k0; k < k1; ++k)
          one(k);
        continue;
      }
      // Vertex-centred along k: the fine points in pairs, one on coarse point m (weight 1)
      // and the next halfway to m + 1 (1/2 each), without a branch a point; the same terms
      // in the same order as one(k) (w * 1 is w), so the same bits.
      int k = k0;
      for (; k < k1 && ((map.fine_origin[2] + k) & 1) == 0; ++k)
        one(k);
      const long long co = map.coarse_origin[2];
      switch (pairs) {
      case 1: vertex_pairs<1>(rows, wab, to, k, k1, co); break;
      case 2: vertex_pairs<2>(rows, wab, to, k, k1, co); break;
      default: vertex_pairs<4>(rows, wab, to, k, k1, co); break;
      }
      for (; k < k1; ++k)
        one(k);
    }
  }
  // Fine points k (g odd: on coarse point m = (g - 1) / 2) and k + 1 (halfway to m + 1) for
  // as many pairs as fit before k1; k is left at the first point not done.
  template <int Pairs>
  KOKKOS_INLINE_FUNCTION void vertex_pairs(const T* const* rows, const T* wab, T* to, int& k,
                                           int k1, long long co) const {
    T half[Pairs];
    for (int p = 0; p < Pairs; ++p)
      half[p] = wab[p] * T(0.5);
    for (; k + 1 < k1; k += 2) {
      const int m = static_cast<int>(((map.fine_origin[2] + k - 1) >> 1) - co);
      T on = T(0), between = T(0);
      for (int p = 0; p < Pairs; ++p) {
        on += wab[p] * rows[p][m];
        between += half[p] * rows[p][m];
        between += half[p] * rows[p][m + 1];
      }
      to[k] = add ? to[k] + on : on;
      to[k + 1] = add ? to[k + 1] + between : between;
    }
  }
};

} // namespace impl

} // namespace hcart
