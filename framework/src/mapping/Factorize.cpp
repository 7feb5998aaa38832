// The weighted factorization (docs/algorithms.md, 'Weighted factorization').
//
// The search walks the non-increasing sequences f_1 >= f_2 >= ... >= f_k of divisors with
// product m (the part of n left to the free directions). Each factor, taken in decreasing
// order, goes to the lightest remaining direction whose bound admits it (lowest index among
// equal weights). That greedy assignment is optimal for the multiset: the sets of directions
// admitting each factor are nested, and exchanging a larger factor onto a lighter direction
// never raises sum w_i n_i (rearrangement inequality), so only multisets are enumerated.
// Branches are cut with the AM-GM bound k * (m * prod w)^(1/k) on what the remaining k
// directions must cost at least.
//
// Why one file of about 540 lines: the enumeration's inner loops call the number theory
// below (the odd-prime table, factor_u32, list_divisors, ceil_root) millions of times on
// large rank counts, and those helpers stay in this translation unit, in an anonymous
// namespace, so that they inline without link-time optimisation.
#include "mapping/FactorSearch.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Factorize.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

namespace hcart {

namespace impl {

std::string join_numbers(const std::vector<std::int64_t>& values, const char* separator) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) {
    s += (i ? separator : "") + std::to_string(values[i]);
  }
  return s;
}

int compare_sums(double a, double b) noexcept {
  const double scale = std::max(std::fabs(a), std::fabs(b));
  if (a < b - sum_tolerance * scale) return -1;
  if (a > b + sum_tolerance * scale) return 1;
  return 0;
}

namespace {

// Odd primes below 46341 (> sqrt(2^31)) with their inverses modulo 2^32: p divides x
// exactly when x * inverse (mod 2^32) <= (2^32 - 1) / p, a multiplication instead of a
// division (Granlund & Montgomery 1994).
struct OddPrimeTable {
  std::vector<std::uint32_t> prime, inverse, limit;
  OddPrimeTable() {
    constexpr std::uint32_t top = 46341;
    std::vector<bool> composite(top + 1, false);
    for (std::uint32_t p = 3; p <= top; p += 2) {
      if (composite[p]) continue;
      for (std::uint64_t q = std::uint64_t{p} * p; q <= top; q += std::uint64_t{2} * p)
        composite[q] = true;
      std::uint32_t inv = p; // Newton iteration: each step doubles the correct low bits
      for (int i = 0; i < 5; ++i)
        inv *= 2u - p * inv;
      prime.push_back(p);
      inverse.push_back(inv);
      limit.push_back(std::numeric_limits<std::uint32_t>::max() / p);
    }
  }
};

const OddPrimeTable& odd_primes() {
  static const OddPrimeTable table;
  return table;
}

struct PrimePowers {
  std::array<std::uint32_t, 10> prime{}; // 2*3*5*...*29 > 2^31: at most 10 distinct primes
  std::array<int, 10> exponent{};
  int count = 0;
};

PrimePowers factor_u32(std::uint32_t x) {
  PrimePowers out;
  if (x > 1 && (x & 1u) == 0) {
    const int twos = __builtin_ctz(x);
    out.prime[0] = 2;
    out.exponent[0] = twos;
    out.count = 1;
    x >>= twos;
  }
  const OddPrimeTable& t = odd_primes();
  const std::size_t np = t.prime.size();
  for (std::size_t i = 0; i < np && x > 1; ++i) {
    const std::uint32_t p = t.prime[i];
    if (std::uint64_t{p} * p > x) break;
    if (x * t.inverse[i] > t.limit[i]) continue;
    int e = 0;
    do {
      x *= t.inverse[i];
      ++e;
    } while (x * t.inverse[i] <= t.limit[i]);
    out.prime[out.count] = p;
    out.exponent[out.count] = e;
    ++out.count;
  }
  if (x > 1) {
    out.prime[out.count] = x;
    out.exponent[out.count] = 1;
    ++out.count;
  }
  return out;
}

// At most 1600 divisors below 2^31 (2095133040, a highly composite number, has that many).
constexpr int max_divisor_count = 1600;

int list_divisors(std::uint32_t x, std::uint32_t* out) {
  const PrimePowers pp = factor_u32(x);
  int count = 1;
  out[0] = 1;
  for (int i = 0; i < pp.count; ++i) {
    const int previous = count;
    std::uint32_t power = 1;
    for (int e = 1; e <= pp.exponent[i]; ++e) {
      power *= pp.prime[i];
      for (int j = 0; j < previous; ++j)
        out[count++] = out[j] * power;
    }
  }
  std::sort(out, out + count);
  return count;
}

// Smallest x >= 1 with x^k >= m.
std::int64_t ceil_root(std::int64_t m, int k) {
  if (k == 1 || m <= 1) return std::max<std::int64_t>(m, 1);
  auto reaches = [m, k](std::int64_t x) {
    std::int64_t p = 1;
    for (int i = 0; i < k; ++i) {
      p *= x;
      if (p >= m) return true;
    }
    return false;
  };
  auto x = static_cast<std::int64_t>(std::pow(static_cast<double>(m), 1.0 / k));
  x = std::max<std::int64_t>(x, 1);
  while (!reaches(x))
    ++x;
  while (x > 1 && reaches(x - 1))
    --x;
  return x;
}

constexpr std::int64_t unbounded = std::numeric_limits<std::int64_t>::max();

// Branch and bound over the free directions (all counted for the spread).
class MultisetSearch {
public:
  MultisetSearch(std::int64_t m, int k, const double* w, const std::int64_t* b) : m_m(m), m_k(k) {
    // Directions sorted by weight, then index: the greedy assignment order.
    std::array<int, max_factorize_dims> order{};
    std::iota(order.begin(), order.begin() + k, 0);
    std::stable_sort(order.begin(), order.begin() + k, [w](int a, int c) { return w[a] < w[c]; });
    for (int s = 0; s < k; ++s) {
      m_slot_index[s] = order[s];
      m_w[s] = w[order[s]];
      m_b[s] = b[order[s]];
    }
    m_divisor_count = list_divisors(static_cast<std::uint32_t>(m), m_divisors.data());
  }

