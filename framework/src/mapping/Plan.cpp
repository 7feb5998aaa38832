// make_plan (include/hcart/mapping/Plan.hpp): the strategies' dims and the exact search's
// spaces for the Hierarchical and Manual strategies (PlanSearch.hpp), their limits checked
// and the chosen plan's words. Where a plan puts each rank is in PlanPlacement.cpp.
#include "mapping/FactorSearch.hpp"
#include "mapping/PlanSearch.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/PlanCost.hpp>
#include <hcart/mapping/TimeModel.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
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

std::vector<std::int64_t> bounds_for_factorize(std::vector<std::int64_t> bounds) {
  for (auto& b : bounds)
    b = b >= max_factorize_n ? 0 : b;
  return bounds;
}

// The weighted factorization within the bounds and fixed dims, and with equal blocks only
// among the dims that divide `divides` (an exhaustive search over the divisors: the same
// criteria, a filter).
std::vector<std::int64_t> weighted_dims(std::int64_t ranks, const std::vector<double>& weights,
                                        const std::vector<std::int64_t>& fixed,
                                        const std::vector<std::int64_t>& bounds,
                                        const std::vector<std::int64_t>& divides) {
  if (divides.empty()) {
    FactorizeOptions fo;
    fo.fixed = fixed;
    fo.bounds = bounds_for_factorize(bounds);
    return factorize(ranks, weights, fo);
  }
  const std::size_t d = weights.size();
  std::vector<std::int64_t> b(d);
  std::vector<bool> free_direction(d);
  for (std::size_t i = 0; i < d; ++i) {
    b[i] = std::max<std::int64_t>(1, std::min(bounds[i], ranks));
    free_direction[i] = fixed[i] == 0;
  }
  auto found = impl::factorize_filtered(
      ranks, weights, b, free_direction, [&](const std::vector<std::int64_t>& f) {
        for (std::size_t i = 0; i < d; ++i) {
          if ((fixed[i] > 0 && f[i] != fixed[i]) || divides[i] % f[i] != 0) return false;
        }
        return true;
      });
  HCART_REQUIRE(found.has_value(), "hcart::make_plan: no weighted factorization of "
                                       << ranks << " ranks divides "
                                       << impl::join_numbers(divides));
  return *found;
}

} // namespace

namespace impl {

Plan plan_of(const Candidate& c, Strategy strategy, const std::vector<double>& weights) {
  Plan plan;
  plan.strategy = strategy;
  plan.dims = c.dims;
  plan.layout = c.layout;
  plan.level_factors = c.level_factors;
  plan.node_regions = c.regions;
  plan.block_cart_rank = c.block_cart;
  plan.weights = weights;
  plan.cost = c.cost;
  plan.chosen_by = "bottleneck objective";
  return plan;
}

} // namespace impl

std::vector<double> objective_cost_factors(const Mesh& mesh, const std::vector<double>& weights) {
  validate(mesh);
  if (weights.empty()) return mesh.cost_factor;
  const std::size_t d = mesh.global_size.size();
  HCART_REQUIRE(weights.size() == d, "hcart::make_plan: " << weights.size() << " weights for a "
                                                          << d << "-dimensional mesh");
  std::vector<double> c(d, 0.0);
  for (std::size_t i = 0; i < d; ++i) {
    HCART_REQUIRE(std::isfinite(weights[i]) && weights[i] >= 0,
                  "hcart::make_plan: weight " << weights[i] << " in direction " << i
                                              << ", expected a finite value >= 0");
    if (mesh.halo_width[i] == 0) continue;
    double plane = 1.0;
    for (std::size_t j = 0; j < d; ++j)
      if (j != i) plane *= static_cast<double>(mesh.global_size[j]);
    c[i] = weights[i] / (mesh.halo_width[i] * plane);
  }
  return c;
}

