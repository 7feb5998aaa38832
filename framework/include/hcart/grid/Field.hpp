// hcart::Field<T>: a named Kokkos view of one rank's block, halos included.
//
//   hcart::Field<double> u = grid.make_field<double>("u");   // zero-initialised
//   hcart::for_each_cell("update", grid.owned_box(), functor);
//
// Extents are the local sizes plus twice the halo width in each direction; local index 0 is
// the first halo layer and owned cells are [h_i, h_i + n_i). The view lives in the
// execution space's memory (device memory under CUDA; hcart/core/ExecutionModel.hpp): read
// it on the host through hcart::host_copy (below) or Kokkos::create_mirror_view_and_copy. The
// layout is LayoutRight (k fastest), and the policies a Grid hands out iterate k fastest too, so a
// loop walks memory contiguously (measured in docs/benchmarks.md).
#pragma once

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/impl/core/HostAccessCheck.hpp>

#include <Kokkos_Core.hpp>

namespace hcart {

template <class T>
using Field = Kokkos::View<T***, Kokkos::LayoutRight, MemorySpace>;

/// \brief A field of several values per cell (an LBM's distributions, a velocity's three
/// components), indexed (c, i, j, k): component c is a block shaped like a Field, the
/// components one after another (AMReX's MultiFab keeps its components the same way). A
/// loop along k then reads each component contiguously, the halo exchange sends all
/// components in one message per neighbour, and component(f, c) is a Field of the same
/// memory, for everything that takes one.
///
///   hcart::ComponentField<double> f = grid.make_components<double>("f", 19);
///   f(c, i, j, k) = ...;   // or hcart::accessor(f)(c, i, j, k) in kernels
template <class T>
using ComponentField = Kokkos::View<T****, Kokkos::LayoutRight, MemorySpace>;

/// \brief Component `c` of `field` as a Field: the same memory, no copy.
template <class T>
Field<T> component(const ComponentField<T>& field, int c) {
  return Kokkos::subview(field, c, Kokkos::ALL, Kokkos::ALL, Kokkos::ALL);
}

/// \brief A host view shaped like `view`, to fill on the host and copy into it with
/// Kokkos::deep_copy (or to copy it into and read): Kokkos::create_mirror_view, which on a
/// host build is the view itself, except while the host-access check runs
/// (HCART_CHECK_HOST_ACCESS, docs/testing.md), where it is always a separate allocation.
template <class View>
typename View::HostMirror host_mirror(const View& view) {
  if (impl::host_access_check_on()) return Kokkos::create_mirror(view);
  return Kokkos::create_mirror_view(view);
}

/// \brief host_mirror(view) holding view's values (after a fence).
template <class View>
typename View::HostMirror host_copy(const View& view) {
  const typename View::HostMirror mirror = host_mirror(view);
  Kokkos::deep_copy(mirror, view);
  return mirror;
}

/// \brief The 3D policy type of hcart's grids: last index fastest, matching Field's layout.
using GridPolicy =
    Kokkos::MDRangePolicy<ExecutionSpace,
                          Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                          Kokkos::IndexType<int>>;

} // namespace hcart