  bool run() {
    int zeros = 0;
    double product = 1.0;
    for (int s = 0; s < m_k; ++s) {
      if (m_w[s] == 0.0)
        ++zeros;
      else
        product *= m_w[s];
    }
    descend(0, m_m, unbounded, 0.0, zeros, product, 0);
    return m_found;
  }

  // Factors in the caller's index order of the free directions.
  void result(std::int64_t* out) const {
    for (int s = 0; s < m_k; ++s)
      out[m_slot_index[s]] = m_best[s];
  }

private:
  // Lower bound on sum w f over the unused slots holding product `rest`.
  static double lower_bound(std::int64_t rest, int slots, int zeros, double product) {
    if (slots == 0 || zeros > 0) return 0.0;
    if (slots == 1) return product * static_cast<double>(rest);
    return slots * std::pow(product * static_cast<double>(rest), 1.0 / slots);
  }

  void descend(int depth, std::int64_t rest, std::int64_t previous, double partial, int zeros,
               double product, std::int64_t largest) {
    const int slots = m_k - depth;
    if (slots == 1) {
      if (rest > previous) return;
      int s = 0;
      while (m_used[s])
        ++s;
      if (rest > m_b[s]) return;
      m_current[s] = rest;
      leaf(partial + m_w[s] * static_cast<double>(rest), depth == 0 ? rest : largest, rest);
      return;
    }
    const std::int64_t lo = ceil_root(rest, slots);
    const std::int64_t hi = std::min(previous, rest);
    if (lo > hi) return;
    const std::uint32_t* first = std::lower_bound(
        m_divisors.data(), m_divisors.data() + m_divisor_count, static_cast<std::uint32_t>(lo));
    const std::uint32_t* last = m_divisors.data() + m_divisor_count;
    for (const std::uint32_t* it = first; it != last && *it <= hi; ++it) {
      const std::int64_t f = *it;
      if (rest % f != 0) continue;
      // Greedy: the lightest unused slot whose bound admits f.
      int s = 0;
      while (s < m_k && (m_used[s] || m_b[s] < f))
        ++s;
      if (s == m_k) break; // larger factors are admitted by even fewer slots
      const std::int64_t next = rest / f;
      const double cost = partial + m_w[s] * static_cast<double>(f);
      const int next_zeros = zeros - (m_w[s] == 0.0 ? 1 : 0);
      const double next_product = m_w[s] == 0.0 ? product : product / m_w[s];
      if (m_found) {
        const double bound = cost + lower_bound(next, slots - 1, next_zeros, next_product);
        if (compare_sums(bound, m_best_sum) > 0) continue;
      }
      if (!fits(next, f, s)) continue;
      m_used[s] = true;
      m_current[s] = f;
      descend(depth + 1, next, f, cost, next_zeros, next_product, depth == 0 ? f : largest);
      m_used[s] = false;
    }
  }

