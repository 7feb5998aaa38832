// Sums over the cells of all ranks that are the same bits on every decomposition, thread
// count and backend (hcart::reproducible_sums): what a floating-point reduction cannot give,
// since its order of additions follows the ranks and threads (Reductions.hpp).
//
//   struct MassAndMoment {                       // a cell's addends, set (not added)
//     hcart::FieldAccessor<const double> rho;
//     KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k,
//                                            hcart::ReductionArray<double, 2>& x) const {
//       x[0] = rho(i, j, k);
//       x[1] = rho(i, j, k) * i;
//     }
//   };
//   const auto s = hcart::reproducible_sums<2>(comm, "mass", grid.owned_box(), MassAndMoment{...});
//
// How: each entry's addends are rounded (toward zero) to multiples of 2^-61 times the largest
// magnitude of that entry over all cells of all ranks (an exact maximum), and the multiples,
// integers of at most 62 bits, are added as integers in two 32-bit halves, which no order
// changes. Each addend moves by less than 2^-61 of the largest one: a sum of n cells is within
// n 2^-61 max |x| of the exact sum (for 10^9 cells, 4e-10 of the largest addend), and the same
// on every run. Up to 2^31 cells of `box` over all ranks; more is an hcart::Error.
#pragma once

#include <hcart/core/Error.hpp>
#include <hcart/core/ExecutionModel.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Box.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/grid/Reductions.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace hcart {

namespace impl {

// Pass 1: the largest |addend| of each entry.
template <int N, class Functor>
struct LargestAddend {
  Functor f;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k,
                                         ReductionArray<double, N>& largest) const {
    ReductionArray<double, N> x{};
    f(i, j, k, x);
    for (int c = 0; c < N; ++c) {
      // A NaN counts as infinite (a maximum would drop it), and is an error below.
      const double a = x[c] == x[c] ? (x[c] < 0 ? -x[c] : x[c]) : math::infinity();
      largest[c] = a > largest[c] ? a : largest[c];
    }
  }
};

// Pass 2: each addend as an integer multiple of 1 / scale[c], added in two halves: q = hi 2^32
// + lo with 0 <= lo < 2^32, so that n cells' halves stay within 63 bits for n < 2^31.
template <int N, class Functor>
struct FixedPointAddends {
  Functor f;
  Kokkos::Array<double, N> scale;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k,
                                         ReductionArray<long long, 2 * N>& sums) const {
    ReductionArray<double, N> x{};
    f(i, j, k, x);
    constexpr long long kHalf = 4294967296LL; // 2^32
    for (int c = 0; c < N; ++c) {
      const long long q = static_cast<long long>(x[c] * scale[c]); // |q| < 2^62
      long long lo = q % kHalf;
      if (lo < 0) lo += kHalf;
      sums[2 * c] += (q - lo) / kHalf;
      sums[2 * c + 1] += lo;
    }
  }
};

} // namespace impl

/// \brief N sums over the cells of `box` on every rank of `comm`, the same bits on every
/// decomposition, thread count and backend: f(i, j, k, ReductionArray<double, N>& x) sets
/// the cell's N addends (x starts at zero). Collective: two reductions over the cells, two
/// MPI_Allreduce. \throws hcart::Error (on every rank) when the boxes hold 2^31 cells or more
/// in all, or an addend is not finite.
template <int N, class Functor>
ReductionArray<double, N> reproducible_sums(MPI_Comm comm, const std::string& label, const Box& box,
                                            const Functor& f) {
  long long cells = box.cells();
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &cells, 1, MPI_LONG_LONG, MPI_SUM, comm));
  if (cells >= (1LL << 31)) {
    Error error("hcart::reproducible_sums (" + label + "): " + std::to_string(cells) +
                " cells, expected fewer than 2^31");
    error.set_collective(true);
    throw error;
  }
  ReductionArray<double, N> largest{};
  if (!box.empty()) {
    reduce_cells(label + " (largest)", box, impl::LargestAddend<N, Functor>{f},
                 Maxima<double, N>(largest));
  }
  max_over_ranks(comm, largest);
  impl::FixedPointAddends<N, Functor> fixed{f, {}};
  for (int c = 0; c < N; ++c) {
    if (!std::isfinite(largest[c])) {
      Error error("hcart::reproducible_sums (" + label + "): entry " + std::to_string(c) +
                  " has an addend that is NaN or infinite");
      error.set_collective(true);
      throw error;
    }
    // largest < 2^(e + 1) with e = ilogb(largest): x 2^(61 - e) < 2^62.
    fixed.scale[c] = largest[c] > 0 ? std::ldexp(1.0, 61 - std::ilogb(largest[c])) : 0.0;
  }
  ReductionArray<long long, 2 * N> halves{};
  if (!box.empty()) reduce_cells(label, box, fixed, Sums<long long, 2 * N>(halves));
  sum_over_ranks(comm, halves);
  ReductionArray<double, N> result{};
  for (int c = 0; c < N; ++c) {
    if (fixed.scale[c] == 0) continue;
    result[c] = (std::ldexp(static_cast<double>(halves[2 * c]), 32) +
                 static_cast<double>(halves[2 * c + 1])) /
                fixed.scale[c];
  }
  return result;
}

} // namespace hcart
