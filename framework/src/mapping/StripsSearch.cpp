// The strips part of the exact search: the nodes take consecutive runs of the whole process
// grid in one of its orders of directions (a node's run wraps from one row of the grid to
// the next: strips, as mpicartreorderlib's stencil strips cut a grid, von Kirchbach, Schulz
// and Träff, 2020), for every order of the directions the grid cuts but the identity (row-major
// runs). A layout of node
// regions in which every node shares the one box, the whole grid, at its own offset
// (NodeRegion::run_offset), so the plans place and describe like any other; each counted
// message by message (runs_cost). These hold the best placements of given dims that no
// guillotine partition or row-major run reaches (3x2x2 on 3 nodes of 4: docs/algorithms.md,
// "Strips").
#include "mapping/PlanSearch.hpp"

#include <algorithm>

namespace hcart::impl {

void search_strips(const SearchContext& context,
                   const std::vector<std::vector<std::int64_t>>& grids, Chooser& chooser,
                   SearchStats& stats) {
  if (context.node_classes.empty() || context.levels() < 2 || context.ranks > strips_max_ranks)
    return;
  const int D = context.dims();
  // Every node's kind, in node order, and its first position in the runs.
  std::int64_t nodes = 0;
  for (const NodeClass& kind : context.node_classes)
    nodes += static_cast<std::int64_t>(kind.nodes.size());
  std::vector<int> order(static_cast<std::size_t>(nodes));
  for (std::size_t k = 0; k < context.node_classes.size(); ++k)
    for (const std::int64_t u : context.node_classes[k].nodes)
      order[static_cast<std::size_t>(u)] = static_cast<int>(k);
  std::vector<std::int64_t> offset(static_cast<std::size_t>(nodes), 0);
  for (std::size_t u = 1; u < offset.size(); ++u)
    offset[u] = offset[u - 1] + context.node_classes[order[u - 1]].ranks;
  for (const auto& dims : grids) {
    ++stats.strip_grids;
    std::vector<int> cut, uncut; // the directions the grid cuts, and the others
    for (int i = 0; i < D; ++i)
      (dims[i] > 1 ? cut : uncut).push_back(i);
    const std::vector<std::int64_t> origin(D, 0);
    do {
      std::vector<int> axes = cut;
      axes.insert(axes.end(), uncut.begin(), uncut.end());
      // The identity order is row-major runs (block order is node-major): their space, or a
      // level grid where the runs are boxes.
      if (std::is_sorted(cut.begin(), cut.end())) continue;
      Candidate c;
      c.layout = PlanLayout::NodeRegions;
      c.dims = dims;
      c.cost.levels = runs_cost(context, dims, origin, dims, order, axes);
      for (std::size_t l = 0; l < c.cost.levels.size(); ++l)
        c.cost.levels[l].name = context.level_names[l];
      for (std::int64_t u = 0; u < nodes; ++u)
        c.regions.push_back(
            NodeRegion{origin, dims, {}, axes, offset[static_cast<std::size_t>(u)]});
      chooser.offer(c);
    } while (std::next_permutation(cut.begin(), cut.end()));
  }
}

} // namespace hcart::impl
