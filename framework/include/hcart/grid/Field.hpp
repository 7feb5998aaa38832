// hcart::Field<T>: a named Kokkos view of one rank's block, halos included (DESIGN.md §5).
//
//   hcart::Field<double> u = grid.make_field<double>("u");   // zero-initialised
//   Kokkos::parallel_for("update", grid.owned_policy(),
//                        KOKKOS_LAMBDA(int i, int j, int k) { u(i, j, k) = 1.0; });
//
// Extents are the local sizes plus twice the halo width in each direction; local index 0 is
// the first halo layer and owned cells are [h_i, h_i + n_i). The layout is LayoutRight
// (k fastest), and the policies a Grid hands out iterate k fastest too, so a sweep walks
// memory contiguously (measured in docs/benchmarks.md).
#pragma once

#include <Kokkos_Core.hpp>

namespace hcart {

/// \brief Where fields live: the default execution space's memory.
using MemorySpace = Kokkos::DefaultExecutionSpace::memory_space;
/// \brief Where grid policies run.
using ExecutionSpace = Kokkos::DefaultExecutionSpace;

template <class T>
using Field = Kokkos::View<T***, Kokkos::LayoutRight, MemorySpace>;

/// \brief The 3D policy type of hcart's grids: last index fastest, matching Field's layout.
using GridPolicy =
    Kokkos::MDRangePolicy<ExecutionSpace,
                          Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                          Kokkos::IndexType<int>>;

} // namespace hcart
