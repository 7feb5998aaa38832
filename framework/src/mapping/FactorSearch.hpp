// Internals of the weighted factorization shared by factorize() and the multi-level plan.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hcart::impl {

/// "4x2x1" (or with another separator), for messages.
std::string join_numbers(const std::vector<std::int64_t>& values, const char* separator = "x");

/// Relative tolerance for comparing weighted sums (docs/algorithms.md, 'Weighted
/// factorization').
inline constexpr double sum_tolerance = 1e-12;

/// -1 if a < b beyond the tolerance, +1 if a > b beyond it, 0 if they tie.
int compare_sums(double a, double b) noexcept;

/// Prime factorization of 1 <= n <= 2^31-1 as (prime, exponent) pairs, primes increasing.
std::vector<std::pair<std::int64_t, int>> prime_factors(std::int64_t n);

/// Accepts or rejects a complete candidate (factors in index order).
using FactorFilter = std::function<bool(const std::vector<std::int64_t>&)>;

/// Exhaustive search over the ordered factorizations of n with factor_i <= bounds[i]
/// (bounds[i] >= 1), keeping those `accept` admits, optimal by criteria 1-4 where the
/// spread and largest factor are taken over the directions with counts_for_spread[i].
/// For small n and d (the multi-level plan with fixed dims or binding bounds).
std::optional<std::vector<std::int64_t>>
factorize_filtered(std::int64_t n, const std::vector<double>& weights,
                   const std::vector<std::int64_t>& bounds,
                   const std::vector<bool>& counts_for_spread, const FactorFilter& accept);

/// True if n can be written as a product of factors with factor_i <= bounds[i],
/// factor_i == exact[i] where exact[i] > 0, and factor_i dividing divides[i] where
/// divides[i] > 0 (divides empty: no such constraint).
bool factorizable(std::int64_t n, const std::vector<std::int64_t>& bounds,
                  const std::vector<std::int64_t>& exact,
                  const std::vector<std::int64_t>& divides = {});

} // namespace hcart::impl
