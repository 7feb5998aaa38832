// hcart::Box and the loops over boxes (hcart/grid/Loops.hpp): box arithmetic, and every
// cell of a box visited exactly once by for_each_cell, reductions over it, empty boxes.
#include <hcart/core/Error.hpp>
#include <hcart/grid/Box.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/FieldAccessor.hpp>
#include <hcart/grid/Loops.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

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

// The device tiles: a warp's threads on consecutive cells of a row, no idle threads on thin
// boxes, at most the block's threads (worked out by hand from the rule in DeviceLaunch.hpp).
TEST(Loops, DeviceTilesGiveAWarpARow) {
  const hcart::impl::DeviceLaunch launch =
      hcart::impl::DeviceLaunch::default_tiles(); // 128 threads, 64 along k
  auto tiles = [&](std::array<int, 3> n) {
    return hcart::impl::device_tiles(hcart::make_box({0, 0, 0}, n), launch);
  };
  EXPECT_EQ(tiles({512, 512, 512}), (std::array<int, 3>{1, 2, 64}));
  EXPECT_EQ(tiles({512, 512, 1}), (std::array<int, 3>{1, 128, 1})); // a k face
  EXPECT_EQ(tiles({1, 512, 512}), (std::array<int, 3>{1, 2, 64}));  // an i face
  EXPECT_EQ(tiles({512, 1, 512}), (std::array<int, 3>{2, 1, 64}));  // a j face
  EXPECT_EQ(tiles({3, 5, 7}), (std::array<int, 3>{2, 8, 8}));       // whole powers of two
  EXPECT_EQ(tiles({200, 4, 4}), (std::array<int, 3>{8, 4, 4}));
  EXPECT_EQ(tiles({0, 0, 0}), (std::array<int, 3>{1, 1, 1})); // empty
  hcart::impl::DeviceLaunch small = hcart::impl::DeviceLaunch::default_tiles();
  small.threads = 64;
  small.k_tile = 16;
  EXPECT_EQ(hcart::impl::device_tiles(hcart::make_box({0, 0, 0}, {9, 9, 100}), small),
            (std::array<int, 3>{1, 4, 16}));
}

TEST(Loops, DeviceLaunchReadsItsSetting) {
  using hcart::impl::DeviceLaunch;
  using hcart::impl::parse_device_launch;
  // The default: columns 128/32/8 (measured fastest on an H200).
  EXPECT_EQ(hcart::impl::to_string(parse_device_launch(nullptr)), "columns:128/32/8");
  EXPECT_EQ(hcart::impl::to_string(parse_device_launch("")), "columns:128/32/8");
  EXPECT_EQ(parse_device_launch("kokkos").shape, DeviceLaunch::Shape::KokkosTiles);
  const DeviceLaunch t = parse_device_launch("tiles:256/32");
  EXPECT_EQ(t.shape, DeviceLaunch::Shape::Tiles);
  EXPECT_EQ(t.threads, 256);
  EXPECT_EQ(t.k_tile, 32);
  const DeviceLaunch c = parse_device_launch("columns:128/32/16");
  EXPECT_EQ(c.shape, DeviceLaunch::Shape::Columns);
  EXPECT_EQ(c.threads, 128);
  EXPECT_EQ(c.k_tile, 32);
  EXPECT_EQ(c.cells, 16);
  // Each setting's text reads back as itself.
  for (const char* text : {"tiles:128/64", "kokkos", "columns:32/32/1", "columns:256/64/1024"})
    EXPECT_EQ(hcart::impl::to_string(parse_device_launch(text)), text);
  // The former variable's form.
  const DeviceLaunch old = parse_device_launch("128/32", true);
  EXPECT_EQ(old.shape, DeviceLaunch::Shape::Tiles);
  EXPECT_EQ(old.k_tile, 32);
  for (const char* bad : {"256/64",
                          "tiles:256",
                          "tiles:256/",
                          "tiles:/64",
                          "tiles:100/64",
                          "tiles:256/128",
                          "tiles:2048/64",
                          "tiles:16/16",
                          "tiles:32/64",
                          "tiles:256/64x",
                          "abc",
                          "tiles:256/-4",
                          "flat:4",
                          "columns:128/32",
                          "columns:128/32/0",
                          "columns:128/32/2000",
                          "columns:100/32/8",
                          "columns:128/128/8",
                          "columns:128/32/8/1",
                          "Tiles:128/64"}) {
    try {
      parse_device_launch(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const hcart::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("HCART_DEVICE_LAUNCH='") + bad + "'"),
                std::string::npos)
          << e.what();
    }
  }
  for (const char* bad : {"256", "256/", "/64", "100/64", "256/128", "abc", "columns:128/32/8"}) {
    try {
      parse_device_launch(bad, true);
      ADD_FAILURE() << "accepted '" << bad << "' as HCART_DEVICE_TILES";
    } catch (const hcart::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("HCART_DEVICE_TILES='") + bad + "'"),
                std::string::npos)
          << e.what();
    }
  }
}

