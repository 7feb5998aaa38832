// Several sums or maxima in one reduction: over the cells of a box (reduce_cells with a
// reducer of N values), then over the ranks (one MPI_Allreduce for all N).
//
//   hcart::ReductionArray<double, 3> norms;              // three components' max |r|
//   hcart::reduce_cells("norms", grid.owned_box(), MaxAbs{r}, hcart::Maxima<double, 3>(norms));
//   hcart::max_over_ranks(grid.decomposition().comm(), norms);
//
// The functor is called as f(i, j, k, hcart::ReductionArray<T, N>& values) and updates each entry
// (values[c] += x for Sums, values[c] = max(values[c], x) for Maxima). A maximum is the same
// on every decomposition; a floating-point sum is the same only up to rounding (the order of
// the additions follows the ranks and threads).
#pragma once

#include <hcart/core/MpiCheck.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>

#include <cstddef>
#include <limits>
#include <type_traits>

namespace hcart {

/// \brief N values reduced together (a plain array: a Kokkos view of it is a scalar view).
template <class T, int N>
struct ReductionArray {
  T values[N];
  KOKKOS_INLINE_FUNCTION T& operator[](int c) { return values[c]; }
  KOKKOS_INLINE_FUNCTION const T& operator[](int c) const { return values[c]; }
};

namespace impl {

// A Kokkos reducer of N values of T combined by Join.
template <class T, int N, class Join>
class ArrayReducer {
public:
  using reducer = ArrayReducer;
  using value_type = ReductionArray<T, N>;
  using result_view_type = Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

  explicit ArrayReducer(value_type& result) : m_view(&result) {}

  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    for (int c = 0; c < N; ++c)
      Join::apply(dest[c], src[c]);
  }
#if KOKKOS_VERSION < 40000
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dest,
                                   const volatile value_type& src) const {
    for (int c = 0; c < N; ++c) {
      T d = dest.values[c];
      Join::apply(d, src.values[c]);
      dest.values[c] = d;
    }
  }
#endif
  KOKKOS_INLINE_FUNCTION void init(value_type& value) const {
    for (int c = 0; c < N; ++c)
      value[c] = Join::identity();
  }
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *m_view.data(); }
  result_view_type view() const { return m_view; }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }

private:
  result_view_type m_view;
};

template <class T>
struct SumJoin {
  KOKKOS_INLINE_FUNCTION static void apply(T& a, const T& b) { a += b; }
  KOKKOS_INLINE_FUNCTION static T identity() { return T(0); }
};
template <class T>
struct MaxJoin {
  KOKKOS_INLINE_FUNCTION static void apply(T& a, const T& b) { a = b > a ? b : a; }
  KOKKOS_INLINE_FUNCTION static T identity() { return Kokkos::reduction_identity<T>::max(); }
};

template <class T>
MPI_Datatype mpi_type() {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float> ||
                    std::is_same_v<T, long long> || std::is_same_v<T, int>,
                "hcart: reductions over ranks of double, float, long long or int");
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  if constexpr (std::is_same_v<T, long long>) return MPI_LONG_LONG;
  if constexpr (std::is_same_v<T, int>) return MPI_INT;
}

} // namespace impl

/// \brief N sums in one reduction (a Kokkos reducer into `result`).
template <class T, int N>
using Sums = impl::ArrayReducer<T, N, impl::SumJoin<T>>;
/// \brief N maxima in one reduction (a Kokkos reducer into `result`).
template <class T, int N>
using Maxima = impl::ArrayReducer<T, N, impl::MaxJoin<T>>;

/// \brief Sums each of the N values over the ranks of `comm` (one MPI_Allreduce).
template <class T, int N>
void sum_over_ranks(MPI_Comm comm, ReductionArray<T, N>& values) {
  HCART_MPI_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, values.values, N, impl::mpi_type<T>(), MPI_SUM, comm));
}
/// \brief The maximum of each of the N values over the ranks of `comm` (one MPI_Allreduce).
template <class T, int N>
void max_over_ranks(MPI_Comm comm, ReductionArray<T, N>& values) {
  HCART_MPI_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, values.values, N, impl::mpi_type<T>(), MPI_MAX, comm));
}

} // namespace hcart