Plan make_plan(const Mesh& mesh, const Machine& machine, const PlanOptions& options) {
  const std::size_t d = mesh.global_size.size();
  const std::vector<std::int64_t> bounds = cut_bounds(mesh); // validates the mesh
  HCART_REQUIRE(options.strategy != Strategy::Mpi,
                "hcart::make_plan: the mpi strategy needs MPI_Dims_create; use "
                "hcart::plan_decomposition");
  std::vector<double> weights = options.weights;
  if (weights.empty()) {
    weights = communication_weights(mesh);
  } else {
    HCART_REQUIRE(weights.size() == d, "hcart::make_plan: " << weights.size() << " weights for a "
                                                            << d << "-dimensional mesh");
  }
  std::vector<std::int64_t> fixed = options.dims;
  if (fixed.empty()) fixed.assign(d, 0);
  HCART_REQUIRE(fixed.size() == d,
                "hcart::make_plan: " << fixed.size() << " dims for a " << d << "-dimensional mesh");
  std::int64_t fixed_product = 1;
  bool product_past = false;
  for (std::size_t i = 0; i < d; ++i) {
    HCART_REQUIRE(fixed[i] >= 0, "hcart::make_plan: dims[" << i << "] = " << fixed[i]
                                                           << ", expected >= 0 (0 = free)");
    HCART_REQUIRE(!needs_all_dims(options.strategy) || fixed[i] > 0,
                  "hcart::make_plan: the " << to_string(options.strategy)
                                           << " strategy needs every dim, got dims "
                                           << impl::join_numbers(fixed, ","));
    HCART_REQUIRE(fixed[i] <= bounds[i],
                  "hcart::make_plan: dims "
                      << impl::join_numbers(fixed, ",") << " cuts direction " << i << " ("
                      << mesh.global_size[i] << " cells, halo " << mesh.halo_width[i] << ") into "
                      << fixed[i] << " pieces, more than its " << bounds[i]
                      << " (a rank must own at least a halo width of cells "
                         "in each direction it is cut in): choose dims["
                      << i << "] <= " << bounds[i] << ", or give direction " << i << " more cells");
    // A product past 64 bits is named as such (it divides nothing).
    if (fixed[i] > 0) {
      product_past = product_past || fixed_product > no_bound / fixed[i];
      if (!product_past) fixed_product *= fixed[i];
    }
  }
  HCART_REQUIRE(!product_past && machine.ranks() % fixed_product == 0,
                "hcart::make_plan: fixed dims "
                    << impl::join_numbers(fixed, ",") << " (product "
                    << (product_past ? std::string("past 2^63") : std::to_string(fixed_product))
                    << ") do not divide the " << machine.ranks() << " ranks");
  check_capacity(mesh, bounds, machine.ranks());
  const std::vector<std::int64_t> divides =
      options.equal_blocks ? equal_block_divisors(mesh) : std::vector<std::int64_t>{};
  if (options.equal_blocks) {
    for (std::size_t i = 0; i < d; ++i) {
      HCART_REQUIRE(
          fixed[i] == 0 || divides[i] % fixed[i] == 0,
          "hcart::make_plan: equal blocks: dims["
              << i << "] = " << fixed[i] << " does not divide direction " << i << "'s "
              << mesh.global_size[i] << " cells"
              << (block_multiple_of(mesh, i) > 1
                      ? " into whole blocks of " + std::to_string(block_multiple_of(mesh, i))
                      : std::string()));
    }
    HCART_REQUIRE(
        impl::factorizable(machine.ranks(), bounds, fixed, divides),
        "hcart::make_plan: equal blocks: no process grid of "
            << machine.ranks() << " ranks divides the mesh of "
            << impl::join_numbers(mesh.global_size) << " cells into blocks of one size"
            << (std::any_of(fixed.begin(), fixed.end(), [](std::int64_t x) { return x > 0; })
                    ? " with fixed dims " + impl::join_numbers(fixed, ",")
                    : std::string())
            << " (each dim must divide its direction's cells"
            << (std::any_of(mesh.block_multiple.begin(), mesh.block_multiple.end(),
                            [](std::int64_t m) { return m > 1; })
                    ? " in whole blocks of " + impl::join_numbers(mesh.block_multiple) + " cells"
                    : std::string())
            << ", within the cut bounds " << impl::join_numbers(bounds)
            << "): use a rank count whose factors divide the mesh, or allow blocks "
               "of unequal size");
  }
  const std::vector<double> cost_factors = objective_cost_factors(mesh, options.weights);

  // One weighted factorization in world order: the weighted strategy, and the seed's rule on
  // an uneven machine (it needs every unit of a level alike, and plans one level there, as
  // the seed paper falls back to).
  const bool one_level = options.strategy == Strategy::Levelwise && !machine.even();
  if (options.strategy == Strategy::Weighted || one_level) {
    Plan plan = plan_from_dims(
        options.strategy, weighted_dims(machine.ranks(), weights, fixed, bounds, divides), machine);
    plan.weights = weights;
    plan.chosen_by = one_level ? "seed rule (levelwise), one level: an uneven machine"
                               : "weighted factorization";
    return plan;
  }
  if (options.strategy == Strategy::Levelwise) {
    Plan plan;
    plan.strategy = Strategy::Levelwise;
    plan.level_factors = impl::levelwise_factors(weights, bounds, fixed, machine, divides);
    plan.dims.assign(d, 1);
    for (const auto& level : plan.level_factors) {
      for (std::size_t i = 0; i < d; ++i)
        plan.dims[i] *= level[i];
    }
    plan.layout = PlanLayout::LevelGrid;
    plan.weights = weights;
    plan.chosen_by = "seed rule (levelwise)";
    return plan;
  }

  // The strategies that search (the table's `searches`: hierarchical, manual): the exact search.
  impl::SearchContext context;
  context.problem = impl::load_problem(mesh, cost_factors, options.traffic);
  for (const auto& level : machine.levels()) {
    context.level_sizes.push_back(level.size);
    context.level_names.push_back(level.name);
  }
  context.ranks = machine.ranks();
  context.even = machine.even();
  context.fixed = fixed;
  context.divides = divides;
  HCART_REQUIRE(options.region_search_nodes >= 0,
                "hcart::make_plan: region_search_nodes = " << options.region_search_nodes
                                                           << ", expected >= 0");
  context.region_search_nodes = options.region_search_nodes;
  if (machine.level_count() >= 2 && machine.levels()[0].size <= options.region_search_nodes)
    context.node_classes = impl::node_classes(machine);
  context.block_units = impl::BlockUnits(machine);
  context.caps.resize(d);
  for (std::size_t i = 0; i < d; ++i)
    context.caps[i] = fixed[i] > 0 ? fixed[i] : std::min(bounds[i], machine.ranks());

  // Row-major runs where they are not a level grid already searched: every grid on small
  // machines, else the weighted factorization's and the caller's (MPI_Dims_create's).
  std::vector<std::vector<std::int64_t>> world_grids;
  auto add_world_grid = [&](const std::vector<std::int64_t>& g) {
    if (g.size() != d || !context.admits(g)) return;
    if (std::find(world_grids.begin(), world_grids.end(), g) != world_grids.end()) return;
    if (context.even && impl::runs_as_level_grid(g, context.level_sizes)) return;
    world_grids.push_back(g);
  };
  // An uneven machine without level grids: the weighted and the caller's grids at any size.
  const std::int64_t named_max =
      context.even ? impl::runs_named_grids_max_ranks : std::numeric_limits<std::int64_t>::max();
  if (machine.ranks() <= impl::runs_all_grids_max_ranks) {
    for (const auto& g :
         impl::ordered_factorizations(machine.ranks(), context.caps, context.grid_divisors()))
      add_world_grid(g);
  } else if (machine.ranks() <= named_max) {
    try {
      add_world_grid(weighted_dims(machine.ranks(), weights, fixed, bounds, divides));
    } catch (const InputError&) {
      // No weighted grid fits: the other spaces decide.
    }
    for (const auto& g : options.run_dims)
      add_world_grid(g);
  }
  // Strips (the whole grid in runs of nodes) on every admitted grid on small machines, else on
  // the given dims, the weighted factorization's and the caller's, up to strips_max_ranks.
  std::vector<std::vector<std::int64_t>> strip_grids;
  auto add_strip_grid = [&](const std::vector<std::int64_t>& g) {
    if (g.size() != d || !context.admits(g)) return;
    if (std::find(strip_grids.begin(), strip_grids.end(), g) == strip_grids.end())
      strip_grids.push_back(g);
  };
  if (machine.ranks() <= impl::runs_all_grids_max_ranks) {
    for (const auto& g :
         impl::ordered_factorizations(machine.ranks(), context.caps, context.grid_divisors()))
      add_strip_grid(g);
  } else if (machine.ranks() <= impl::strips_max_ranks) {
    if (std::all_of(fixed.begin(), fixed.end(), [](std::int64_t x) { return x > 0; }))
      add_strip_grid(fixed);
    try {
      add_strip_grid(weighted_dims(machine.ranks(), weights, fixed, bounds, divides));
    } catch (const InputError&) {
      // No weighted grid fits: the other grids decide.
    }
    for (const auto& g : options.run_dims)
      add_strip_grid(g);
  }
  // One search for either chooser (docs/algorithms.md, "One search, any chooser"): the
  // objective, or with measured figures the least predicted time, the objective breaking ties.
  std::optional<impl::TimeChooser> by_time;
  if (options.timings) {
    validate(*options.timings);
    Mesh costed = mesh;
    costed.cost_factor = cost_factors;
    impl::LoadProblem bytes = impl::load_problem(mesh, {}, options.traffic);
    // Closed form where every block is whole units of its block multiple and holds some: the
    // formulas count in those units (load_problem), which are whole where the multiple
    // divides the size (a grid hierarchy's nested_spec of a mesh that halves), and the blocks
    // are then the balanced rule over units, as over cells without multiples. (Elsewhere the
    // last unit is short, the formulas count it whole, and the plans are counted rank by rank:
    // at 10^6 ranks minutes where the closed form takes milliseconds, docs/benchmarks.md.)
    bool closed_form = true;
    for (int i = 0; i < context.dims(); ++i) {
      closed_form =
          closed_form &&
          mesh.global_size[i] % block_multiple_of(mesh, static_cast<std::size_t>(i)) == 0 &&
          context.caps[i] <= bytes.cells[i];
    }
    const bool costs_are_bytes =
        std::all_of(cost_factors.begin(), cost_factors.end(), [](double c) { return c == 1.0; });
    by_time.emplace(*options.timings, machine, std::move(costed), options.traffic, options.strategy,
                    weights, std::move(bytes), closed_form, costs_are_bytes);
  }
  impl::ObjectiveChooser objective;
  impl::Chooser& chooser = by_time ? static_cast<impl::Chooser&>(*by_time) : objective;
  impl::SearchStats stats;
  impl::search(context, chooser, world_grids, strip_grids, stats);
  HCART_REQUIRE(chooser.best() != nullptr,
                "hcart::make_plan: the "
                    << machine.ranks() << " ranks of machine '" << machine.to_string()
                    << "' fit on no process grid within the bounds "
                    << impl::join_numbers(context.caps)
                    << (std::any_of(context.fixed.begin(), context.fixed.end(),
                                    [](std::int64_t x) { return x > 0; })
                            ? " and fixed dims " + impl::join_numbers(context.fixed, ",")
                            : std::string()));
  std::string searched = context.even ? "level grids (" + std::to_string(stats.grid_pairs) +
                                            " node grid and box pairs counted)"
                                      : "an uneven machine: no level grids";
  if (stats.region_grids > 0 || !stats.regions_complete) {
    searched += "; node regions on " + std::to_string(stats.region_grids) + " grids (" +
                std::to_string(stats.region_boxes) + " boxes" +
                (stats.regions_complete ? ")" : ", stopped at the box budget)");
  }
  if (context.node_classes.size() > impl::region_search_max_kinds) {
    searched += "; node regions not searched (" + std::to_string(context.node_classes.size()) +
                " kinds of node, more than " + std::to_string(impl::region_search_max_kinds) + ")";
  }
  if (stats.run_grids > 0)
    searched += "; row-major runs on " + std::to_string(stats.run_grids) + " grids";
  if (stats.strip_grids > 0)
    searched += "; strips on " + std::to_string(stats.strip_grids) + " grids";
  if (stats.stencil_strips > 0)
    searched += "; " + std::to_string(stats.stencil_strips) + " stencil-strips placements";
  if (stats.partition_grids > 0)
    searched +=
        "; every partition into nodes on " + std::to_string(stats.partition_grids) + " grids";
  Plan plan = impl::plan_of(*chooser.best(), options.strategy, weights);
  plan.searched = searched;
  if (by_time) {
    plan.searched += "; with the machine file every level grid timed";
    const impl::Candidate* objective_best = chooser.objective_best();
    plan.chosen_by =
        objective_best != nullptr && impl::compare_candidates(*chooser.best(), *objective_best) == 0
            ? "predicted time (machine file), also the bottleneck objective's choice"
            : "predicted time (machine file)";
  }
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
  plan.layout = PlanLayout::WorldOrder;
  plan.level_factors = {dims};
  plan.chosen_by = strategy == Strategy::Mpi ? "MPI_Dims_create" : "given dims";
  return plan;
}

} // namespace hcart
