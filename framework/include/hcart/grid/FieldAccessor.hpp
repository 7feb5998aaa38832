// hcart::FieldAccessor<T>: a field as a kernel reads it cheaply — its data pointer and
// strides, indexed (i, j, k) or by a cell's linear offset, bounds-checked in debug builds
// (AMReX's Array4 is the model); ComponentAccessor<T> does the same for a field with
// components, (c, i, j, k).
//
//   struct Smooth {
//     hcart::FieldAccessor<const double> u;    // hcart::accessor(field) converts
//     hcart::FieldAccessor<double> v;
//     KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
//       v(i, j, k) = 0.5 * (u(i, j, k - 1) + u(i, j, k + 1));
//     }
//   };
//   hcart::for_each_cell("smooth", grid.owned_box(), Smooth{hcart::accessor(u),
//   hcart::accessor(v)});
//
//   const long c = u.offset(i, j, k);          // or step through linear offsets:
//   u[c + u.stride(0)];                        //   the cell at i + 1
//
// The strides come from the field's view, so a kernel written with them holds for the
// layout the view has; the contiguous direction's stride is a compile-time 1 (LayoutRight,
// hcart's Field: k; LayoutLeft: i), so a loop along it indexes as cheaply as a raw pointer
// does. In builds without NDEBUG every index is checked against the extents (a message and
// Kokkos::abort on a bad one), on the host and on the device.
#pragma once

#include <hcart/grid/Field.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <type_traits>

namespace hcart {

template <class T, class Layout> // Layout's default: hcart/grid/Field.hpp
class FieldAccessor {
  static_assert(std::is_same<Layout, Kokkos::LayoutRight>::value ||
                    std::is_same<Layout, Kokkos::LayoutLeft>::value,
                "hcart::FieldAccessor: LayoutRight or LayoutLeft");

public:
  using value_type = T;
  /// \brief The direction whose stride is 1.
  static constexpr int contiguous = std::is_same<Layout, Kokkos::LayoutRight>::value ? 2 : 0;

  FieldAccessor() = default;
  /// \brief The accessor of a rank-3 view of `Layout` whose values convert to T& (a
  /// Field<double> gives FieldAccessor<double> or FieldAccessor<const double>).
  template <class View, class = std::enable_if_t<Kokkos::is_view<View>::value>>
  FieldAccessor(const View& view) // NOLINT(google-explicit-constructor): a view converts
      : m_data(view.data()) {
    static_assert(View::rank == 3, "hcart::FieldAccessor: a rank-3 view");
    static_assert(std::is_same<typename View::array_layout, Layout>::value,
                  "hcart::FieldAccessor: the view's layout must be the accessor's");
    for (int d = 0; d < 3; ++d) {
      m_stride[d] = static_cast<std::int64_t>(view.stride(d));
      m_extent[d] = static_cast<int>(view.extent(d));
    }
  }
  /// \brief An accessor of `data` with the strides (elements; the contiguous direction's
  /// is taken as 1) and extents given.
  KOKKOS_INLINE_FUNCTION FieldAccessor(T* data, const std::int64_t (&stride)[3],
                                       const int (&extent)[3])
      : m_data(data) {
    for (int d = 0; d < 3; ++d) {
      m_stride[d] = stride[d];
      m_extent[d] = extent[d];
    }
  }
  /// \brief A read-only accessor of the same data.
  template <class U,
            class = std::enable_if_t<std::is_same<const U, T>::value && !std::is_same<U, T>::value>>
  KOKKOS_INLINE_FUNCTION FieldAccessor(const FieldAccessor<U, Layout>& other) // NOLINT
      : m_data(other.data()) {
    for (int d = 0; d < 3; ++d) {
      m_stride[d] = other.stride(d);
      m_extent[d] = other.extent(d);
    }
  }

  /// \brief Elements between neighbouring cells in direction `d`.
  KOKKOS_FORCEINLINE_FUNCTION std::int64_t stride(int d) const {
    return d == contiguous ? 1 : m_stride[d];
  }
  /// \brief Cells in direction `d`, halos included.
  KOKKOS_FORCEINLINE_FUNCTION int extent(int d) const { return m_extent[d]; }
  KOKKOS_FORCEINLINE_FUNCTION T* data() const { return m_data; }
  /// \brief Elements from the first cell to the last, plus one.
  KOKKOS_FORCEINLINE_FUNCTION std::int64_t span() const {
    return offset(m_extent[0] - 1, m_extent[1] - 1, m_extent[2] - 1) + 1;
  }

  /// \brief The linear offset of cell (i, j, k).
  KOKKOS_FORCEINLINE_FUNCTION std::int64_t offset(int i, int j, int k) const {
    if constexpr (contiguous == 2) {
      return i * m_stride[0] + j * m_stride[1] + k;
    } else {
      return i + j * m_stride[1] + k * m_stride[2];
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int i, int j, int k) const {
#ifndef NDEBUG
    if (i < 0 || j < 0 || k < 0 || i >= m_extent[0] || j >= m_extent[1] || k >= m_extent[2]) {
      printf("hcart::FieldAccessor: cell (%d, %d, %d) outside the extents %dx%dx%d\n", i, j, k,
             m_extent[0], m_extent[1], m_extent[2]);
      Kokkos::abort("hcart::FieldAccessor: index out of bounds");
    }
#endif
    return m_data[offset(i, j, k)];
  }
  /// \brief The cell at linear offset `c` (offset() of a cell, plus or minus strides).
  KOKKOS_FORCEINLINE_FUNCTION T& operator[](std::int64_t c) const {
#ifndef NDEBUG
    if (c < 0 || c >= span()) {
      printf("hcart::FieldAccessor: linear offset %lld outside [0, %lld)\n",
             static_cast<long long>(c), static_cast<long long>(span()));
      Kokkos::abort("hcart::FieldAccessor: offset out of bounds");
    }
#endif
    return m_data[c];
  }

private:
  T* m_data = nullptr;
  std::int64_t m_stride[3] = {0, 0, 0};
  int m_extent[3] = {0, 0, 0};
};

/// \brief A field with components (ComponentField) as a kernel reads it: (c, i, j, k), or
/// one linear offset of a cell for all components, `a(c, cell)`; component(c) is the
/// FieldAccessor of one component. Bounds-checked in builds without NDEBUG.
///
///   const std::int64_t cell = f.offset(i, j, k);
///   for (int c = 0; c < 19; ++c) sum += f(c, cell - e[c]);   // e[c]: a neighbour's offset
template <class T>
class ComponentAccessor {
public:
  using value_type = T;

