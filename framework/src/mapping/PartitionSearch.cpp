// The exhaustive part of the exact search, for small process grids: every assignment of the
// grid's ranks to the nodes (each node its count of ranks), by branch and bound on the node
// level's cost, the busiest node first, then the total. A small grid's best placement need be
// no box, run or strip (3x2x2 on 3 nodes of 4: two L-shapes and a box; docs/algorithms.md,
// "Small grids: every partition"), so none of the other spaces need hold it. The plan is a
// table (PlanLayout::Table): a node's ranks in block order take its positions in row-major
// order. Branches stop as soon as the cost they have fixed (costs only grow as positions are
// placed) is no better than the best plan so far, which the other spaces found first.
#include "mapping/PlanSearch.hpp"
#include "mapping/search/RegionBounds.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace hcart::impl {

namespace {

struct Link {
  std::int64_t other;
  double cost;
};

// Strictly better at the node level: (busiest, total) lexicographically, within the tolerance.
bool better(double busiest, double total, double best_busiest, double best_total) {
  if (best_busiest == std::numeric_limits<double>::infinity()) return true;
  return compare_level({"", busiest, total}, {"", best_busiest, best_total}) < 0;
}

// Whether some partition of the grid into nodes of `node_ranks` positions could beat
// (best_busiest, best_total): a node sends at least what the cheapest set of as many
// positions sends (every such set counted: at most C(16, 8) = 12870 of them), so every
// partition's busiest node is at least the largest of those minima over the nodes' sizes,
// and its total at least their sum. Where even that bound is no better, the branch and bound
// would explore the grid for nothing (its bound grows only as nodes fill).
bool better_possible(const std::vector<std::vector<Link>>& out,
                     const std::vector<std::int64_t>& node_ranks, double best_busiest,
                     double best_total) {
  const auto P = static_cast<int>(out.size());
  if (best_busiest == std::numeric_limits<double>::infinity() || P > 16) return true;
  // What each position sends in all, and to each other position.
  std::vector<double> sends(P, 0.0), to(static_cast<std::size_t>(P) * P, 0.0);
  for (int q = 0; q < P; ++q)
    for (const Link& l : out[q]) {
      sends[q] += l.cost;
      to[static_cast<std::size_t>(q) * P + l.other] += l.cost;
    }
  std::vector<double> cheapest(P + 1, -1.0); // by set size, once counted
  const auto cheapest_of = [&](int size) {
    if (cheapest[size] >= 0) return cheapest[size];
    double least = std::numeric_limits<double>::infinity();
    // Every set of `size` positions as a bit mask, in increasing order (Gosper's rule).
    for (std::uint32_t set = (1u << size) - 1; set < (1u << P);) {
      double cost = 0;
      for (std::uint32_t a = set; a != 0; a &= a - 1) {
        const int q = __builtin_ctz(a);
        cost += sends[q];
        for (std::uint32_t b = set; b != 0; b &= b - 1)
          cost -= to[static_cast<std::size_t>(q) * P + __builtin_ctz(b)];
      }
      least = std::min(least, cost);
      const std::uint32_t low = set & (~set + 1), ripple = set + low;
      set = (((ripple ^ set) >> 2) / low) | ripple;
    }
    return cheapest[size] = least;
  };
  double busiest = 0, total = 0;
  for (const std::int64_t r : node_ranks) {
    const double c = cheapest_of(static_cast<int>(r));
    busiest = std::max(busiest, c);
    total += c;
  }
  return better(busiest, total, best_busiest, best_total);
}

} // namespace