  // Can `rest` still be spread over the unused slots (other than `taking`) with factors
  // no larger than `cap`? prod min(b, cap) >= rest is necessary.
  bool fits(std::int64_t rest, std::int64_t cap, int taking) const {
    std::int64_t room = 1;
    for (int s = 0; s < m_k; ++s) {
      if (m_used[s] || s == taking) continue;
      room *= std::min(m_b[s], cap);
      if (room >= rest) return true;
    }
    return room >= rest;
  }

  void leaf(double sum, std::int64_t largest, std::int64_t smallest) {
    const std::int64_t spread = largest - smallest;
    if (m_found) {
      const int c = compare_sums(sum, m_best_sum);
      if (c > 0) return;
      if (c == 0) {
        if (spread != m_best_spread) {
          if (spread > m_best_spread) return;
        } else if (largest != m_best_largest) {
          if (largest > m_best_largest) return;
        } else if (!lexicographically_larger()) {
          return;
        }
      }
    }
    m_found = true;
    m_best_sum = sum;
    m_best_spread = spread;
    m_best_largest = largest;
    m_best = m_current;
  }

  // Is the current assignment lexicographically larger than the best, in index order?
  bool lexicographically_larger() const {
    std::array<std::int64_t, max_factorize_dims> a{}, c{};
    for (int s = 0; s < m_k; ++s) {
      a[m_slot_index[s]] = m_current[s];
      c[m_slot_index[s]] = m_best[s];
    }
    return std::lexicographical_compare(c.begin(), c.begin() + m_k, a.begin(), a.begin() + m_k);
  }

  std::int64_t m_m;
  int m_k;
  std::array<int, max_factorize_dims> m_slot_index{};
  std::array<double, max_factorize_dims> m_w{};
  std::array<std::int64_t, max_factorize_dims> m_b{};
  std::array<bool, max_factorize_dims> m_used{};
  std::array<std::int64_t, max_factorize_dims> m_current{};
  std::array<std::int64_t, max_factorize_dims> m_best{};
  std::array<std::uint32_t, max_divisor_count> m_divisors{};
  int m_divisor_count = 0;
  bool m_found = false;
  double m_best_sum = 0.0;
  std::int64_t m_best_spread = 0;
  std::int64_t m_best_largest = 0;
};

void check_factorize_arguments(std::int64_t n, const std::vector<double>& weights,
                               const FactorizeOptions& options) {
  HCART_REQUIRE(n >= 1 && n <= max_factorize_n,
                "hcart::factorize: n = " << n << ", expected 1 <= n <= " << max_factorize_n);
  const auto d = weights.size();
  HCART_REQUIRE(d >= 1 && d <= static_cast<std::size_t>(max_factorize_dims),
                "hcart::factorize: " << d << " weights, expected 1 to " << max_factorize_dims
                                     << " dimensions");
  for (std::size_t i = 0; i < d; ++i) {
    HCART_REQUIRE(std::isfinite(weights[i]) && weights[i] >= 0.0,
                  "hcart::factorize: weight[" << i << "] = " << weights[i]
                                              << ", expected a finite value >= 0");
  }
  HCART_REQUIRE(options.fixed.empty() || options.fixed.size() == d,
                "hcart::factorize: " << options.fixed.size() << " fixed factors for " << d
                                     << " dimensions, expected " << d << " or none");
  HCART_REQUIRE(options.bounds.empty() || options.bounds.size() == d,
                "hcart::factorize: " << options.bounds.size() << " bounds for " << d
                                     << " dimensions, expected " << d << " or none");
  for (std::size_t i = 0; i < options.fixed.size(); ++i) {
    HCART_REQUIRE(options.fixed[i] >= 0, "hcart::factorize: fixed[" << i
                                                                    << "] = " << options.fixed[i]
                                                                    << ", expected >= 0");
  }
  for (std::size_t i = 0; i < options.bounds.size(); ++i) {
    HCART_REQUIRE(options.bounds[i] >= 0, "hcart::factorize: bound[" << i
                                                                     << "] = " << options.bounds[i]
                                                                     << ", expected >= 0");
  }
}

} // namespace

