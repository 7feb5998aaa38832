// The seed paper's rule (Niethammer and Rabenseifner, "An MPI interface for application and
// hardware aware Cartesian topology optimization", EuroMPI 2019), kept under the strategy name
// `levelwise` so that its results can be reproduced: the machine's levels are factorized one
// after the other, coarse first, each with the weights accumulated from the levels above,
//   w^(l)_i = w_i * prod_{k<l} n^(k)_i,   n^(l) = factorize(N^(l), w^(l)),
// minimising sum_i w^(l)_i n^(l)_i at every level (a direction that is not cut is charged
// like one that is, periodic or not, as the paper counts it). Bounds and fixed dims are
// respected level by level: a level's factors must leave the finer levels a factorization
// that fits.
#include "mapping/FactorSearch.hpp"
#include "mapping/PlanSearch.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Factorize.hpp>

#include <string>

namespace hcart::impl {

// Splits dims over the machine levels, coarse first, optimising each level in turn.
// `fixed[i] > 0`: the product over levels must be exactly fixed[i]; `divides[i] > 0`: it
// must divide divides[i] (equal blocks; empty: no such constraint).
std::vector<std::vector<std::int64_t>> levelwise_factors(const std::vector<double>& weights,
                                                         const std::vector<std::int64_t>& bounds,
                                                         const std::vector<std::int64_t>& fixed,
                                                         const Machine& machine,
                                                         const std::vector<std::int64_t>& divides) {
  const std::size_t d = weights.size();
  const auto& levels = machine.levels();
  std::vector<std::int64_t> cumulative(d, 1);
  std::vector<std::vector<std::int64_t>> factors;
  bool any_fixed = false;
  std::vector<bool> free_direction(d);
  for (std::size_t i = 0; i < d; ++i) {
    any_fixed = any_fixed || fixed[i] > 0;
    free_direction[i] = fixed[i] == 0;
  }
  for (std::size_t l = 0; l < levels.size(); ++l) {
    std::int64_t after = 1;
    for (std::size_t k = l + 1; k < levels.size(); ++k)
      after *= levels[k].size;
    std::vector<double> w(d);
    std::vector<std::int64_t> level_bound(d);
    for (std::size_t i = 0; i < d; ++i) {
      w[i] = weights[i] * static_cast<double>(cumulative[i]);
      level_bound[i] = fixed[i] > 0 ? fixed[i] / cumulative[i] : bounds[i] / cumulative[i];
    }
    // The levels below must still fit: some factorization of their product must respect
    // what the bounds leave, fixed directions must end exactly on their value, and with
    // equal blocks every direction's product must still divide its divisor.
    auto rest_fits = [&](const std::vector<std::int64_t>& n) {
      std::vector<std::int64_t> next_bound(d), exact(d, 0), next_divides;
      if (!divides.empty()) {
        next_divides.assign(d, 0);
        for (std::size_t i = 0; i < d; ++i) {
          if (divides[i] == 0) continue;
          if (divides[i] % (cumulative[i] * n[i]) != 0) return false;
          next_divides[i] = divides[i] / (cumulative[i] * n[i]);
        }
      }
      for (std::size_t i = 0; i < d; ++i) {
        if (fixed[i] > 0) {
          if (level_bound[i] % n[i] != 0) return false;
          exact[i] = level_bound[i] / n[i];
          next_bound[i] = exact[i];
        } else {
          next_bound[i] = level_bound[i] / n[i];
        }
      }
      return factorizable(after, next_bound, exact, next_divides);
    };
    std::vector<std::int64_t> chosen;
    if (!any_fixed) {
      try {
        FactorizeOptions fo;
        fo.bounds = level_bound;
        for (auto& b : fo.bounds)
          b = b >= max_factorize_n ? 0 : b;
        chosen = factorize(levels[l].size, w, fo);
        if (!rest_fits(chosen)) chosen.clear();
      } catch (const InputError&) {
        chosen.clear();
      }
    }
    if (chosen.empty()) {
      auto found = factorize_filtered(levels[l].size, w, level_bound, free_direction, rest_fits);
      HCART_REQUIRE(found.has_value(),
                    "hcart::make_plan: the "
                        << machine.ranks() << " ranks of machine '" << machine.to_string()
                        << "' cannot be split level by level into dims "
                           "respecting the bounds "
                        << join_numbers(bounds)
                        << (any_fixed ? " and fixed dims " + join_numbers(fixed) : std::string())
                        << (divides.empty() ? std::string()
                                            : " with dims that divide " + join_numbers(divides)));
      chosen = *found;
    }
    for (std::size_t i = 0; i < d; ++i)
      cumulative[i] *= chosen[i];
    factors.push_back(std::move(chosen));
  }
  return factors;
}

} // namespace hcart::impl
