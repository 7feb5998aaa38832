// hcart::FieldAccessor: the same cells as the view it comes from, in both layouts, by
// (i, j, k) and by linear offsets stepped with the strides; read-only conversion; in a
// kernel on every backend; the same for fields with components (ComponentAccessor).
#include <hcart/grid/Field.hpp>
#include <hcart/grid/FieldAccessor.hpp>
#include <hcart/grid/Loops.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <type_traits>

namespace {
// Through an accessor: w(i, j, k) = u(i - 1, j, k) + u at the next k by linear offset.
struct Neighbours {
  hcart::FieldAccessor<const double> u;
  hcart::FieldAccessor<double> w;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const long c = u.offset(i, j, k);
    w(i, j, k) = u(i - 1, j, k) + u[c + u.stride(2)];
  }
};
struct Fill {
  hcart::Field<double> u;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    u(i, j, k) = 10000.0 * i + 100.0 * j + k;
  }
};
} // namespace

TEST(FieldAccessor, TheViewsCellsInBothLayouts) {
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> right("right", 4, 5, 6);
  Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace> left("left", 4, 5, 6);
  const hcart::FieldAccessor<double> r(right);
  const hcart::FieldAccessor<double, Kokkos::LayoutLeft> l(left);
  EXPECT_EQ(r.stride(2), 1);
  EXPECT_EQ(l.stride(0), 1);
  long wrong = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 6; ++k) {
        wrong += &r(i, j, k) != &right(i, j, k);
        wrong += &l(i, j, k) != &left(i, j, k);
        wrong += &r[r.offset(i, j, k)] != &right(i, j, k);
        for (int d = 0; d < 3; ++d) {
          const int step[3] = {d == 0, d == 1, d == 2};
          if (i + step[0] < 4 && j + step[1] < 5 && k + step[2] < 6) {
            wrong += &r[r.offset(i, j, k) + r.stride(d)] !=
                     &right(i + step[0], j + step[1], k + step[2]);
            wrong +=
                &l[l.offset(i, j, k) + l.stride(d)] != &left(i + step[0], j + step[1], k + step[2]);
          }
        }
      }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(r.span(), static_cast<std::int64_t>(right.span()));
  EXPECT_EQ(r.extent(1), 5);
  const hcart::FieldAccessor<const double> read_only = r;
  EXPECT_EQ(read_only.data(), right.data());
  EXPECT_EQ(read_only.stride(0), r.stride(0));
}

TEST(FieldAccessor, InAKernel) {
  const hcart::Field<double> u("u", 6, 7, 8), w("w", 6, 7, 8);
  hcart::for_each_cell("fill", hcart::make_box({0, 0, 0}, {6, 7, 8}), Fill{u});
  const hcart::Box inner = hcart::make_box({1, 0, 0}, {6, 7, 7});
  hcart::for_each_cell("neighbours", inner, Neighbours{hcart::accessor(u), hcart::accessor(w)});
  const auto hu = hcart::host_copy(u), hw = hcart::host_copy(w);
  long wrong = 0;
  for (int i = 1; i < 6; ++i)
    for (int j = 0; j < 7; ++j)
      for (int k = 0; k < 7; ++k)
        wrong += hw(i, j, k) != hu(i - 1, j, k) + hu(i, j, k + 1);
  EXPECT_EQ(wrong, 0);
}

// A field with components: the accessor's (c, i, j, k), (c, offset) and component(c) are the
// view's cells, and component(f, c) is a Field of the same memory.
TEST(ComponentAccessor, TheViewsCells) {
  Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace> f("f", 3, 4, 5, 6);
  const hcart::ComponentAccessor<double> a(f);
  EXPECT_EQ(a.components(), 3);
  EXPECT_EQ(a.component_stride(), 4 * 5 * 6);
  EXPECT_EQ(a.stride(2), 1);
  long wrong = 0;
  for (int c = 0; c < 3; ++c) {
    const hcart::FieldAccessor<double> one = a.component(c);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j)
        for (int k = 0; k < 6; ++k) {
          wrong += &a(c, i, j, k) != &f(c, i, j, k);
          wrong += &a(c, a.offset(i, j, k)) != &f(c, i, j, k);
          wrong += &one(i, j, k) != &f(c, i, j, k);
          if (i + 1 < 4) wrong += &a(c, a.offset(i, j, k) + a.stride(0)) != &f(c, i + 1, j, k);
        }
  }
  EXPECT_EQ(wrong, 0);
  const hcart::ComponentAccessor<const double> read_only = a;
  EXPECT_EQ(read_only.data(), f.data());
}

