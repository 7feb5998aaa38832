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

#include <array>
#include <cstddef>
#include <type_traits>

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

/// \brief A profile along one direction (Grid::make_profile): a quantity that varies along
/// that direction only (a background state's vertical profile, a grid stretching), one value
/// per local index of the direction, halos included, indexed as the fields are.
template <class T>
using Profile = Kokkos::View<T*, MemorySpace>;

template <class T, class Layout = Kokkos::LayoutRight>
class FieldAccessor; // hcart/grid/FieldAccessor.hpp
template <class T>
class ComponentAccessor;

/// \brief What hcart knows of a field type, the one place a field type is described: every
/// function that takes a field (Grid::fits, accessor, the halo exchanger, the finite checks,
/// the boundary fills, the level moves, the field files) reads it through these. A field is
/// a number of components, each a Field<value_type> of the same memory; a new field type is
/// a new specialisation (design.md, "Adding a field type").
template <class F>
struct FieldTraits {
  static constexpr bool is_field = false;
};

/// \brief Field<T>: one component, itself.
template <class T>
struct FieldTraits<Field<T>> {
  static constexpr bool is_field = true;
  using value_type = T;
  using accessor_type = FieldAccessor<T>;
  /// Whether the type has a component index (its messages say how many).
  static constexpr bool has_components = false;
  static int components(const Field<T>&) noexcept { return 1; }
  /// Cells per direction, halos included.
  static std::array<std::size_t, 3> cells(const Field<T>& field) noexcept {
    return {field.extent(0), field.extent(1), field.extent(2)};
  }
  static Field<T> component(const Field<T>& field, int) { return field; }
};

/// \brief ComponentField<T>: extent(0) components, index (c, i, j, k).
template <class T>
struct FieldTraits<ComponentField<T>> {
  static constexpr bool is_field = true;
  using value_type = T;
  using accessor_type = ComponentAccessor<T>;
  static constexpr bool has_components = true;
  static int components(const ComponentField<T>& field) noexcept {
    return static_cast<int>(field.extent(0));
  }
  static std::array<std::size_t, 3> cells(const ComponentField<T>& field) noexcept {
    return {field.extent(1), field.extent(2), field.extent(3)};
  }
  static Field<T> component(const ComponentField<T>& field, int c) {
    return Kokkos::subview(field, c, Kokkos::ALL, Kokkos::ALL, Kokkos::ALL);
  }
};

/// \brief Whether F is one of hcart's field types (has a FieldTraits specialisation).
template <class F>
inline constexpr bool is_field_v = FieldTraits<F>::is_field;

/// \brief Component `c` of `field` as a Field: the same memory, no copy (a Field's only
/// component, 0, is itself).
template <class F, class = std::enable_if_t<is_field_v<F>>>
Field<typename FieldTraits<F>::value_type> component(const F& field, int c) {
  return FieldTraits<F>::component(field, c);
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