// Every launch shape on boxes of every kind (whole fields, faces of each direction, odd
// shapes smaller and larger than a tile): every cell once and nothing else, a sum equal to its
// closed form and a maximum equal to the one found by hand. Run on the host here (each shape
// is a plain Kokkos range or policy), on a GPU by the suite there.
TEST(Loops, EveryLaunchShapeVisitsEveryCellOnce) {
  using hcart::impl::parse_device_launch;
  const hcart::Field<int> visits("visits", 9, 70, 150);
  const hcart::Box boxes[] = {
      hcart::make_box({0, 0, 0}, {9, 70, 150}), hcart::make_box({4, 0, 0}, {5, 70, 150}),
      hcart::make_box({0, 3, 0}, {9, 4, 150}),  hcart::make_box({0, 0, 149}, {9, 70, 150}),
      hcart::make_box({1, 2, 3}, {8, 67, 133}), hcart::make_box({2, 5, 7}, {3, 6, 8}),
      hcart::make_box({0, 1, 1}, {9, 33, 65})};
  for (const char* shape :
       {"columns:128/32/8", "columns:128/32/1", "columns:128/64/4", "columns:32/32/7",
        "columns:32/1/3", "columns:1024/64/1024", "tiles:128/64", "tiles:32/8", "kokkos"}) {
    const hcart::impl::DeviceLaunch launch = parse_device_launch(shape);
    for (const hcart::Box& box : boxes) {
      Kokkos::deep_copy(visits, 0);
      hcart::impl::for_each_cell_as("touch", box, Touch{visits}, launch);
      const auto host = hcart::host_copy(visits);
      long wrong = 0;
      long long expected = 0;
      int expected_largest = -1000000;
      for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 70; ++j)
          for (int k = 0; k < 150; ++k) {
            wrong += host(i, j, k) != (box.contains(i, j, k) ? 1 : 0);
            if (box.contains(i, j, k)) {
              expected += 10000LL * i + 100LL * j + k;
              expected_largest = std::max(expected_largest, i * j - k);
            }
          }
      const std::string where = std::string(shape) + ", box " + std::to_string(box.extent(0)) +
                                "x" + std::to_string(box.extent(1)) + "x" +
                                std::to_string(box.extent(2));
      EXPECT_EQ(wrong, 0) << where;
      // Split into launches of at most 5000 work items (slabs along i; a plane of more: the
      // 3D policy), as a box of 2^31 items or more is.
      Kokkos::deep_copy(visits, 0);
      hcart::impl::for_each_cell_as("touch", box, Touch{visits}, launch, 5000);
      const auto split = hcart::host_copy(visits);
      long wrong_split = 0;
      for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 70; ++j)
          for (int k = 0; k < 150; ++k)
            wrong_split += split(i, j, k) != (box.contains(i, j, k) ? 1 : 0);
      EXPECT_EQ(wrong_split, 0) << where << ", in launches of 5000 items";
      long long sum = 0;
      int largest = -1000000;
      hcart::impl::reduce_cells_as("sum", box, SumOfIndices{}, sum, launch);
      hcart::impl::reduce_cells_as("max", box, Largest{}, Kokkos::Max<int>(largest), launch);
      EXPECT_EQ(sum, expected) << where;
      EXPECT_EQ(largest, expected_largest) << where;
    }
  }
}