std::vector<std::pair<std::int64_t, int>> prime_factors(std::int64_t n) {
  HCART_REQUIRE(n >= 1 && n <= max_factorize_n,
                "hcart::prime_factors: n = " << n << ", expected 1 <= n <= " << max_factorize_n);
  const PrimePowers pp = factor_u32(static_cast<std::uint32_t>(n));
  std::vector<std::pair<std::int64_t, int>> out;
  for (int i = 0; i < pp.count; ++i)
    out.emplace_back(pp.prime[i], pp.exponent[i]);
  return out;
}

namespace {
struct FilteredSearch {
  const std::vector<double>& w;
  const std::vector<std::int64_t>& b;
  const std::vector<std::int64_t>& divisors_of_n;
  const std::vector<bool>& counts;
  const FactorFilter& accept;
  std::vector<std::int64_t> current, best;
  FactorizationScore best_score;
  bool found = false;

  void descend(std::size_t i, std::int64_t rest, double partial) {
    if (found && compare_sums(partial, best_score.weighted_sum) > 0) return;
    if (i + 1 == w.size()) {
      if (rest > b[i]) return;
      current[i] = rest;
      consider();
      return;
    }
    const std::int64_t top = std::min(rest, b[i]);
    for (std::int64_t f : divisors_of_n) {
      if (f > top) break;
      if (rest % f != 0) continue;
      current[i] = f;
      descend(i + 1, rest / f, partial + w[i] * static_cast<double>(f));
    }
  }

  void consider() {
    if (accept && !accept(current)) return;
    FactorizationScore s;
    std::int64_t smallest = std::numeric_limits<std::int64_t>::max();
    for (std::size_t i = 0; i < w.size(); ++i) {
      s.weighted_sum += w[i] * static_cast<double>(current[i]);
      if (counts[i]) {
        s.largest = std::max(s.largest, current[i]);
        smallest = std::min(smallest, current[i]);
      }
    }
    s.spread = s.largest > 0 ? s.largest - smallest : 0;
    if (!found || better(s, current, best_score, best)) {
      found = true;
      best = current;
      best_score = s;
    }
  }
};
} // namespace

std::optional<std::vector<std::int64_t>>
factorize_filtered(std::int64_t n, const std::vector<double>& weights,
                   const std::vector<std::int64_t>& bounds,
                   const std::vector<bool>& counts_for_spread, const FactorFilter& accept) {
  const std::vector<std::int64_t> all_divisors = divisors(n);
  FilteredSearch search{weights, bounds, all_divisors, counts_for_spread, accept, {},
                        {},      {},     false};
  search.current.assign(weights.size(), 1);
  search.descend(0, n, 0.0);
  if (!search.found) return std::nullopt;
  return search.best;
}

bool factorizable(std::int64_t n, const std::vector<std::int64_t>& bounds,
                  const std::vector<std::int64_t>& exact,
                  const std::vector<std::int64_t>& divides) {
  auto divisor_of = [&](std::size_t i) { return divides.empty() ? 0 : divides[i]; };
  std::int64_t rest = n;
  std::vector<std::int64_t> free_bounds, free_divides;
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    if (exact[i] > 0) {
      if (exact[i] > bounds[i] || rest % exact[i] != 0) return false;
      if (divisor_of(i) > 0 && divisor_of(i) % exact[i] != 0) return false;
      rest /= exact[i];
    } else {
      free_bounds.push_back(bounds[i]);
      free_divides.push_back(divisor_of(i));
    }
  }
  if (free_bounds.empty()) return rest == 1;
  // Place prime factors, largest first, wherever they fit: a depth-first search that
  // stops at the first success (small: n is one level's remaining product).
  std::vector<std::int64_t> primes;
  for (const auto& [p, e] : prime_factors(rest)) {
    for (int k = 0; k < e; ++k)
      primes.push_back(p);
  }
  std::reverse(primes.begin(), primes.end());
  std::vector<std::int64_t> load(free_bounds.size(), 1);
  std::function<bool(std::size_t)> place = [&](std::size_t j) {
    if (j == primes.size()) return true;
    for (std::size_t s = 0; s < load.size(); ++s) {
      if (load[s] * primes[j] > free_bounds[s]) continue;
      if (free_divides[s] > 0 && free_divides[s] % (load[s] * primes[j]) != 0) continue;
      // Directions with the same load and limits are interchangeable: try only the first.
      bool seen = false;
      for (std::size_t t = 0; t < s; ++t) {
        if (load[t] == load[s] && free_bounds[t] == free_bounds[s] &&
            free_divides[t] == free_divides[s])
          seen = true;
      }
      if (seen) continue;
      load[s] *= primes[j];
      if (place(j + 1)) return true;
      load[s] /= primes[j];
    }
    return false;
  };
  return place(0);
}

} // namespace impl

