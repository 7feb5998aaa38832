#include "BruteForce.hpp"
#include "mapping/FactorSearch.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Factorize.hpp>

#include <gtest/gtest.h>

#include <random>

using hcart::factorize;
using hcart::FactorizeOptions;
using hcart::test::brute_force_factorize;
using hcart::test::Factors;

TEST(Factorize, WorkedExamplesFromTheDesign) {
  EXPECT_EQ(factorize(72, {1, 1}), (Factors{9, 8}));
  EXPECT_EQ(factorize(16, {1, 1, 1}), (Factors{4, 2, 2}));
  EXPECT_EQ(factorize(361, {1, 1}), (Factors{19, 19}));
  EXPECT_EQ(factorize(7, {1, 1}), (Factors{7, 1}));
  EXPECT_EQ(factorize(10800, {1, 1, 1}), (Factors{25, 24, 18}));
  EXPECT_EQ(factorize(12, {1.0 / 6, 1.0 / 18}), (Factors{2, 6}));
  EXPECT_EQ(factorize(288, {1.0 / 40, 1.0 / 240, 1.0 / 30}), (Factors{4, 24, 3}));
}

TEST(Factorize, EdgeCases) {
  EXPECT_EQ(factorize(1, {1, 1, 1}), (Factors{1, 1, 1}));
  EXPECT_EQ(factorize(2147483647, {1, 1, 1}), (Factors{2147483647, 1, 1}));
  EXPECT_EQ(factorize(13, {1}), (Factors{13}));
  // A zero weight makes cutting that direction free.
  EXPECT_EQ(factorize(64, {1, 0, 1}), (Factors{1, 64, 1}));
  // d = 16 with 2^16: all twos.
  EXPECT_EQ(factorize(65536, std::vector<double>(16, 1.0)), Factors(16, 2));
  // Fixed factors are kept, as MPI_Dims_create does.
  FactorizeOptions fixed;
  fixed.fixed = {0, 0, 2};
  EXPECT_EQ(factorize(16, {1, 1, 1}, fixed), (Factors{4, 2, 2}));
  fixed.fixed = {3, 0, 0};
  EXPECT_EQ(factorize(36, {1, 1, 1}, fixed), (Factors{3, 4, 3}));
  // Bounds move factors elsewhere.
  FactorizeOptions bounded;
  bounded.bounds = {2, 0, 0};
  EXPECT_EQ(factorize(64, {1, 1, 1}, bounded), (Factors{2, 8, 4}));
}

TEST(Factorize, ErrorsNameTheNumbers) {
  EXPECT_THROW(factorize(0, {1, 1}), hcart::InputError);
  EXPECT_THROW(factorize(2147483648LL, {1, 1}), hcart::InputError);
  EXPECT_THROW(factorize(4, {}), hcart::InputError);
  EXPECT_THROW(factorize(4, std::vector<double>(17, 1.0)), hcart::InputError);
  EXPECT_THROW(factorize(4, {1, -1}), hcart::InputError);
  EXPECT_THROW(factorize(4, {1, std::nan("")}), hcart::InputError);
  FactorizeOptions fixed;
  fixed.fixed = {3, 0};
  try {
    factorize(16, {1, 1}, fixed);
    FAIL() << "expected an error";
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("do not divide n = 16"), std::string::npos) << e.what();
  }
  FactorizeOptions bounded;
  bounded.bounds = {2, 2};
  try {
    factorize(8, {1, 1}, bounded);
    FAIL() << "expected an error";
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("respects the bounds 2x2"), std::string::npos) << e.what();
  }
}