// The work items a launch makes: the count worked out by hand, and a box beyond 2^31 items
// (counted, not run) that the launcher must split.
TEST(Loops, LaunchShapesCountTheirWorkItems) {
  using hcart::impl::cell_items;
  using hcart::impl::parse_device_launch;
  const hcart::Box box = hcart::make_box({0, 0, 0}, {10, 70, 150});
  // Columns 128/32/4: tiles of 4 (j) x 32 (k); 3 slabs of 4, 18 x 5 tiles.
  EXPECT_EQ(cell_items(box, parse_device_launch("columns:128/32/4")).items, 3 * 18 * 5 * 128);
  // A thin box: 1 slab; tiles of 128 along j (k is 1 cell), 1 x 1 tiles.
  EXPECT_EQ(
      cell_items(hcart::make_box({0, 0, 5}, {10, 70, 6}), parse_device_launch("columns:128/32/16"))
          .items,
      128);
  EXPECT_EQ(
      cell_items(hcart::make_box({0, 0, 0}, {0, 70, 150}), parse_device_launch("columns:128/32/4"))
          .items,
      0);
  const hcart::Box huge = hcart::make_box({0, 0, 0}, {2048, 2048, 1024});
  EXPECT_GT(cell_items(huge, parse_device_launch("columns:128/32/1")).items,
            hcart::impl::kMostItems);
}

// The setting used by the launchers: set_device_launch replaces it and gives the one before.
TEST(Loops, DeviceLaunchCanBeSetForBenchmarks) {
  const hcart::impl::DeviceLaunch before =
      hcart::impl::set_device_launch(hcart::impl::parse_device_launch("tiles:256/32"));
  EXPECT_EQ(hcart::impl::to_string(hcart::impl::device_launch()), "tiles:256/32");
  hcart::impl::set_device_launch(before);
  EXPECT_EQ(hcart::impl::to_string(hcart::impl::device_launch()), hcart::impl::to_string(before));
}

// Boxes of every shape the exchanger and the kernels use, through the portable pattern (the
// device tiles on a GPU): every cell once, and a reduction equal to its closed form.
TEST(Loops, EveryCellOnceOnFacesAndOddShapes) {
  const hcart::Field<int> visits("visits", 9, 70, 150);
  const hcart::Box boxes[] = {
      hcart::make_box({0, 0, 0}, {9, 70, 150}), hcart::make_box({4, 0, 0}, {5, 70, 150}),
      hcart::make_box({0, 3, 0}, {9, 4, 150}), hcart::make_box({0, 0, 149}, {9, 70, 150}),
      hcart::make_box({1, 2, 3}, {8, 67, 133})};
  for (const hcart::Box& box : boxes) {
    Kokkos::deep_copy(visits, 0);
    hcart::for_each_cell("touch", box, Touch{visits}, hcart::LoopPattern::Portable);
    const auto host = hcart::host_copy(visits);
    long wrong = 0;
    for (int i = 0; i < 9; ++i)
      for (int j = 0; j < 70; ++j)
        for (int k = 0; k < 150; ++k)
          wrong += host(i, j, k) != (box.contains(i, j, k) ? 1 : 0);
    EXPECT_EQ(wrong, 0) << "box of " << box.extent(0) << "x" << box.extent(1) << "x"
                        << box.extent(2);
    long long expected = 0;
    for (int i = box.lo[0]; i < box.hi[0]; ++i)
      for (int j = box.lo[1]; j < box.hi[1]; ++j)
        for (int k = box.lo[2]; k < box.hi[2]; ++k)
          expected += 10000LL * i + 100LL * j + k;
    long long sum = 0;
    hcart::reduce_cells("sum", box, SumOfIndices{}, sum, hcart::LoopPattern::Portable);
    EXPECT_EQ(sum, expected);
  }
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

namespace {
// Mix without the k neighbour (one cell in k).
struct Plane {
  hcart::FieldAccessor<const double> u;
  hcart::FieldAccessor<double> v;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    v(i, j, k) = u(i - 1, j, k) * 0.5 + u(i, j + 1, k) / 3.0 - u(i + 1, j - 1, k) +
                 1e-3 * (i + 2 * j + 3 * k);
  }
};
} // namespace