std::vector<std::int64_t> divisors(std::int64_t n) {
  HCART_REQUIRE(n >= 1 && n <= max_factorize_n,
                "hcart::divisors: n = " << n << ", expected 1 <= n <= " << max_factorize_n);
  std::array<std::uint32_t, impl::max_divisor_count> buffer{};
  const int count = impl::list_divisors(static_cast<std::uint32_t>(n), buffer.data());
  return {buffer.begin(), buffer.begin() + count};
}

FactorizationScore score(const std::vector<std::int64_t>& factors,
                         const std::vector<double>& weights,
                         const std::vector<std::int64_t>& fixed) {
  FactorizationScore s;
  std::int64_t smallest = std::numeric_limits<std::int64_t>::max();
  for (std::size_t i = 0; i < factors.size(); ++i) {
    s.weighted_sum += weights[i] * static_cast<double>(factors[i]);
    if (!fixed.empty() && fixed[i] > 0) continue;
    s.largest = std::max(s.largest, factors[i]);
    smallest = std::min(smallest, factors[i]);
  }
  s.spread = s.largest > 0 ? s.largest - smallest : 0;
  return s;
}

bool better(const FactorizationScore& a, const std::vector<std::int64_t>& factors_a,
            const FactorizationScore& b, const std::vector<std::int64_t>& factors_b) {
  const int c = impl::compare_sums(a.weighted_sum, b.weighted_sum);
  if (c != 0) return c < 0;
  if (a.spread != b.spread) return a.spread < b.spread;
  if (a.largest != b.largest) return a.largest < b.largest;
  return std::lexicographical_compare(factors_b.begin(), factors_b.end(), factors_a.begin(),
                                      factors_a.end());
}

std::vector<std::int64_t> factorize(std::int64_t n, const std::vector<double>& weights,
                                    const FactorizeOptions& options) {
  impl::check_factorize_arguments(n, weights, options);
  const int d = static_cast<int>(weights.size());
  std::vector<std::int64_t> result(d, 0);
  std::int64_t fixed_product = 1;
  std::array<double, max_factorize_dims> w{};
  std::array<std::int64_t, max_factorize_dims> b{};
  std::array<int, max_factorize_dims> free_index{};
  int k = 0;
  for (int i = 0; i < d; ++i) {
    const std::int64_t bound =
        options.bounds.empty() || options.bounds[i] == 0 ? impl::unbounded : options.bounds[i];
    const std::int64_t fixed = options.fixed.empty() ? 0 : options.fixed[i];
    if (fixed > 0) {
      HCART_REQUIRE(fixed <= bound, "hcart::factorize: fixed factor " << fixed << " in direction "
                                                                      << i << " exceeds its bound "
                                                                      << bound);
      HCART_REQUIRE(fixed <= n && fixed_product * fixed <= n,
                    "hcart::factorize: the fixed factors " << impl::join_numbers(options.fixed)
                                                           << " multiply to more than n = " << n);
      fixed_product *= fixed;
      result[i] = fixed;
    } else {
      w[k] = weights[i];
      b[k] = bound;
      free_index[k] = i;
      ++k;
    }
  }
  HCART_REQUIRE(n % fixed_product == 0, "hcart::factorize: the fixed factors "
                                            << impl::join_numbers(options.fixed) << " (product "
                                            << fixed_product << ") do not divide n = " << n);
  const std::int64_t m = n / fixed_product;
  if (k == 0) {
    HCART_REQUIRE(m == 1, "hcart::factorize: all factors are fixed ("
                              << impl::join_numbers(options.fixed) << ") but their product "
                              << fixed_product << " differs from n = " << n);
    return result;
  }
  impl::MultisetSearch search(m, k, w.data(), b.data());
  if (!search.run()) {
    std::vector<std::int64_t> shown(options.bounds);
    throw InputError(
        "hcart::factorize: no factorization of " + std::to_string(n) + " into " +
        std::to_string(d) + " factors respects the bounds " +
        (shown.empty() ? std::string("(none)") : impl::join_numbers(shown)) +
        (options.fixed.empty() ? "" : " with fixed " + impl::join_numbers(options.fixed)));
  }
  std::array<std::int64_t, max_factorize_dims> found{};
  search.result(found.data());
  for (int s = 0; s < k; ++s)
    result[free_index[s]] = found[s];
  return result;
}

} // namespace hcart