TEST(Factorize, PrimeFactorsAndDivisorsMatchTrialDivision) {
  std::mt19937_64 rng(7);
  std::vector<std::int64_t> samples = {
      1, 2, 3, 4, 46337LL * 46337LL, 2147483647, 2095133040, 8648640, 1073741824, 2147395600};
  for (int k = 0; k < 300; ++k)
    samples.push_back(1 + static_cast<std::int64_t>(rng() % 2147483647));
  for (std::int64_t n : samples) {
    std::int64_t rest = n, product = 1;
    for (const auto& [p, e] : hcart::impl::prime_factors(n)) {
      for (std::int64_t q = 2; q * q <= p; ++q)
        ASSERT_NE(p % q, 0) << p << " is not prime";
      for (int i = 0; i < e; ++i) {
        ASSERT_EQ(rest % p, 0);
        rest /= p;
        product *= p;
      }
    }
    ASSERT_EQ(product, n);
    if (n < 5000000) {
      Factors naive;
      for (std::int64_t x = 1; x <= n; ++x) {
        if (n % x == 0) naive.push_back(x);
      }
      ASSERT_EQ(hcart::divisors(n), naive) << n;
    }
  }
  EXPECT_EQ(hcart::divisors(2095133040).size(), 1600u); // the most any n < 2^31 has
}

// The acceptance test of the issue: every n <= 2000, d <= 4, against brute force, with
// equal, random, zero and integer weights, random bounds and fixed factors.
TEST(Factorize, MatchesBruteForceUpTo2000) {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> real(0.0, 1.0);
  long checked = 0, infeasible = 0;
  for (std::int64_t n = 1; n <= 2000; ++n) {
    for (std::size_t d = 1; d <= 4; ++d) {
      for (int variant = 0; variant < 5; ++variant) {
        std::vector<double> w(d, 1.0);
        Factors bounds, fixed;
        switch (variant) {
        case 0: break; // equal weights
        case 1:
          for (auto& x : w)
            x = real(rng);
          break;
        case 2: // zeros among random weights
          for (auto& x : w)
            x = (rng() % 3 == 0) ? 0.0 : real(rng);
          break;
        case 3: // small integer weights: many exact ties
          for (auto& x : w)
            x = static_cast<double>(rng() % 4);
          break;
        case 4: // random weights and random bounds, sometimes fixed factors
          for (auto& x : w)
            x = real(rng);
          bounds.assign(d, 0);
          for (auto& b : bounds)
            b = (rng() % 4 == 0) ? 0 : 1 + static_cast<std::int64_t>(rng() % 40);
          if (rng() % 3 == 0) {
            fixed.assign(d, 0);
            const std::size_t i = rng() % d;
            const auto divs = hcart::divisors(n);
            fixed[i] = divs[rng() % divs.size()];
            if (bounds[i] > 0 && bounds[i] < fixed[i]) bounds[i] = fixed[i];
          }
          break;
        }
        const auto expected = brute_force_factorize(n, w, fixed, bounds);
        FactorizeOptions options{fixed, bounds};
        if (!expected) {
          EXPECT_THROW(factorize(n, w, options), hcart::InputError) << "n=" << n << " d=" << d;
          ++infeasible;
          continue;
        }
        const Factors got = factorize(n, w, options);
        ASSERT_EQ(got, *expected) << "n=" << n << " d=" << d << " variant=" << variant;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 35000);
  EXPECT_GT(infeasible, 100); // the random bounds do bind
}

TEST(Factorize, LargeHighlyCompositeAgreesWithExhaustiveSearch) {
  // Larger n, d = 3 to 5: the filtered exhaustive search (a different algorithm) agrees.
  std::mt19937_64 rng(99);
  for (std::int64_t n : {8648640LL, 720720LL, 1081080LL, 997920LL, 65536LL, 1000000LL}) {
    for (std::size_t d = 3; d <= 5; ++d) {
      std::vector<double> w(d);
      for (auto& x : w)
        x = 1.0 + static_cast<double>(rng() % 1000) / 100.0;
      const auto exhaustive =
          hcart::impl::factorize_filtered(n, w, Factors(d, n), std::vector<bool>(d, true), nullptr);
      ASSERT_TRUE(exhaustive.has_value());
      EXPECT_EQ(factorize(n, w), *exhaustive) << "n=" << n << " d=" << d;
    }
  }
}