// 2-D and 1-D boxes: one cell in k runs its host rows along j, one cell in j and k along i
// (row_direction), other thin boxes along their longest direction; every cell of each box
// exactly once, the same bits as the 3D policy, and the same sums, on fields of one cell in
// the thin directions (as a 2-D or 1-D mesh has) and on thin 3-D boxes.
TEST(Loops, RowsOfTwoAndOneDimensionalBoxes) {
  EXPECT_EQ(hcart::row_direction(hcart::make_box({0, 0, 0}, {40, 40, 1})), 1);
  EXPECT_EQ(hcart::row_direction(hcart::make_box({0, 0, 0}, {40, 1, 40})), 2);
  EXPECT_EQ(hcart::row_direction(hcart::make_box({0, 0, 0}, {40, 1, 1})), 0);
  EXPECT_EQ(hcart::row_direction(hcart::make_box({0, 0, 0}, {40, 8, 1})), 0);
  EXPECT_EQ(hcart::row_direction(hcart::make_box({0, 0, 0}, {40, 40, 3})), 1);
  EXPECT_EQ(hcart::row_direction(hcart::make_box({0, 0, 0}, {8, 8, 8})), 2);
  EXPECT_EQ(hcart::row_direction(hcart::make_box({0, 0, 0}, {200, 4, 4})), 0);
  EXPECT_EQ(hcart::row_direction(hcart::make_box({0, 0, 0}, {3, 9, 9})), 2);
  const std::array<int, 3> shapes[] = {{20, 37, 1}, {45, 1, 1}, {1, 30, 1}, {6, 33, 1},
                                       {40, 8, 1},  {7, 9, 3},  {12, 5, 4}, {6, 6, 6}};
  for (const auto& n : shapes) {
    const hcart::Field<double> u("u", n[0] + 2, n[1] + 2, n[2]),
        rows("rows", n[0] + 2, n[1] + 2, n[2]), cells("cells", n[0] + 2, n[1] + 2, n[2]);
    hcart::for_each_cell("ramp", hcart::make_box({0, 0, 0}, {n[0] + 2, n[1] + 2, n[2]}), Ramp{u});
    const hcart::Box box = hcart::make_box({1, 1, 0}, {n[0] + 1, n[1] + 1, n[2]});
    hcart::for_each_cell("rows", box, Plane{hcart::accessor(u), hcart::accessor(rows)});
    hcart::for_each_cell("cells", box, Plane{hcart::accessor(u), hcart::accessor(cells)},
                         hcart::LoopPattern::Portable);
    const auto a = hcart::host_copy(rows), b = hcart::host_copy(cells);
    long differ = 0, touched = 0;
    for (std::size_t c = 0; c < a.size(); ++c) {
      differ += std::memcmp(a.data() + c, b.data() + c, sizeof(double)) != 0;
      touched += a.data()[c] != 0.0;
    }
    const std::string where =
        std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
    EXPECT_EQ(differ, 0) << where;
    EXPECT_EQ(touched, box.cells()) << where;
    long long sum = 0, expected = 0;
    for (int i = box.lo[0]; i < box.hi[0]; ++i)
      for (int j = box.lo[1]; j < box.hi[1]; ++j)
        for (int k = box.lo[2]; k < box.hi[2]; ++k)
          expected += 1 + i * 1000000LL + j * 1000LL + k;
    hcart::reduce_cells("count", box, CellCount{}, sum);
    EXPECT_EQ(sum, expected) << where;
  }
}

