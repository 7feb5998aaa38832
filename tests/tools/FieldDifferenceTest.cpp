// hcart-compare's comparison against brute force on small vectors: equal bits, a change in
// one cell found where it is, -0 against +0, NaN, and the tolerances.
#include "FieldDifference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using hcart::apps::compare_field;

TEST(FieldDifference, AgainstBruteForce) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> value(-10, 10);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> a(200), b;
    for (double& x : a)
      x = value(rng);
    b = a;
    const int changed = static_cast<int>(rng() % 200), other = static_cast<int>(rng() % 200);
    b[changed] += 1e-3 * (trial + 1);
    if (other != changed) b[other] *= 1.0 + 1e-9;
    // Brute force: the largest |a - b| and where.
    double largest = 0;
    long at = -1, bits = 0;
    for (std::size_t c = 0; c < a.size(); ++c) {
      bits += a[c] != b[c];
      if (std::fabs(a[c] - b[c]) > largest) {
        largest = std::fabs(a[c] - b[c]);
        at = static_cast<long>(c);
      }
    }
    const auto d = compare_field("u", a, b, 0, 0);
    EXPECT_EQ(d.differing_bits, bits);
    EXPECT_EQ(d.beyond_tolerance, bits);
    EXPECT_EQ(d.max_absolute, largest);
    EXPECT_EQ(d.at_absolute, at);
    EXPECT_EQ(compare_field("u", a, b, largest, 0).beyond_tolerance, 0);
    EXPECT_EQ(compare_field("u", a, b, largest * 0.999, 0).beyond_tolerance, 1);
    EXPECT_EQ(compare_field("u", a, a, 0, 0).differing_bits, 0);
  }
}

TEST(FieldDifference, SignedZerosAndNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto zeros = compare_field("u", {0.0, 1.0}, {-0.0, 1.0}, 0, 0);
  EXPECT_EQ(zeros.differing_bits, 1) << "-0 and +0 differ in their bits";
  EXPECT_EQ(zeros.beyond_tolerance, 0) << "but not in value";
  const auto nans = compare_field("u", {nan, 2.0}, {nan, 2.0}, 0, 0);
  EXPECT_EQ(nans.differing_bits, 0) << "the same NaN";
  const auto one_nan = compare_field("u", {1.0, 2.0}, {nan, 2.0}, 1e300, 1e300);
  EXPECT_EQ(one_nan.beyond_tolerance, 1) << "a NaN against a number never matches";
  EXPECT_TRUE(std::isinf(one_nan.max_absolute));
  EXPECT_EQ(one_nan.at_absolute, 0);
  const auto relative = compare_field("u", {100.0, 1e-3}, {100.0 + 1e-8, 1e-3 + 1e-8}, 0, 1e-9);
  EXPECT_EQ(relative.beyond_tolerance, 1) << "1e-8 is 1e-10 of 100 but 1e-5 of 1e-3";
  EXPECT_EQ(relative.at_relative, 1);
}
