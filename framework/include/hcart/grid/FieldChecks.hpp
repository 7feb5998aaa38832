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
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
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

// The non-finite values of this rank's owned cells of `field`, every component.
template <class F>
long long count_local_non_finite(const Grid& grid, const F& field) {
  using T = typename FieldTraits<F>::value_type;
  static_assert(std::is_floating_point<T>::value, "hcart::count_non_finite: floating point only");
  long long n = 0;
  for (int c = 0; c < FieldTraits<F>::components(field); ++c) {
    long long m = 0;
    reduce_cells("hcart_finite", grid.owned_box(),
                 CountNonFinite<T>{FieldTraits<F>::component(field, c)}, m);
    n += m;
  }
  return n;
}

// After a reduction that found a field not fitting the grid on some rank: the same
// InputError on every rank (collective: printed once).
template <class F>
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

/// \brief The number of owned cells of `field` that are NaN or infinite, every component of a
/// field with components, summed over the ranks of the grid's communicator (collective;
/// every rank gets the same count).
template <class F, class = std::enable_if_t<is_field_v<F>>>
std::int64_t count_non_finite(const Grid& grid, const F& field) {
  // {non-finite values, ranks whose field does not fit}: one reduction for both, so that a
  // misfit on one rank is an error on every rank, at no extra latency.
  long long local[2] = {0, grid.fits(field) ? 0 : 1};
  if (local[1] == 0) local[0] = impl::count_local_non_finite(grid, field);
  long long global[2] = {0, 0};
  HCART_MPI_CHECK(
      MPI_Allreduce(local, global, 2, MPI_LONG_LONG, MPI_SUM, grid.decomposition().comm()));
  if (global[1] > 0) impl::throw_misfit_everywhere(grid, field, "hcart::count_non_finite");
  return global[0];
}

/// \brief One field for require_finite: its name and the field, of any field type of
/// floating-point values ({"u", u}; one list may mix Fields and ComponentFields, double and
/// float).
class FiniteCheck {
public:
  template <class F, class = std::enable_if_t<is_field_v<F>>>
  FiniteCheck(std::string name, const F& field)
      : m_name(std::move(name)), m_fits([field](const Grid& grid) { return grid.fits(field); }),
        m_count([field](const Grid& grid) { return impl::count_local_non_finite(grid, field); }),
        m_misfit([field](const Grid& grid, const char* who) {
          impl::throw_misfit_everywhere(grid, field, who);
        }) {}
  /// \brief A (name, field) pair.
  template <class F, class = std::enable_if_t<is_field_v<F>>>
  FiniteCheck(const std::pair<std::string, F>& named) // NOLINT: a pair converts
      : FiniteCheck(named.first, named.second) {}

  const std::string& name() const noexcept { return m_name; }
  bool fits(const Grid& grid) const { return m_fits(grid); }
  /// This rank's count of non-finite owned values (the field must fit).
  long long count(const Grid& grid) const { return m_count(grid); }
  /// The collective misfit error of impl::throw_misfit_everywhere.
  [[noreturn]] void throw_misfit(const Grid& grid, const char* who) const {
    m_misfit(grid, who);
    std::abort(); // not reached: m_misfit throws
  }

private:
  std::string m_name;
  std::function<bool(const Grid&)> m_fits;
  std::function<long long(const Grid&)> m_count;
  std::function<void(const Grid&, const char*)> m_misfit;
};

/// \brief Checks that the owned cells of every named field are finite (every component of a
/// field with components), with one reduction over the ranks of the grid's communicator
/// (collective). `when` says at which point of the run, for the message (e.g. "after step
/// 120").
///
///   hcart::require_finite(grid, {{"u", u}, {"f", f}}, "after step 120");
///
/// \throws hcart::Error, the same on every rank (collective(): hcart::run_main prints it once
/// and every rank exits with 1), naming each field that holds NaN or infinite values and how
/// many: "after step 120: field 'u' holds 3 values that are NaN or infinite"; an
/// hcart::InputError (collective) when a field does not have the grid's extents on some
/// rank.
void require_finite(const Grid& grid, const std::vector<FiniteCheck>& fields,
                    const std::string& when);

/// \brief require_finite() of a list of (name, field) pairs.
template <class F, class = std::enable_if_t<is_field_v<F>>>
void require_finite(const Grid& grid, const std::vector<std::pair<std::string, F>>& fields,
                    const std::string& when) {
  require_finite(grid, std::vector<FiniteCheck>(fields.begin(), fields.end()), when);
}

} // namespace hcart
