// hcart::factorize: the weighted factorization of a process count n into d factors
// (docs/algorithms.md, 'Weighted factorization'), the building block of every hcart
// decomposition.
//
// Among all (n_0, ..., n_{d-1}) with prod n_i = n, fixed factors kept and n_i <= bound_i,
// it returns the one that minimises, in this order:
//   1. sum_i w_i n_i (compared with a relative tolerance of 1e-12),
//   2. max(n) - min(n) over the free (not fixed) factors,
//   3. the largest free factor,
//   4. then the factor vector that is lexicographically largest in index order; among
//      equal weights the larger factor therefore goes to the lower index, so equal weights
//      give non-increasing factors as MPI_Dims_create does.
//
//   hcart::factorize(72, {1.0, 1.0})                  -> {9, 8}
//   hcart::factorize(12, {1.0 / 6, 1.0 / 18})         -> {2, 6}
//   hcart::factorize(16, {1, 1, 1}, {{0, 0, 2}, {}})  -> {4, 2, 2}    (n_2 fixed to 2)
//
// Exact (branch and bound over the non-increasing factorizations, AM-GM pruning, greedy
// optimal assignment under bounds), for n up to 2^31-1 and d up to 16. Pure C++.
#pragma once

#include <cstdint>
#include <vector>

namespace hcart {

/// \brief Largest process count hcart factorizes (MPI ranks are int).
inline constexpr std::int64_t max_factorize_n = 2147483647;
/// \brief Largest number of dimensions hcart factorizes.
inline constexpr int max_factorize_dims = 16;

/// \brief Constraints on a factorization; vectors are empty or of length d.
struct FactorizeOptions {
  /// Per direction: 0 = free, > 0 = this factor is fixed (as MPI_Dims_create's input).
  std::vector<std::int64_t> fixed;
  /// Per direction: 0 = unbounded, > 0 = the factor may not exceed this.
  std::vector<std::int64_t> bounds;
};

/// \brief The optimal weighted factorization of n into weights.size() factors.
/// \param n number to factorize, 1 <= n <= 2^31-1
/// \param weights w_i >= 0 and finite, 1 <= d <= 16 entries
/// \throws hcart::InputError for bad arguments, fixed factors whose product does not divide
/// n, fixed factors above their bound, or when no factorization respects the bounds (the
/// message names the numbers).
std::vector<std::int64_t> factorize(std::int64_t n, const std::vector<double>& weights,
                                    const FactorizeOptions& options = {});

/// \brief The quality of a factorization, in the order the criteria are applied.
struct FactorizationScore {
  double weighted_sum = 0.0; ///< sum_i w_i n_i
  std::int64_t spread = 0;   ///< max - min over the free factors
  std::int64_t largest = 0;  ///< largest free factor
};

/// \brief Scores `factors` against `weights`; `fixed` marks directions not counted as free.
FactorizationScore score(const std::vector<std::int64_t>& factors,
                         const std::vector<double>& weights,
                         const std::vector<std::int64_t>& fixed = {});

/// \brief True when a is strictly better than b by criteria 1-4 (tolerance on the sum).
bool better(const FactorizationScore& a, const std::vector<std::int64_t>& factors_a,
            const FactorizationScore& b, const std::vector<std::int64_t>& factors_b);

/// \brief The divisors of n (1 <= n <= 2^31-1) in increasing order.
std::vector<std::int64_t> divisors(std::int64_t n);

} // namespace hcart
