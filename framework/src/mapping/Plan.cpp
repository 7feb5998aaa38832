#include "mapping/FactorSearch.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/Plan.hpp>

#include <limits>
#include <string>

namespace hcart {

namespace {

constexpr std::int64_t no_bound = std::numeric_limits<std::int64_t>::max();

void check_capacity(const Mesh& mesh, const std::vector<std::int64_t>& bounds, std::int64_t ranks) {
  std::int64_t capacity = 1;
  for (std::int64_t b : bounds) {
    capacity = b == 0 ? 0 : (capacity > no_bound / b ? no_bound : capacity * b);
  }
  std::vector<std::int64_t> halo(mesh.halo_width.begin(), mesh.halo_width.end());
  HCART_REQUIRE(capacity >= ranks, "hcart::make_plan: a mesh of "
                                       << impl::join_numbers(mesh.global_size)
                                       << " cells with halos " << impl::join_numbers(halo, ",")
                                       << " splits into at most " << impl::join_numbers(bounds)
                                       << " = " << capacity << " pieces, fewer than the " << ranks
                                       << " ranks (a rank must own at least a halo width of "
                                          "cells in each direction it is cut in): give the mesh "
                                          "more cells, narrower halos, or use fewer ranks");
}

// Splits dims over the machine levels, coarse first, optimising each level in turn.
// `fixed[i] > 0`: the product over levels must be exactly fixed[i].
std::vector<std::vector<std::int64_t>> split_over_levels(const std::vector<double>& weights,
                                                         const std::vector<std::int64_t>& bounds,
                                                         const std::vector<std::int64_t>& fixed,
                                                         const Machine& machine) {
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
    // what the bounds leave, and fixed directions must end exactly on their value.
    auto rest_fits = [&](const std::vector<std::int64_t>& n) {
      std::vector<std::int64_t> next_bound(d), exact(d, 0);
      for (std::size_t i = 0; i < d; ++i) {
        if (fixed[i] > 0) {
          if (level_bound[i] % n[i] != 0) return false;
          exact[i] = level_bound[i] / n[i];
          next_bound[i] = exact[i];
        } else {
          next_bound[i] = level_bound[i] / n[i];
        }
      }
      return impl::factorizable(after, next_bound, exact);
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
      auto found =
          impl::factorize_filtered(levels[l].size, w, level_bound, free_direction, rest_fits);
      HCART_REQUIRE(
          found.has_value(),
          "hcart::make_plan: the "
              << machine.ranks() << " ranks of machine '" << machine.to_string()
              << "' cannot be split level by level into dims "
                 "respecting the bounds "
              << impl::join_numbers(bounds)
              << (any_fixed ? " and fixed dims " + impl::join_numbers(fixed) : std::string()));
      chosen = *found;
    }
    for (std::size_t i = 0; i < d; ++i)
      cumulative[i] *= chosen[i];
    factors.push_back(std::move(chosen));
  }
  return factors;
}

} // namespace

std::vector<std::int64_t> row_major_coords(std::int64_t rank,
                                           const std::vector<std::int64_t>& dims) {
  std::vector<std::int64_t> c(dims.size());
  for (std::size_t i = dims.size(); i-- > 0;) {
    c[i] = rank % dims[i];
    rank /= dims[i];
  }
  return c;
}

std::int64_t row_major_rank(const std::vector<std::int64_t>& coords,
                            const std::vector<std::int64_t>& dims) {
  std::int64_t r = 0;
  for (std::size_t i = 0; i < dims.size(); ++i)
    r = r * dims[i] + coords[i];
  return r;
}

std::vector<std::int64_t> Plan::coords_of(std::int64_t world_rank, const Machine& machine) const {
  HCART_REQUIRE(world_rank >= 0 && world_rank < machine.ranks(),
                "hcart::Plan::coords_of: rank " << world_rank << ", expected 0 to "
                                                << machine.ranks() - 1);
  if (!measured_cart_rank.empty()) {
    return row_major_coords(measured_cart_rank.at(world_rank), dims);
  }
  if (!hierarchical_placement) return row_major_coords(world_rank, dims);
  const std::vector<std::int64_t> units = machine.unit_indices(world_rank);
  std::vector<std::int64_t> c(dims.size(), 0);
  for (std::size_t l = 0; l < level_factors.size(); ++l) {
    const std::vector<std::int64_t> level_coords = row_major_coords(units[l], level_factors[l]);
    for (std::size_t i = 0; i < dims.size(); ++i) {
      c[i] = c[i] * level_factors[l][i] + level_coords[i];
    }
  }
  return c;
}

