// Checks of a field's values over all ranks, for applications that must not go on with a
// broken state (a checkpoint holding NaN, a solution that overflowed).
//
//   if (hcart::count_non_finite(grid, u) > 0) { /* error on every rank */ }
#pragma once

#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>

#include <cstdint>

namespace hcart {

namespace impl {
template <class T>
struct CountNonFinite {
  Field<T> f;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, long long& n) const {
    const T v = f(i, j, k);
    // NaN is not equal to itself; infinity minus itself is NaN.
    n += (v == v && v - v == v - v) ? 0 : 1;
  }
};
} // namespace impl

/// \brief The number of owned cells of `field` that are NaN or infinite, summed over the
/// ranks of the grid's communicator (collective; every rank gets the same count).
template <class T>
std::int64_t count_non_finite(const Grid& grid, const Field<T>& field) {
  static_assert(std::is_floating_point<T>::value, "hcart::count_non_finite: floating point only");
  long long local = 0;
  reduce_cells("hcart_finite", grid.owned_box(), impl::CountNonFinite<T>{field}, local);
  long long global = 0;
  HCART_MPI_CHECK(
      MPI_Allreduce(&local, &global, 1, MPI_LONG_LONG, MPI_SUM, grid.decomposition().comm()));
  return global;
}

} // namespace hcart
