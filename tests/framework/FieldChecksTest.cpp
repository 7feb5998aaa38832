// Checks of field values over all ranks (hcart/grid/FieldChecks.hpp): count_non_finite gives
// every rank the same count, and require_finite ends with the same error on every rank,
// naming each broken field, when only one rank holds the bad value.
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/FieldChecks.hpp>
#include <hcart/grid/Grid.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

using hcart::test::world_rank;
using hcart::test::world_size;

// A field that is not the grid's size, on the last rank only: an error on every rank (no
// read past its end, no hang in the reduction).
TEST(FieldChecks, AFieldOfAnotherSizeIsAnErrorOnEveryRank) {
  hcart::GridSpec spec;
  spec.global_size = {12, 10, 8};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  const auto e = grid.extent();
  const bool last = world_rank() == world_size() - 1;
  const hcart::Field<double> small("small", e[0], e[1], e[2] - (last ? 2 : 0));
  const auto good = grid.make_field<double>("good");
  for (int round = 0; round < 2; ++round) {
    try {
      if (round == 0) {
        (void)hcart::count_non_finite(grid, small);
      } else {
        hcart::require_finite(grid, {{"good", good}, {"small", small}}, "now");
      }
      ADD_FAILURE() << "no error in round " << round;
    } catch (const hcart::InputError& error) {
      EXPECT_TRUE(error.collective());
      const std::string text = error.what();
      EXPECT_NE(text.find("field 'small'"), std::string::npos) << text;
      if (last) {
        EXPECT_NE(text.find("has extents"), std::string::npos) << text;
      }
    }
  }
  EXPECT_EQ(hcart::count_non_finite(grid, good), 0); // the communicator is still in step
}

TEST(FieldChecks, OneBadValueOnOneRankIsSeenByAll) {
  hcart::GridSpec spec;
  spec.global_size = {12, 10, 8};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  const auto u = grid.make_field<double>("u"), v = grid.make_field<double>("v");
  EXPECT_EQ(hcart::count_non_finite(grid, u), 0);
  EXPECT_NO_THROW(hcart::require_finite(grid, {{"u", u}, {"v", v}}, "at the start"));
  // The last rank breaks one owned cell of v with NaN and one of u with infinity; a halo
  // cell does not count.
  if (world_rank() == world_size() - 1) {
    auto hu = hcart::host_copy(u), hv = hcart::host_copy(v);
    const auto h = grid.halo_width();
    hv(h[0], h[1], h[2]) = std::nan("");
    hu(h[0] + 1, h[1], h[2]) = std::numeric_limits<double>::infinity();
    hu(0, 0, 0) = std::nan(""); // halo
    Kokkos::deep_copy(u, hu);
    Kokkos::deep_copy(v, hv);
  }
  EXPECT_EQ(hcart::count_non_finite(grid, u), 1);
  EXPECT_EQ(hcart::count_non_finite(grid, v), 1);
  try {
    hcart::require_finite(grid, {{"u", u}, {"v", v}}, "after step 7");
    FAIL() << "no error";
  } catch (const hcart::Error& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_EQ(std::string(e.what()),
              "after step 7: field 'u' holds 1 values that are NaN or infinite; field 'v' holds 1 "
              "values that are NaN or infinite");
  }
}

// A field with components: bad values in two components of one rank are counted on all;
// one of other extents on one rank is an error on every rank.
TEST(FieldChecks, FieldsWithComponents) {
  hcart::GridSpec spec;
  spec.global_size = {12, 10, 8};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  const auto f = grid.make_components<double>("f", 4);
  EXPECT_EQ(hcart::count_non_finite(grid, f), 0);
  if (world_rank() == world_size() - 1) {
    auto host = hcart::host_copy(f);
    const auto h = grid.halo_width();
    host(1, h[0], h[1], h[2]) = std::nan("");
    host(3, h[0], h[1], h[2] + 1) = -std::numeric_limits<double>::infinity();
    host(2, 0, 0, 0) = std::nan(""); // halo
    Kokkos::deep_copy(f, host);
  }
  EXPECT_EQ(hcart::count_non_finite(grid, f), 2);
  const auto e = grid.extent();
  const bool last = world_rank() == world_size() - 1;
  const hcart::ComponentField<double> small("small", 4, e[0], e[1], e[2] - (last ? 1 : 0));
  try {
    (void)hcart::count_non_finite(grid, small);
    ADD_FAILURE() << "no error";
  } catch (const hcart::InputError& error) {
    EXPECT_TRUE(error.collective());
    EXPECT_NE(std::string(error.what()).find("field 'small'"), std::string::npos) << error.what();
  }
}

// One require_finite list of every field type (a Field<double>, a ComponentField<float>):
// each field's count is its own, summed over the ranks, and a clean list passes.
TEST(FieldChecks, OneListOfMixedFieldTypes) {
  hcart::GridSpec spec;
  spec.global_size = {12, 10, 8};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  const auto u = grid.make_field<double>("u");
  const auto f = grid.make_components<float>("f", 3);
  EXPECT_NO_THROW(hcart::require_finite(grid, {{"u", u}, {"f", f}}, "at the start"));
  const auto h = grid.halo_width();
  if (world_rank() == 0) { // two bad values in f's last component, on one rank
    auto host = hcart::host_copy(f);
    host(2, h[0], h[1], h[2]) = std::numeric_limits<float>::infinity();
    host(2, h[0] + 1, h[1], h[2]) = std::nanf("");
    Kokkos::deep_copy(f, host);
  }
  { // and one in u on every rank
    auto host = hcart::host_copy(u);
    host(h[0], h[1], h[2]) = std::nan("");
    Kokkos::deep_copy(u, host);
  }
  try {
    hcart::require_finite(grid, {{"u", u}, {"f", f}}, "after step 2");
    ADD_FAILURE() << "no error";
  } catch (const hcart::Error& error) {
    EXPECT_TRUE(error.collective());
    EXPECT_EQ(std::string(error.what()),
              "after step 2: field 'u' holds " + std::to_string(world_size()) +
                  " values that are NaN or infinite; field 'f' holds 2 values that are NaN or "
                  "infinite");
  }
  // The (name, field) pairs of one type, as a vector.
  const std::vector<std::pair<std::string, hcart::ComponentField<float>>> pairs{{"f", f}};
  EXPECT_THROW(hcart::require_finite(grid, pairs, "again"), hcart::Error);
}