// hcart::math in a kernel against the C library on the host: every function, at arguments
// spread over its domain. Host builds call the C library itself (the same bits); a device
// has its own library, within a few units in the last place.
namespace {
constexpr int kMathFunctions = 16;
constexpr int kMathArguments = 7;
// The a-th argument, spread over [-2.6, 2.8].
KOKKOS_INLINE_FUNCTION double math_argument(int a) {
  return -2.6 + 0.9 * a;
}
KOKKOS_INLINE_FUNCTION double math_value(int f, double x) {
  namespace m = hcart::math;
  const double y = 0.75 - 0.25 * x; // a second argument
  switch (f) {
  case 0: return m::sqrt(m::fabs(x));
  case 1: return m::cbrt(x);
  case 2: return m::pow(m::fabs(x) + 0.5, y);
  case 3: return m::exp(x);
  case 4: return m::log(m::fabs(x) + 0.25);
  case 5: return m::hypot(x, y);
  case 6: return m::sin(x);
  case 7: return m::cos(x);
  case 8: return m::tan(x);
  case 9: return m::atan2(x, y);
  case 10: return m::fabs(x);
  case 11: return m::fmin(x, y);
  case 12: return m::fmax(x, y);
  case 13: return m::floor(x);
  case 14: return m::ceil(x);
  default: return m::isfinite(x / (x - x)) ? 1.0 : 0.0; // 0/0 and x/0: never finite
  }
}
double host_value(int f, double x) {
  const double y = 0.75 - 0.25 * x;
  switch (f) {
  case 0: return std::sqrt(std::fabs(x));
  case 1: return std::cbrt(x);
  case 2: return std::pow(std::fabs(x) + 0.5, y);
  case 3: return std::exp(x);
  case 4: return std::log(std::fabs(x) + 0.25);
  case 5: return std::hypot(x, y);
  case 6: return std::sin(x);
  case 7: return std::cos(x);
  case 8: return std::tan(x);
  case 9: return std::atan2(x, y);
  case 10: return std::fabs(x);
  case 11: return std::fmin(x, y);
  case 12: return std::fmax(x, y);
  case 13: return std::floor(x);
  case 14: return std::ceil(x);
  default: return 0.0;
  }
}
// Every function at every argument, computed where kernels run; returned as a host copy in
// the layout the device view has (LayoutLeft under CUDA). (Not `auto`: nvcc takes no device
// lambda in a function whose return type is deduced.)
using MathValues = Kokkos::View<double**, hcart::MemorySpace>;
using HostMathValues = Kokkos::View<double**, typename MathValues::array_layout, Kokkos::HostSpace>;
HostMathValues math_in_kernel() {
  MathValues values("math", kMathFunctions, kMathArguments);
  Kokkos::parallel_for(
      "math", Kokkos::RangePolicy<hcart::ExecutionSpace>(0, kMathFunctions * kMathArguments),
      KOKKOS_LAMBDA(int n) {
        const int f = n / kMathArguments, a = n % kMathArguments;
        values(f, a) = math_value(f, math_argument(a));
      });
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
}
} // namespace

TEST(KernelMath, EveryFunctionAgreesWithTheCLibrary) {
  const auto values = math_in_kernel();
  for (int f = 0; f < kMathFunctions; ++f) {
    for (int a = 0; a < kMathArguments; ++a) {
      const double x = math_argument(a), expected = host_value(f, x);
      SCOPED_TRACE("function " + std::to_string(f) + " at " + std::to_string(x));
      if (hcart::host_execution) {
        EXPECT_EQ(values(f, a), expected);
      } else {
        EXPECT_NEAR(values(f, a), expected, 1e-14 * (1.0 + std::fabs(expected)));
      }
    }
  }
}
