// The arguments of a HaloExchanger call (internal): an optional HaloMode, then an optional
// HaloWidth, then the fields (hcart/halo/HaloExchanger.hpp).
#pragma once

#include <hcart/halo/HaloOptions.hpp>
#include <hcart/halo/HaloPlan.hpp>
#include <hcart/impl/halo/BoundField.hpp>

#include <tuple>

namespace hcart::impl {

/// \brief What one call exchanges: its mode and width (HaloWidth::layers; 0: the whole halo).
struct HaloCall {
  HaloMode mode = HaloMode::Faces;
  int layers = 0;
};

/// \brief The call's mode and width: the leading HaloMode and HaloWidth arguments, else
/// those of `fallback` (the exchanger's).
template <class... F>
HaloCall call_of(HaloCall fallback, const HaloMode& mode, const F&... rest);
template <class... F>
HaloCall call_of(HaloCall fallback, const HaloWidth& width, const F&...) {
  static_assert(halo_arguments<F...>, "hcart::HaloExchanger: HaloMode, then HaloWidth, then "
                                      "the fields");
  return {fallback.mode, width.layers};
}
template <class... F>
HaloCall call_of(HaloCall fallback, const F&...) {
  return fallback;
}
template <class... F>
HaloCall call_of(HaloCall fallback, const HaloMode& mode, const F&... rest) {
  HaloCall call = call_of(fallback, rest...);
  call.mode = mode;
  return call;
}

/// \brief The fields among the arguments, as a tuple of references.
template <class... F>
std::tuple<const F&...> fields_of(const F&... fields);
template <class... F>
auto fields_of(const HaloMode&, const F&... rest);
template <class... F>
auto fields_of(const HaloWidth&, const F&... rest) {
  return fields_of(rest...);
}
template <class... F>
std::tuple<const F&...> fields_of(const F&... fields) {
  static_assert(sizeof...(F) >= 1, "hcart::HaloExchanger: pass at least one field");
  static_assert(halo_arguments<F...>,
                "hcart::HaloExchanger: fields are Field<T> or ComponentField<T> of an "
                "arithmetic T, or std::vectors of them");
  return std::tuple<const F&...>(fields...);
}
template <class... F>
auto fields_of(const HaloMode&, const F&... rest) {
  return fields_of(rest...);
}

} // namespace hcart::impl
