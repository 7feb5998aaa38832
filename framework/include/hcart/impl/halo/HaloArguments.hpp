// The arguments of a HaloExchanger call (internal): an optional HaloMode, then an optional
// HaloWidth, then optional HaloDirections, then the fields (hcart/halo/HaloExchanger.hpp).
#pragma once

#include <hcart/halo/HaloOptions.hpp>
#include <hcart/halo/HaloPlan.hpp>
#include <hcart/impl/halo/BoundField.hpp>

#include <tuple>

namespace hcart::impl {

/// \brief What one call exchanges: its mode, width (per direction; 0: the whole halo) and
/// directions.
struct HaloCall {
  HaloMode mode = HaloMode::Faces;
  HaloWidth width;
  HaloDirections directions;
};

// Each stage takes its own kind of leading argument, if there, and hands the rest on: the
// order is mode, width, directions, fields (fields_of asserts that only fields are left).
template <class... F>
HaloCall directions_of(HaloCall call, const F&...) {
  return call;
}
template <class... F>
HaloCall directions_of(HaloCall call, const HaloDirections& directions, const F&...) {
  call.directions = directions;
  return call;
}
template <class... F>
HaloCall width_of(HaloCall call, const F&... rest) {
  return directions_of(call, rest...);
}
template <class... F>
HaloCall width_of(HaloCall call, const HaloWidth& width, const F&... rest) {
  call.width = width;
  return directions_of(call, rest...);
}

/// \brief The call's mode, width and directions: the leading HaloMode, HaloWidth and
/// HaloDirections arguments, else those of `fallback` (the exchanger's).
template <class... F>
HaloCall call_of(HaloCall fallback, const F&... rest) {
  return width_of(fallback, rest...);
}
template <class... F>
HaloCall call_of(HaloCall fallback, const HaloMode& mode, const F&... rest) {
  fallback.mode = mode;
  return width_of(fallback, rest...);
}

/// \brief The fields among the arguments, as a tuple of references.
template <class... F>
std::tuple<const F&...> fields_after_options(const F&... fields) {
  static_assert(sizeof...(F) >= 1, "hcart::HaloExchanger: pass at least one field");
  static_assert(halo_arguments<F...>,
                "hcart::HaloExchanger: the arguments are HaloMode, then HaloWidth, then "
                "HaloDirections (each optional), then the fields: Field<T> or "
                "ComponentField<T> of an arithmetic T, or std::vectors of them");
  return std::tuple<const F&...>(fields...);
}
template <class... F>
auto fields_after_options(const HaloDirections&, const F&... rest) {
  return fields_after_options(rest...);
}
template <class... F>
auto fields_after_width(const F&... rest) {
  return fields_after_options(rest...);
}
template <class... F>
auto fields_after_width(const HaloWidth&, const F&... rest) {
  return fields_after_options(rest...);
}
template <class... F>
auto fields_of(const F&... rest) {
  return fields_after_width(rest...);
}
template <class... F>
auto fields_of(const HaloMode&, const F&... rest) {
  return fields_after_width(rest...);
}

} // namespace hcart::impl
