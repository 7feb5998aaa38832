// The strips part of the exact search: the nodes take consecutive runs of the whole process
// grid in one of its orders of directions (a node's run wraps from one row of the grid to
// the next: strips, as mpicartreorderlib's stencil strips cut a grid, von Kirchbach, Schulz
// and Träff, 2020), for every order of the directions the grid cuts but the identity (row-major
// runs). A layout of node
// regions in which every node shares the one box, the whole grid, at its own offset
// (NodeRegion::run_offset), so the plans place and describe like any other; each counted
// message by message (runs_cost). These hold the best placements of given dims that no
// guillotine partition or row-major run reaches (3x2x2 on 3 nodes of 4: docs/algorithms.md,
// "Strips"). Below, stencil strips: the nodes' runs through nested strips of every order of
// the directions, snaking or not, the best of a grid a table (docs/algorithms.md, "Stencil
// strips").
#include "mapping/PlanSearch.hpp"

#include <algorithm>
#include <cmath>

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
  // The node of every run position (node-major: node u's ranks one after another).
  std::vector<int> node_at(static_cast<std::size_t>(context.ranks));
  for (std::int64_t u = 0, p = 0; u < nodes; ++u)
    for (std::int64_t k = 0; k < context.node_classes[order[u]].ranks; ++k)
      node_at[p++] = static_cast<int>(u);
  // An order whose busiest node alone passes the chooser by (it loses, and by time it
  // cannot change the objective's record either) is not counted level by level: its node
  // level from the grid's messages (listed once per grid) decides first.
  std::vector<double> sent(static_cast<std::size_t>(nodes));
  std::vector<std::int64_t> run_at(static_cast<std::size_t>(context.ranks)), coords(D);
  const auto busiest_node = [&](const std::vector<std::int64_t>& dims, const std::vector<int>& axes,
                                const std::vector<GridMessage>& messages) {
    for (std::int64_t q = 0; q < context.ranks; ++q) { // row-major q's place in the runs
      std::int64_t rest = q;
      for (int i = D; i-- > 0;) {
        coords[i] = rest % dims[i];
        rest /= dims[i];
      }
      std::int64_t p = 0;
      for (int k = 0; k < D; ++k)
        p = p * dims[axes[k]] + coords[axes[k]];
      run_at[q] = p;
    }
    std::fill(sent.begin(), sent.end(), 0.0);
    for (const GridMessage& m : messages) {
      const int from = node_at[run_at[m.from]];
      if (from != node_at[run_at[m.to]]) sent[from] += m.cost;
    }
    return *std::max_element(sent.begin(), sent.end());
  };
  for (const auto& dims : grids) {
    ++stats.strip_grids;
    std::vector<int> cut, uncut; // the directions the grid cuts, and the others
    for (int i = 0; i < D; ++i)
      (dims[i] > 1 ? cut : uncut).push_back(i);
    const std::vector<std::int64_t> origin(D, 0);
    const std::vector<GridMessage> messages = grid_messages(context, dims);
    do {
      std::vector<int> axes = cut;
      axes.insert(axes.end(), uncut.begin(), uncut.end());
      // The identity order is row-major runs (block order is node-major): their space, or a
      // level grid where the runs are boxes.
      if (std::is_sorted(cut.begin(), cut.end())) continue;
      if (chooser.passes_by(busiest_node(dims, axes, messages))) continue;
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

namespace {

// The order of stencil strips over grid `dims`: for the order of directions `axes`, direction
// axes[l] (l < D-1) cut into count[l] strips (the first n % count thicker by one), nested;
// inside the innermost strip the layers of axes[D-1] one by one, and inside a layer its
// cells in row-major order of axes[0 .. D-2]. Snaking, a level runs backwards where the
// strips around it have an odd number of odd indices, so that each strip starts where the
// previous one ended. Writes the positions (row-major ranks) in that order to `out`.
class StripsOrder {
public:
  StripsOrder(const std::vector<std::int64_t>& dims, const std::vector<int>& axes,
              const std::vector<std::int64_t>& count, bool snake)
      : m_dims(dims), m_axes(axes), m_count(count), m_snake(snake), m_lo(dims.size(), 0),
        m_hi(dims.size(), 1) {}

  void write(std::vector<std::int64_t>& out) {
    out.clear();
    level(0, false, out);
  }

private:
  void level(std::size_t l, bool backwards, std::vector<std::int64_t>& out) {
    const int a = m_axes[l];
    const std::int64_t n = m_dims[a];
    const std::int64_t strips = l + 1 == m_axes.size() ? n : m_count[l];
    for (std::int64_t t = 0; t < strips; ++t) {
      const std::int64_t s = backwards ? strips - 1 - t : t;
      // Strip s: the thicker strips first.
      const std::int64_t thin = n / strips, thick = n % strips;
      m_lo[a] = s * thin + std::min(s, thick);
      m_hi[a] = m_lo[a] + thin + (s < thick ? 1 : 0);
      if (l + 1 < m_axes.size()) {
        level(l + 1, backwards != (m_snake && s % 2 == 1), out);
      } else {
        layer(out);
      }
    }
  }

  // The cells of the current layer, row-major over axes[0 .. D-2].
  void layer(std::vector<std::int64_t>& out) {
    const std::size_t D = m_dims.size();
    std::vector<std::int64_t>& c = m_cell;
    c = m_lo;
    while (true) {
      std::int64_t q = 0;
      for (std::size_t i = 0; i < D; ++i)
        q = q * m_dims[i] + c[i];
      out.push_back(q);
      std::size_t l = D - 1; // advance the last of axes[0 .. D-2] first
      while (l-- > 0) {
        const int a = m_axes[l];
        if (++c[a] < m_hi[a]) break;
        c[a] = m_lo[a];
      }
      if (l == static_cast<std::size_t>(-1)) return;
    }
  }

  const std::vector<std::int64_t>& m_dims;
  const std::vector<int>& m_axes;
  const std::vector<std::int64_t>& m_count;
  bool m_snake;
  std::vector<std::int64_t> m_lo, m_hi, m_cell;
};

// How many counts of strips are tried per direction: every count, the heuristic's and one
// either side, or the heuristic's alone (strips as thick as the D-th root of a node's ranks
// left to place where D directions are left, as stencil strips takes them).
enum class StripCounts { Every, Near, Heuristic };

std::vector<std::int64_t> strip_counts(std::int64_t n, double node_left, int directions_left,
                                       StripCounts which) {
  std::vector<std::int64_t> counts;
  if (which == StripCounts::Every) {
    for (std::int64_t q = 1; q <= n; ++q)
      counts.push_back(q);
    return counts;
  }
  const auto thick = std::max<std::int64_t>(
      1, std::llround(std::pow(node_left, 1.0 / std::max(1, directions_left))));
  const std::int64_t q = std::max<std::int64_t>(1, n / thick);
  if (which == StripCounts::Heuristic) return {q};
  for (const std::int64_t c : {q - 1, q, q + 1})
    if (c >= 1 && c <= n) counts.push_back(c);
  return counts;
}

// The stencil strips of one grid within `budget` message visits (at least the heuristic's
// counts): the best at the node level, offered as a table.
void stencil_strips_of(const SearchContext& context, const std::vector<std::int64_t>& dims,
                       double budget, Chooser& chooser, SearchStats& stats) {
  const int D = context.dims();
  const std::vector<std::int64_t> node_ranks = ranks_per_node(context);
  const std::vector<GridMessage> messages = grid_messages(context, dims);
  std::vector<int> axes(D);
  for (int i = 0; i < D; ++i)
    axes[i] = i;
  // The whole family where it fits the budget (2 ways times every count of the first D-1
  // directions, for every order), else the heuristic's counts and one either side where
  // those fit (at most 3^(D-1) per order), else the heuristic's alone.
  double family = 0, orders = 0;
  do {
    double placements = 2;
    for (int l = 0; l + 1 < D; ++l)
      placements *= static_cast<double>(dims[axes[l]]);
    family += placements;
    ++orders;
  } while (std::next_permutation(axes.begin(), axes.end()));
  const auto fits = [&](double placements) {
    return placements * static_cast<double>(messages.size()) <= budget;
  };
  const StripCounts which = fits(family)                              ? StripCounts::Every
                            : fits(2 * orders * std::pow(3.0, D - 1)) ? StripCounts::Near
                                                                      : StripCounts::Heuristic;
  const double node_size =
      static_cast<double>(*std::max_element(node_ranks.begin(), node_ranks.end()));

  std::vector<int> node(static_cast<std::size_t>(context.ranks)), best_node;
  std::vector<double> sent(node_ranks.size());
  double best_busiest = 0, best_total = 0;
  std::vector<std::int64_t> order;
  std::vector<std::int64_t> count(D, 1);
  const auto place = [&](bool snake) {
    StripsOrder(dims, axes, count, snake).write(order);
    std::size_t u = 0;
    std::int64_t held = 0;
    for (const std::int64_t q : order) {
      if (held == node_ranks[u]) {
        ++u;
        held = 0;
      }
      node[static_cast<std::size_t>(q)] = static_cast<int>(u);
      ++held;
    }
    std::fill(sent.begin(), sent.end(), 0.0);
    double total = 0;
    for (const GridMessage& m : messages)
      if (node[m.from] != node[m.to]) {
        sent[node[m.from]] += m.cost;
        total += m.cost;
      }
    ++stats.stencil_strips;
    const double busiest = *std::max_element(sent.begin(), sent.end());
    if (best_node.empty() ||
        compare_level({"", busiest, total}, {"", best_busiest, best_total}) < 0) {
      best_node = node;
      best_busiest = busiest;
      best_total = total;
    }
  };
  const auto each_count = [&](const auto& self, int l, double node_left) -> void {
    if (l + 1 >= D) {
      place(false);
      place(true);
      return;
    }
    for (const std::int64_t c : strip_counts(dims[axes[l]], node_left, D - l, which)) {
      count[l] = c;
      // The strip's thickness takes its share of a node's ranks.
      const double thick = static_cast<double>(dims[axes[l]]) / static_cast<double>(c);
      self(self, l + 1, std::max(1.0, node_left / thick));
    }
  };
  std::sort(axes.begin(), axes.end());
  do {
    each_count(each_count, 0, node_size);
  } while (std::next_permutation(axes.begin(), axes.end()));
  if (best_node.empty() || chooser.hopeless(best_busiest)) return;
  chooser.offer(table_candidate(context, dims, best_node, messages));
}

} // namespace

void search_stencil_strips(const SearchContext& context,
                           const std::vector<std::vector<std::int64_t>>& grids, Chooser& chooser,
                           SearchStats& stats) {
  if (context.node_classes.empty() || context.levels() < 2 || context.ranks > strips_max_ranks)
    return;
  const double budget = static_cast<double>(stencil_strips_budget) /
                        static_cast<double>(std::max<std::size_t>(1, grids.size()));
  for (const auto& dims : grids)
    stencil_strips_of(context, dims, budget, chooser, stats);
}

} // namespace hcart::impl