  ComponentAccessor() = default;
  /// \brief The accessor of a rank-4 LayoutRight view (c, i, j, k).
  template <class View, class = std::enable_if_t<Kokkos::is_view<View>::value>>
  ComponentAccessor(const View& view) // NOLINT(google-explicit-constructor): a view converts
      : m_data(view.data()), m_components(static_cast<int>(view.extent(0))),
        m_component_stride(static_cast<std::int64_t>(view.stride(0))) {
    static_assert(View::rank == 4, "hcart::ComponentAccessor: a rank-4 view (c, i, j, k)");
    static_assert(std::is_same<typename View::array_layout, Kokkos::LayoutRight>::value,
                  "hcart::ComponentAccessor: a LayoutRight view");
    for (int d = 0; d < 3; ++d) {
      m_stride[d] = static_cast<std::int64_t>(view.stride(d + 1));
      m_extent[d] = static_cast<int>(view.extent(d + 1));
    }
  }
  /// \brief A read-only accessor of the same data.
  template <class U,
            class = std::enable_if_t<std::is_same<const U, T>::value && !std::is_same<U, T>::value>>
  KOKKOS_INLINE_FUNCTION ComponentAccessor(const ComponentAccessor<U>& other) // NOLINT
      : m_data(other.data()), m_components(other.components()),
        m_component_stride(other.component_stride()) {
    for (int d = 0; d < 3; ++d) {
      m_stride[d] = other.stride(d);
      m_extent[d] = other.extent(d);
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION T* data() const { return m_data; }
  KOKKOS_FORCEINLINE_FUNCTION int components() const { return m_components; }
  /// \brief Elements between a cell's value in component c and in c + 1.
  KOKKOS_FORCEINLINE_FUNCTION std::int64_t component_stride() const { return m_component_stride; }
  /// \brief Elements between neighbouring cells in direction `d` (k: 1).
  KOKKOS_FORCEINLINE_FUNCTION std::int64_t stride(int d) const { return d == 2 ? 1 : m_stride[d]; }
  /// \brief Cells in direction `d`, halos included.
  KOKKOS_FORCEINLINE_FUNCTION int extent(int d) const { return m_extent[d]; }
  /// \brief The linear offset of cell (i, j, k) within a component.
  KOKKOS_FORCEINLINE_FUNCTION std::int64_t offset(int i, int j, int k) const {
    return i * m_stride[0] + j * m_stride[1] + k;
  }
  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int c, int i, int j, int k) const {
#ifndef NDEBUG
    if (c < 0 || c >= m_components || i < 0 || j < 0 || k < 0 || i >= m_extent[0] ||
        j >= m_extent[1] || k >= m_extent[2]) {
      printf("hcart::ComponentAccessor: component %d of cell (%d, %d, %d) outside %d x %dx%dx%d\n",
             c, i, j, k, m_components, m_extent[0], m_extent[1], m_extent[2]);
      Kokkos::abort("hcart::ComponentAccessor: index out of bounds");
    }
#endif
    return m_data[c * m_component_stride + offset(i, j, k)];
  }
  /// \brief Component `c` of the cell at linear offset `cell` (offset() of a cell, plus or
  /// minus strides).
  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int c, std::int64_t cell) const {
#ifndef NDEBUG
    const std::int64_t span = offset(m_extent[0] - 1, m_extent[1] - 1, m_extent[2] - 1) + 1;
    if (c < 0 || c >= m_components || cell < 0 || cell >= span) {
      printf("hcart::ComponentAccessor: component %d of linear offset %lld outside %d x [0, "
             "%lld)\n",
             c, static_cast<long long>(cell), m_components, static_cast<long long>(span));
      Kokkos::abort("hcart::ComponentAccessor: offset out of bounds");
    }
#endif
    return m_data[c * m_component_stride + cell];
  }
  /// \brief Component `c` as a FieldAccessor.
  KOKKOS_INLINE_FUNCTION FieldAccessor<T> component(int c) const {
    return FieldAccessor<T>(m_data + c * m_component_stride, m_stride, m_extent);
  }

private:
  T* m_data = nullptr;
  int m_components = 0;
  std::int64_t m_component_stride = 0;
  std::int64_t m_stride[3] = {0, 0, 1};
  int m_extent[3] = {0, 0, 0};
};

/// \brief The accessor of a field (FieldTraits<F>::accessor_type): FieldAccessor<T> for a
/// Field<T>, ComponentAccessor<T> for a ComponentField<T>.
template <class F, class = std::enable_if_t<is_field_v<F>>>
typename FieldTraits<F>::accessor_type accessor(const F& field) {
  return typename FieldTraits<F>::accessor_type(field);
}

} // namespace hcart
