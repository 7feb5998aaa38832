// Independent reference implementations for the mapping tests: slow, obvious, and written
// without the library's search so that agreement means something.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace hcart::test {

using Factors = std::vector<std::int64_t>;

// Every ordered factorization of n into d factors.
inline void for_each_factorization(std::int64_t n, std::size_t d,
                                   const std::function<void(const Factors&)>& visit) {
  Factors f(d, 1);
  std::function<void(std::size_t, std::int64_t)> rec = [&](std::size_t i, std::int64_t rest) {
    if (i + 1 == d) {
      f[i] = rest;
      visit(f);
      return;
    }
    for (std::int64_t x = 1; x <= rest; ++x) {
      if (rest % x) continue;
      f[i] = x;
      rec(i + 1, rest / x);
    }
  };
  rec(0, n);
}

// Criteria of docs/algorithms.md, 'Weighted factorization', written out directly.
inline bool reference_better(const Factors& a, const Factors& b, const std::vector<double>& w,
                             const std::vector<bool>& free_dir) {
  double sa = 0, sb = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    sa += w[i] * static_cast<double>(a[i]);
    sb += w[i] * static_cast<double>(b[i]);
  }
  const double tol = 1e-12 * std::max(std::fabs(sa), std::fabs(sb));
  if (sa < sb - tol) return true;
  if (sa > sb + tol) return false;
  auto spread_max = [&](const Factors& f) {
    std::int64_t lo = INT64_MAX, hi = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (!free_dir[i]) continue;
      lo = std::min(lo, f[i]);
      hi = std::max(hi, f[i]);
    }
    return std::make_pair(hi == 0 ? 0 : hi - lo, hi);
  };
  const auto [spread_a, max_a] = spread_max(a);
  const auto [spread_b, max_b] = spread_max(b);
  if (spread_a != spread_b) return spread_a < spread_b;
  if (max_a != max_b) return max_a < max_b;
  return b < a; // lexicographically larger wins
}

// Optimal factorization by enumeration; bounds 0 = none, fixed 0 = free.
inline std::optional<Factors> brute_force_factorize(std::int64_t n, const std::vector<double>& w,
                                                    const Factors& fixed, const Factors& bounds) {
  const std::size_t d = w.size();
  std::vector<bool> free_dir(d, true);
  for (std::size_t i = 0; i < d; ++i)
    free_dir[i] = fixed.empty() || fixed[i] == 0;
  std::optional<Factors> best;
  for_each_factorization(n, d, [&](const Factors& f) {
    for (std::size_t i = 0; i < d; ++i) {
      if (!fixed.empty() && fixed[i] > 0 && f[i] != fixed[i]) return;
      if (!bounds.empty() && bounds[i] > 0 && f[i] > bounds[i]) return;
    }
    if (!best || reference_better(f, *best, w, free_dir)) best = f;
  });
  return best;
}

inline double weighted_sum(const Factors& f, const std::vector<double>& w) {
  double s = 0;
  for (std::size_t i = 0; i < f.size(); ++i)
    s += w[i] * static_cast<double>(f[i]);
  return s;
}

} // namespace hcart::test
