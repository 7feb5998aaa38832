// ZEUS-like hydrodynamics, how its kernels see the fields and loop over zones: every kernel
// is a functor of a zone's linear offset c into fields it holds as hcart::FieldAccessor
// (a step of stride(a) moves one zone in direction a, whatever the layout; indices checked
// in debug builds), launched over a box of zones by for_zones() and reduce_zones() on every
// backend. The arithmetic is in ZeusPointUpdates.hpp, the kernels of each step in
// Zeus{Problem,Source,Transport,Diagnostics}Kernels.hpp beside the .cpp of that step.
#pragma once

#include <hcart/grid/Box.hpp>
#include <hcart/grid/FieldAccessor.hpp>
#include <hcart/grid/Loops.hpp>

#include <utility>

namespace hcart::zeus {

using Cells = FieldAccessor<double>;
using ConstCells = FieldAccessor<const double>;
using Vectors = Kokkos::Array<Cells, 3>; ///< the three face velocities
using ConstVectors = Kokkos::Array<ConstCells, 3>;
using Offsets = Kokkos::Array<long, 3>; ///< steps of one zone per direction, in elements
using Spacing = Kokkos::Array<double, 3>;

/// \brief The steps of one zone per direction in fields laid out like `cells`.
inline Offsets offsets_of(const ConstCells& cells) {
  return {static_cast<long>(cells.stride(0)), static_cast<long>(cells.stride(1)),
          static_cast<long>(cells.stride(2))};
}

/// \brief Runs kernel(c) for every zone of `box`, c its linear offset in fields laid out like
/// `layout`.
template <class Kernel>
struct AtOffset {
  Kernel kernel;
  ConstCells layout;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    kernel(layout.offset(i, j, k));
  }
};
template <class Kernel>
void for_zones(const char* label, const Box& box, const ConstCells& layout, const Kernel& kernel) {
  for_each_cell(label, box, AtOffset<Kernel>{kernel, layout});
}

/// \brief Reduces kernel(c, value&) over the zones of `box` into `result`.
template <class Kernel>
struct AtOffsetReduce {
  Kernel kernel;
  ConstCells layout;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& value) const {
    kernel(layout.offset(i, j, k), value);
  }
};
template <class Kernel, class Result>
void reduce_zones(const char* label, const Box& box, const ConstCells& layout, const Kernel& kernel,
                  Result&& result) {
  reduce_cells(label, box, AtOffsetReduce<Kernel>{kernel, layout}, std::forward<Result>(result));
}

} // namespace hcart::zeus
