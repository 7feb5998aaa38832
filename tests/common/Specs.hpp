// GridSpecs the tests build again and again.
#pragma once

#include <hcart/grid/GridSpec.hpp>

#include <array>
#include <cstdint>

namespace hcart::test {

/// \brief A mesh of `size` cells with halos `halo` and the periodic directions `periodic`.
inline GridSpec make_spec(std::array<std::int64_t, 3> size, std::array<int, 3> halo,
                          std::array<bool, 3> periodic) {
  GridSpec spec;
  spec.global_size = size;
  spec.halo_width = halo;
  spec.periodic = periodic;
  return spec;
}

/// \brief An n^3 mesh, halos 2 in x and 1 elsewhere (so that widths differ by direction),
/// periodic in every direction or none.
inline GridSpec cube(std::int64_t n, bool periodic) {
  return make_spec({n, n, n}, {2, 1, 1}, {periodic, periodic, periodic});
}

} // namespace hcart::test