void search_partitions(const SearchContext& context,
                       const std::vector<std::vector<std::int64_t>>& grids, Chooser& chooser,
                       SearchStats& stats) {
  if (context.node_classes.empty() || context.levels() < 2 ||
      context.ranks > partitions_max_ranks || chooser.timed_bytes() != nullptr)
    return;
  const std::int64_t P = context.ranks;
  const std::vector<std::int64_t> node_ranks = ranks_per_node(context);
  const std::size_t N = node_ranks.size();

  // Directions alike (the same cells, wrap, limits and messages both ways) give grids that
  // are each other's mirror images, their partitions too at the node level's costs: only
  // the one with dims non-increasing over every class of alike directions is searched.
  const std::vector<int> alike = regions::alike_directions(context, nullptr);
  for (const auto& dims : grids) {
    if (regions::mirrored(alike, dims)) continue;
    // Every position's messages to others, both ways (row-major positions).
    const std::vector<GridMessage> messages = grid_messages(context, dims);
    std::vector<std::vector<Link>> out(P), in(P);
    for (const GridMessage& m : messages) {
      out[m.from].push_back({m.to, m.cost});
      in[m.to].push_back({m.from, m.cost});
    }
    const Candidate* incumbent = chooser.best();
    double best_busiest =
        incumbent ? incumbent->cost.levels[0].busiest : std::numeric_limits<double>::infinity();
    double best_total =
        incumbent ? incumbent->cost.levels[0].total : std::numeric_limits<double>::infinity();
    if (!better_possible(out, node_ranks, best_busiest, best_total)) continue;
    ++stats.partition_grids;
    std::vector<int> node(P, -1), best_node;
    std::vector<std::int64_t> room(node_ranks);
    std::vector<double> sent(N, 0.0);
    double total = 0;
    // An empty node is tried only where no earlier node of its size is empty too (nodes of
    // one size are interchangeable).
    std::vector<std::size_t> same_before(N, N); // the previous node of the same size, or N
    for (std::size_t u = 0; u < N; ++u)
      for (std::size_t v = u; v-- > 0 && same_before[u] == N;)
        if (node_ranks[v] == node_ranks[u]) same_before[u] = v;
    // ahead[u]: what node u's positions send to positions not placed yet. Once u is full,
    // those all leave it: part of its cost already, which bounds the branch sooner.
    std::vector<double> ahead(N, 0.0);
    const auto bound = [&] {
      double busiest = 0, sum = total;
      for (std::size_t u = 0; u < N; ++u) {
        const double full = room[u] == 0 ? ahead[u] : 0.0;
        busiest = std::max(busiest, sent[u] + full);
        sum += full;
      }
      return std::make_pair(busiest, sum);
    };
    const auto place = [&](const auto& self, std::int64_t q) -> void {
      if (q == P) {
        best_busiest = *std::max_element(sent.begin(), sent.end());
        best_total = total;
        best_node = node;
        return;
      }
      for (std::size_t u = 0; u < N; ++u) {
        if (room[u] == 0) continue;
        if (room[u] == node_ranks[u] && same_before[u] < N &&
            room[same_before[u]] == node_ranks[same_before[u]])
          continue;
        const int here = static_cast<int>(u);
        // Placing q on u fixes its messages to and from placed positions of other nodes, and
        // moves what placed positions send to q out of their nodes' ahead.
        double more = 0, forward = 0;
        for (const Link& l : out[q]) {
          if (l.other > q) {
            forward += l.cost;
          } else if (node[l.other] != here) {
            sent[u] += l.cost;
            more += l.cost;
          }
        }
        for (const Link& l : in[q]) {
          if (l.other > q) continue;
          ahead[node[l.other]] -= l.cost;
          if (node[l.other] != here) {
            sent[node[l.other]] += l.cost;
            more += l.cost;
          }
        }
        total += more;
        ahead[u] += forward;
        node[q] = here;
        --room[u];
        const auto [busiest, sum] = bound();
        if (better(busiest, sum, best_busiest, best_total)) self(self, q + 1);
        ++room[u];
        node[q] = -1;
        ahead[u] -= forward;
        for (const Link& l : out[q])
          if (l.other < q && node[l.other] != here) sent[u] -= l.cost;
        for (const Link& l : in[q]) {
          if (l.other > q) continue;
          ahead[node[l.other]] += l.cost;
          if (node[l.other] != here) sent[node[l.other]] -= l.cost;
        }
        total -= more;
      }
    };
    place(place, 0);
    if (best_node.empty()) continue; // nothing better than the other spaces' best
    chooser.offer(table_candidate(context, dims, best_node, messages));
  }
}

std::vector<GridMessage> grid_messages(const SearchContext& context,
                                       const std::vector<std::int64_t>& dims) {
  // Room for every position's messages at once (at most one per term): growing by copies
  // cost a 4096-rank grid a fifth of its plan, the pages of room never written nothing.
  std::size_t ranks = 1;
  for (const std::int64_t d : dims)
    ranks *= static_cast<std::size_t>(d);
  std::vector<GridMessage> messages;
  messages.reserve(ranks * context.problem.terms.size());
  for_each_grid_message(context, dims, [&](std::int64_t from, std::int64_t to, double cost) {
    if (to != from && cost != 0) messages.push_back({from, to, cost});
  });
  return messages;
}

Candidate table_candidate(const SearchContext& context, const std::vector<std::int64_t>& dims,
                          const std::vector<int>& node, const std::vector<GridMessage>& messages) {
  const int L = context.levels();
  const auto P = static_cast<std::int64_t>(node.size());
  // Every node's first block number, in node order.
  std::vector<std::int64_t> next = ranks_per_node(context);
  std::int64_t first = 0;
  for (std::int64_t& n : next)
    first += std::exchange(n, first);
  // Node u's ranks in block order take its positions in row-major order.
  Candidate candidate;
  candidate.layout = PlanLayout::Table;
  candidate.dims = dims;
  candidate.block_cart.assign(P, 0);
  std::vector<std::int64_t> block_at(P);
  for (std::int64_t q = 0; q < P; ++q) {
    const std::int64_t b = next[node[q]]++;
    candidate.block_cart[b] = q;
    block_at[q] = b;
  }
  // Its cost at every level, message by message (as row-major runs are counted).
  std::vector<std::vector<double>> level_sent(L);
  std::vector<std::int64_t> unit_from(L), unit_to(L);
  for (const GridMessage& m : messages) {
    context.block_units.units(block_at[m.from], unit_from.data());
    context.block_units.units(block_at[m.to], unit_to.data());
    int level = 0;
    while (level < L && unit_from[level] == unit_to[level])
      ++level;
    if (level == L) continue;
    auto& row = level_sent[level];
    if (static_cast<std::int64_t>(row.size()) <= unit_from[level])
      row.resize(unit_from[level] + 1, 0.0);
    row[unit_from[level]] += m.cost;
  }
  for (int l = 0; l < L; ++l) {
    LevelCost level{context.level_names[l], 0, 0};
    for (const double v : level_sent[l]) {
      level.busiest = std::max(level.busiest, v);
      level.total += v;
    }
    candidate.cost.levels.push_back(level);
  }
  return candidate;
}

} // namespace hcart::impl
