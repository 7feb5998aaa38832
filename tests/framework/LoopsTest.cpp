// hcart::Box and the loops over boxes (hcart/grid/Loops.hpp): box arithmetic, and every
// cell of a box visited exactly once by for_each_cell, reductions over it, empty boxes.
#include <hcart/grid/Box.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/FieldAccessor.hpp>
#include <hcart/grid/Loops.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace {
// Adds one to every cell it visits.
struct Touch {
  hcart::Field<int> visits;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { visits(i, j, k) += 1; }
};
// The sum of a value that depends on the cell, and the cell count.
struct SumOfIndices {
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, long long& sum) const {
    sum += 10000LL * i + 100LL * j + k;
  }
};
struct Largest {
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, int& worst) const {
    const int v = i * j - k;
    worst = v > worst ? v : worst;
  }
};
} // namespace

TEST(Box, ExtentsCellsAndShifts) {
  const hcart::Box b = hcart::make_box({1, 2, 3}, {4, 6, 8});
  EXPECT_EQ(b.extent(0), 3);
  EXPECT_EQ(b.extent(1), 4);
  EXPECT_EQ(b.extent(2), 5);
  EXPECT_EQ(b.cells(), 60);
  EXPECT_FALSE(b.empty());
  EXPECT_TRUE(b.contains(1, 2, 3));
  EXPECT_FALSE(b.contains(4, 2, 3));
  const hcart::Box s = b.shifted(1, -2, 0);
  EXPECT_EQ(s, hcart::make_box({2, 0, 3}, {5, 4, 8}));
  EXPECT_NE(s, b);
  const hcart::Box inverted = hcart::make_box({3, 0, 0}, {1, 4, 4});
  EXPECT_EQ(inverted.extent(0), 0);
  EXPECT_TRUE(inverted.empty());
  EXPECT_EQ(inverted.cells(), 0);
}

TEST(Loops, EveryCellOfTheBoxOnceAndNothingElse) {
  const hcart::Field<int> visits("visits", 7, 9, 11);
  const hcart::Box box = hcart::make_box({1, 2, 0}, {6, 9, 10});
  hcart::for_each_cell("touch", box, Touch{visits});
  hcart::for_each_cell("nothing", hcart::make_box({3, 3, 3}, {3, 8, 8}), Touch{visits});
  const auto host = hcart::host_copy(visits);
  long wrong = 0;
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 9; ++j)
      for (int k = 0; k < 11; ++k)
        wrong += host(i, j, k) != (box.contains(i, j, k) ? 1 : 0);
  EXPECT_EQ(wrong, 0);
}

TEST(Loops, ReductionsOverABox) {
  const hcart::Box box = hcart::make_box({2, 1, 3}, {5, 4, 9});
  long long sum = 0, expected = 0;
  int largest = -1000000, expected_largest = -1000000;
  for (int i = 2; i < 5; ++i)
    for (int j = 1; j < 4; ++j)
      for (int k = 3; k < 9; ++k) {
        expected += 10000LL * i + 100LL * j + k;
        expected_largest = std::max(expected_largest, i * j - k);
      }
  hcart::reduce_cells("sum", box, SumOfIndices{}, sum);
  hcart::reduce_cells("max", box, Largest{}, Kokkos::Max<int>(largest));
  EXPECT_EQ(sum, expected);
  EXPECT_EQ(largest, expected_largest);
  // An empty box gives the reduction's identity.
  long long none = 123;
  hcart::reduce_cells("empty", hcart::make_box({2, 2, 2}, {2, 3, 3}), SumOfIndices{}, none);
  EXPECT_EQ(none, 0);
}

namespace {
// Every cell gets a value from its neighbours' initial values and its indices: any mix-up
// of cells between the patterns shows.
struct Mix {
  hcart::FieldAccessor<const double> u;
  hcart::FieldAccessor<double> v;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    v(i, j, k) =
        u(i - 1, j, k) * 0.5 + u(i, j + 1, k) / 3.0 - u(i, j, k - 1) + 1e-3 * (i + 2 * j + 3 * k);
  }
};
struct Ramp {
  hcart::Field<double> u;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    u(i, j, k) = 1.0 + 0.01 * i - 0.003 * j + 0.0007 * k * k;
  }
};
struct CellCount {
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, long long& sum) const {
    sum += 1 + i * 1000000LL + j * 1000LL + k;
  }
};
struct LargestValue {
  hcart::FieldAccessor<const double> v;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& worst) const {
    worst = v(i, j, k) > worst ? v(i, j, k) : worst;
  }
};
} // namespace

// The host pattern (rows with a loop along k) and the device pattern (a 3D policy) give the
// same bits for the same functor, in one binary, on every backend the suite runs.
TEST(Loops, HostRowsAndPortableGiveTheSameBits) {
  const hcart::Field<double> u("u", 9, 10, 13), rows("rows", 9, 10, 13), cells("cells", 9, 10, 13);
  hcart::for_each_cell("ramp", hcart::make_box({0, 0, 0}, {9, 10, 13}), Ramp{u});
  const hcart::Box box = hcart::make_box({1, 0, 1}, {9, 9, 12});
  hcart::for_each_cell("rows", box, Mix{hcart::accessor(u), hcart::accessor(rows)},
                       hcart::LoopPattern::HostRows);
  hcart::for_each_cell("cells", box, Mix{hcart::accessor(u), hcart::accessor(cells)},
                       hcart::LoopPattern::Portable);
  const auto a = hcart::host_copy(rows), b = hcart::host_copy(cells);
  long differ = 0, touched = 0;
  for (std::size_t c = 0; c < a.size(); ++c) {
    differ += std::memcmp(a.data() + c, b.data() + c, sizeof(double)) != 0;
    touched += a.data()[c] != 0.0;
  }
  EXPECT_EQ(differ, 0);
  EXPECT_EQ(touched, box.cells()) << "the rows pattern wrote outside the box or missed cells";
  long long sum_rows = 0, sum_cells = 0;
  hcart::reduce_cells("count", box, CellCount{}, sum_rows, hcart::LoopPattern::HostRows);
  hcart::reduce_cells("count", box, CellCount{}, sum_cells, hcart::LoopPattern::Portable);
  EXPECT_EQ(sum_rows, sum_cells);
  double max_rows = -1e300, max_cells = -1e300;
  hcart::reduce_cells("max", box, LargestValue{hcart::accessor(rows)},
                      Kokkos::Max<double>(max_rows), hcart::LoopPattern::HostRows);
  hcart::reduce_cells("max", box, LargestValue{hcart::accessor(cells)},
                      Kokkos::Max<double>(max_cells), hcart::LoopPattern::Portable);
  EXPECT_EQ(max_rows, max_cells);
}