namespace {
// w(i, j, k) = the sum of u's components at (i, j, k - 1), through a component accessor.
struct SumComponents {
  hcart::ComponentAccessor<const double> u;
  hcart::FieldAccessor<double> w;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const std::int64_t cell = u.offset(i, j, k) - u.stride(2);
    double sum = 0.0;
    for (int c = 0; c < u.components(); ++c)
      sum += u(c, cell);
    w(i, j, k) = sum;
  }
};
} // namespace

TEST(ComponentAccessor, InAKernel) {
  const hcart::ComponentField<double> u("u", 4, 6, 7, 8);
  const hcart::Field<double> w("w", 6, 7, 8);
  for (int c = 0; c < 4; ++c) {
    const hcart::Field<double> uc = hcart::component(u, c);
    EXPECT_EQ(uc.data(), u.data() + c * u.stride(0));
    hcart::for_each_cell("fill", hcart::make_box({0, 0, 0}, {6, 7, 8}), Fill{uc});
  }
  hcart::for_each_cell("sum", hcart::make_box({0, 0, 1}, {6, 7, 8}),
                       SumComponents{hcart::accessor(u), hcart::accessor(w)});
  const auto hw = hcart::host_copy(w);
  long wrong = 0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 7; ++j)
      for (int k = 1; k < 8; ++k)
        wrong += hw(i, j, k) != 4 * (10000.0 * i + 100.0 * j + (k - 1));
  EXPECT_EQ(wrong, 0);
}

// FieldTraits, the one description of each field type: its components are the view's own
// memory (checked against the view's addresses), its cells the view's extents, and what is
// not a field is not one.
TEST(FieldTraits, DescribeEachFieldType) {
  using F = hcart::Field<float>;
  using C = hcart::ComponentField<double>;
  static_assert(hcart::is_field_v<F> && hcart::is_field_v<C>);
  static_assert(hcart::is_field_v<hcart::Field<const double>>);
  static_assert(!hcart::is_field_v<Kokkos::View<double**>> && !hcart::is_field_v<double>);
  static_assert(std::is_same_v<hcart::FieldTraits<F>::accessor_type, hcart::FieldAccessor<float>>);
  static_assert(
      std::is_same_v<hcart::FieldTraits<C>::accessor_type, hcart::ComponentAccessor<double>>);
  static_assert(std::is_same_v<decltype(hcart::accessor(C())), hcart::ComponentAccessor<double>>);

  const F u("u", 4, 5, 6);
  const C f("f", 3, 4, 5, 6);
  EXPECT_EQ(hcart::FieldTraits<F>::components(u), 1);
  EXPECT_EQ(hcart::FieldTraits<C>::components(f), 3);
  const std::array<std::size_t, 3> cells{4, 5, 6};
  EXPECT_EQ(hcart::FieldTraits<F>::cells(u), cells);
  EXPECT_EQ(hcart::FieldTraits<C>::cells(f), cells);
  EXPECT_EQ(hcart::component(u, 0).data(), u.data());
  // Addresses from the views' strides: a device view's elements are not read on the host.
  const auto at = [](const auto& view, auto... index) {
    std::size_t offset = 0, d = 0;
    ((offset += static_cast<std::size_t>(index) * view.stride(d++)), ...);
    return view.data() + offset;
  };
  for (int c = 0; c < 3; ++c) {
    const hcart::Field<double> part = hcart::component(f, c);
    EXPECT_EQ(at(part, 1, 2, 3), at(f, c, 1, 2, 3));
    EXPECT_EQ(at(part, 3, 4, 5), at(f, c, 3, 4, 5));
  }
}
