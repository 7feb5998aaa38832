// The node-region space's driver (search_node_regions, PlanSearch.hpp): the grids in the
// order of their cheapest node box, mirror images left out, one programme per grid within one
// budget of boxes, each grid's best offered to the chooser.
#include "mapping/search/RegionBounds.hpp"
#include "mapping/search/RegionProgramme.hpp"

#include <algorithm>

namespace hcart::impl {

using regions::alike_directions;
using regions::cheapest_node_box;
using regions::mirrored;
using regions::ProgrammeStore;
using regions::RegionProgramme;

void search_node_regions(const SearchContext& context, Chooser& chooser, SearchStats& stats) {
  const int L = context.levels();
  const std::int64_t nodes = context.level_sizes[0];
  if (L < 2 || nodes > context.region_search_nodes || (context.even && nodes < 3) ||
      context.node_classes.size() > region_search_max_kinds)
    return;
  const std::vector<std::vector<std::int64_t>> grids =
      ordered_factorizations(context.ranks, context.caps, context.grid_divisors());
  // The grids in the order of their cheapest node box (a lower bound on the busiest node),
  // so that the box budget goes to the most promising first and the search stops at the
  // first grid whose bound the chooser finds hopeless.
  // Directions alike (the same cells, wrap, limits and messages both ways) give grids that
  // are each other's mirror images: the same costs, of which the tie rule prefers the
  // largest dims. On an even machine (no runs, which follow one order of the directions)
  // only that one is searched: dims non-increasing over every class of alike directions.
  const std::vector<int> alike =
      context.even ? alike_directions(context, chooser.timed_bytes()) : std::vector<int>{};
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t i = 0; i < grids.size(); ++i)
    if (context.admits(grids[i]) && !mirrored(alike, grids[i]))
      order.emplace_back(cheapest_node_box(context, grids[i]), i);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ProgrammeStore& store = ProgrammeStore::of_this_thread(context.dims());
  for (const auto& [bound, g] : order) {
    if (chooser.hopeless(bound)) break;
    const std::vector<std::int64_t>& d = grids[g];
    const std::int64_t budget = region_search_max_boxes - stats.region_boxes;
    RegionProgramme programme(context, d, budget, chooser.node_cost_limit(), store);
    stats.region_boxes += programme.boxes();
    if (!programme.complete()) {
      stats.regions_complete = false;
      break;
    }
    ++stats.region_grids;
    Candidate c;
    c.layout = PlanLayout::NodeRegions;
    c.dims = d;
    // Given up as soon as a level of this grid's best is worse than the chooser's to_beat.
    const Candidate* to_beat = chooser.to_beat();
    bool worse = false;
    for (int l = 0; l < L && !worse; ++l) {
      LevelCost level{context.level_names[l], 0, 0};
      level.busiest = programme.stage(l, true);
      if (std::isinf(level.busiest)) { // no partition of this grid holds the nodes
        worse = true;
        break;
      }
      if (l == 0 && chooser.hopeless(level.busiest)) { // its busiest node alone loses
        worse = true;
        break;
      }
      programme.keep_optimal(l, true, level.busiest);
      level.total = programme.stage(l, false);
      programme.keep_optimal(l, false, level.total);
      c.cost.levels.push_back(level);
      if (to_beat != nullptr) {
        PlanCost prefix;
        prefix.levels.assign(to_beat->cost.levels.begin(), to_beat->cost.levels.begin() + l + 1);
        const int verdict = compare(c.cost, prefix);
        worse = verdict > 0;
        if (verdict < 0) to_beat = nullptr; // better already: finish it
      }
    }
    if (worse) continue;
    programme.collect(c.regions);
    const RegionMessages messages = node_region_messages(context.problem, d, c.regions, L);
    c.messages = messages.most;
    c.messages_exact = messages.exact;
    chooser.offer(c);
  }
}

} // namespace hcart::impl