std::int64_t Plan::cart_rank_of(std::int64_t world_rank, const Machine& machine) const {
  return row_major_rank(coords_of(world_rank, machine), dims);
}

Plan make_plan(const Mesh& mesh, const Machine& machine, const PlanOptions& options) {
  const std::size_t d = mesh.global_size.size();
  const std::vector<std::int64_t> bounds = cut_bounds(mesh); // validates the mesh
  Plan plan;
  plan.strategy = options.strategy;
  HCART_REQUIRE(options.strategy != Strategy::Mpi,
                "hcart::make_plan: the mpi strategy needs MPI_Dims_create; use plan_from_dims");
  if (options.weights.empty()) {
    plan.weights = communication_weights(mesh);
  } else {
    HCART_REQUIRE(options.weights.size() == d, "hcart::make_plan: " << options.weights.size()
                                                                    << " weights for a " << d
                                                                    << "-dimensional mesh");
    plan.weights = options.weights;
  }
  std::vector<std::int64_t> fixed = options.dims;
  if (fixed.empty()) fixed.assign(d, 0);
  HCART_REQUIRE(fixed.size() == d,
                "hcart::make_plan: " << fixed.size() << " dims for a " << d << "-dimensional mesh");
  std::int64_t fixed_product = 1;
  for (std::size_t i = 0; i < d; ++i) {
    HCART_REQUIRE(fixed[i] >= 0, "hcart::make_plan: dims[" << i << "] = " << fixed[i]
                                                           << ", expected >= 0 (0 = free)");
    HCART_REQUIRE(options.strategy != Strategy::Manual || fixed[i] > 0,
                  "hcart::make_plan: the manual strategy needs every dim, got dims "
                      << impl::join_numbers(fixed, ","));
    HCART_REQUIRE(fixed[i] <= bounds[i],
                  "hcart::make_plan: dims "
                      << impl::join_numbers(fixed, ",") << " cuts direction " << i << " ("
                      << mesh.global_size[i] << " cells, halo " << mesh.halo_width[i] << ") into "
                      << fixed[i] << " pieces, more than its " << bounds[i]
                      << " (a rank must own at least a halo width of cells "
                         "in each direction it is cut in): choose dims["
                      << i << "] <= " << bounds[i] << ", or give direction " << i << " more cells");
    if (fixed[i] > 0) fixed_product *= fixed[i];
  }
  HCART_REQUIRE(machine.ranks() % fixed_product == 0,
                "hcart::make_plan: fixed dims " << impl::join_numbers(fixed, ",") << " (product "
                                                << fixed_product << ") do not divide the "
                                                << machine.ranks() << " ranks");
  check_capacity(mesh, bounds, machine.ranks());

  if (options.strategy == Strategy::Weighted) {
    FactorizeOptions fo;
    fo.fixed = fixed;
    fo.bounds = bounds;
    for (auto& b : fo.bounds)
      b = b >= max_factorize_n ? 0 : b;
    plan.dims = factorize(machine.ranks(), plan.weights, fo);
    plan.level_factors = {plan.dims};
    plan.hierarchical_placement = false;
    return plan;
  }
  plan.level_factors = split_over_levels(plan.weights, bounds, fixed, machine);
  plan.dims.assign(d, 1);
  for (const auto& level : plan.level_factors) {
    for (std::size_t i = 0; i < d; ++i)
      plan.dims[i] *= level[i];
  }
  plan.hierarchical_placement = true;
  return plan;
}

Plan plan_from_dims(Strategy strategy, const std::vector<std::int64_t>& dims,
                    const Machine& machine) {
  std::int64_t product = 1;
  for (std::int64_t x : dims) {
    HCART_REQUIRE(x >= 1, "hcart::plan_from_dims: dims " << impl::join_numbers(dims, ",")
                                                         << ", expected every entry >= 1");
    product *= x;
  }
  HCART_REQUIRE(product == machine.ranks(), "hcart::plan_from_dims: dims "
                                                << impl::join_numbers(dims, ",") << " multiply to "
                                                << product << ", expected " << machine.ranks());
  Plan plan;
  plan.strategy = strategy;
  plan.dims = dims;
  plan.level_factors = {dims};
  plan.hierarchical_placement = false;
  return plan;
}

} // namespace hcart
