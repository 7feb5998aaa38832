// Checks of a field's values over all ranks, for applications that must not go on with a
// broken state (a checkpoint holding NaN, a solution that overflowed).
//
//   if (hcart::count_non_finite(grid, u) > 0) { /* the same count on every rank */ }
//   hcart::require_finite(grid, {{"u", u}, {"v", v}}, "after step 120");   // or an error
//                                                                           // on every rank
#pragma once

#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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

// After a reduction that found a field not fitting the grid on some rank: the same
// InputError on every rank (collective: printed once).
template <class F> // a Field or a ComponentField
[[noreturn]] void throw_misfit_everywhere(const Grid& grid, const F& field, const char* who) {
  try {
    grid.require_fits(field, who); // this rank's field: the detailed message
  } catch (InputError& e) {
    e.set_collective(true);
    throw;
  }
  InputError error(std::string(who) + ": field '" + field.label() +
                   "' does not have the grid's extents on some rank");
  error.set_collective(true);
  throw error;
}
} // namespace impl

/// \brief The number of owned cells of `field` that are NaN or infinite, summed over the
/// ranks of the grid's communicator (collective; every rank gets the same count).
template <class T>
std::int64_t count_non_finite(const Grid& grid, const Field<T>& field) {
  static_assert(std::is_floating_point<T>::value, "hcart::count_non_finite: floating point only");
  // {non-finite cells, ranks whose field does not fit}: one reduction for both, so that a
  // misfit on one rank is an error on every rank, at no extra latency.
  long long local[2] = {0, grid.fits(field) ? 0 : 1};
  if (local[1] == 0)
    reduce_cells("hcart_finite", grid.owned_box(), impl::CountNonFinite<T>{field}, local[0]);
  long long global[2] = {0, 0};
  HCART_MPI_CHECK(
      MPI_Allreduce(local, global, 2, MPI_LONG_LONG, MPI_SUM, grid.decomposition().comm()));
  if (global[1] > 0) impl::throw_misfit_everywhere(grid, field, "hcart::count_non_finite");
  return global[0];
}

/// \brief count_non_finite() of a field with components: every value of every component.
template <class T>
std::int64_t count_non_finite(const Grid& grid, const ComponentField<T>& field) {
  static_assert(std::is_floating_point<T>::value, "hcart::count_non_finite: floating point only");
  long long local[2] = {0, grid.fits(field) ? 0 : 1};
  for (int c = 0; local[1] == 0 && c < static_cast<int>(field.extent(0)); ++c) {
    long long n = 0;
    reduce_cells("hcart_finite", grid.owned_box(), impl::CountNonFinite<T>{component(field, c)}, n);
    local[0] += n;
  }
  long long global[2] = {0, 0};
  HCART_MPI_CHECK(
      MPI_Allreduce(local, global, 2, MPI_LONG_LONG, MPI_SUM, grid.decomposition().comm()));
  if (global[1] > 0) impl::throw_misfit_everywhere(grid, field, "hcart::count_non_finite");
  return global[0];
}

/// \brief Checks that the owned cells of every named field are finite, with one reduction
/// over the ranks of the grid's communicator (collective). `when` says at which point of the
/// run, for the message (e.g. "after step 120").
/// \throws hcart::Error, the same on every rank (collective(): hcart::run_main prints it once
/// and every rank exits with 1), naming each field that holds NaN or infinite values and how
/// many: "after step 120: field 'u' holds 3 values that are NaN or infinite". (For fields
/// of double or float: require_finite below.)
template <class T, class View>
void require_finite_fields(const Grid& grid,
                           const std::vector<std::pair<std::string, View>>& fields,
                           const std::string& when) {
  static_assert(std::is_floating_point<T>::value, "hcart::require_finite: floating point only");
  // Per field: {non-finite values, ranks where it does not fit}, in one reduction.
  std::vector<long long> counts, misfits;
  for (const auto& named : fields) {
    long long n = 0;
    const bool fits = grid.fits(named.second);
    if (fits) {
      if constexpr (View::rank == 4) {
        for (int c = 0; c < static_cast<int>(named.second.extent(0)); ++c) {
          long long m = 0;
          reduce_cells("hcart_finite", grid.owned_box(),
                       impl::CountNonFinite<T>{component(named.second, c)}, m);
          n += m;
        }
      } else {
        reduce_cells("hcart_finite", grid.owned_box(), impl::CountNonFinite<T>{named.second}, n);
      }
    }
    counts.push_back(n);
    misfits.push_back(fits ? 0 : 1);
  }
  counts.insert(counts.end(), misfits.begin(), misfits.end());
  if (!counts.empty()) {
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, counts.data(), static_cast<int>(counts.size()),
                                  MPI_LONG_LONG, MPI_SUM, grid.decomposition().comm()));
  }
  for (std::size_t f = 0; f < fields.size(); ++f) {
    if (counts[fields.size() + f] > 0)
      impl::throw_misfit_everywhere(grid, fields[f].second, "hcart::require_finite");
  }
  std::string problem;
  for (std::size_t f = 0; f < fields.size(); ++f) {
    if (counts[f] == 0) continue;
    problem += (problem.empty() ? "" : "; ") + std::string("field '") + fields[f].first +
               "' holds " + std::to_string(counts[f]) + " values that are NaN or infinite";
  }
  if (problem.empty()) return;
  Error error(when + ": " + problem);
  error.set_collective(true);
  throw error;
}
inline void require_finite(const Grid& grid,
                           const std::vector<std::pair<std::string, Field<double>>>& fields,
                           const std::string& when) {
  require_finite_fields<double>(grid, fields, when);
}
inline void require_finite(const Grid& grid,
                           const std::vector<std::pair<std::string, Field<float>>>& fields,
                           const std::string& when) {
  require_finite_fields<float>(grid, fields, when);
}
/// \brief require_finite of fields with components: every value of every component counts.
inline void require_finite(const Grid& grid,
                           const std::vector<std::pair<std::string, ComponentField<double>>>& fields,
                           const std::string& when) {
  require_finite_fields<double>(grid, fields, when);
}
inline void require_finite(const Grid& grid,
                           const std::vector<std::pair<std::string, ComponentField<float>>>& fields,
                           const std::string& when) {
  require_finite_fields<float>(grid, fields, when);
}

} // namespace hcart
