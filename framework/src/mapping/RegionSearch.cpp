// The node-region space of the exact search: every guillotine partition of a process grid
// into node boxes (recursive axis-aligned cuts, every piece holding whole nodes), each box
// cut into the finer levels by a level grid of its own.
//
// A dynamic programme over the boxes the cuts can reach. The objective is lexicographic in
// (busiest, total) per level, and both parts decompose over the boxes of a partition:
//   busiest: the busiest node of a partition is the largest of its boxes' costs, so the best
//            value of a box is the smallest, over its cuts, of the larger of its two halves';
//            the optimal partitions are then exactly those whose every leaf stays within the
//            optimum: leaves and cuts beyond it are struck out;
//   total:   the total is the sum over the boxes, so a partition is optimal exactly when every
//            box in it takes a choice that reaches its own best sum: the others are struck out.
// Running the two stages for the node level and then for every finer level (each leaf's own
// level grids as its options) leaves exactly the partitions optimal for the whole objective;
// the first surviving choice, in a fixed order, is the plan.
#include "mapping/PlanSearch.hpp"

#include <hcart/core/Error.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <unordered_map>

namespace hcart::impl {

namespace {

constexpr double infinite = std::numeric_limits<double>::infinity();

bool within(double value, double optimum) {
  return !std::isinf(value) && compare_level({"", value, 0}, {"", optimum, 0}) <= 0;
}

struct LeafOption {
  std::vector<std::vector<std::int64_t>> factors; // levels 1 .. L-1
  std::vector<LevelCost> costs;                   // levels 1 .. L-1
  bool ok = true;
};

struct Box {
  std::vector<std::int64_t> lo, hi;
  bool leaf = false;
  std::vector<std::pair<int, int>> cuts;
  std::vector<char> cut_ok;
  double node_cost = 0; // leaves: what the node sends to other nodes
  bool options_made = false;
  std::vector<LeafOption> options;
  bool ok = true; // leaves: still allowed
  double value = 0;
};

class RegionProgramme {
public:
  RegionProgramme(const SearchContext& context, std::vector<std::int64_t> dims, std::int64_t budget)
      : m_context(context), m_dims(std::move(dims)), m_budget(budget) {
    m_per_node = context.ranks / context.level_sizes[0];
    // Keys: (lo_i, hi_i) as digits of base d_i + 1, when the number fits 64 bits.
    double room = 1;
    for (std::int64_t x : m_dims)
      room *= static_cast<double>(x + 1) * static_cast<double>(x + 1);
    m_narrow_keys = room < 1.8e19;
    m_boxes.reserve(1024);
    std::vector<std::int64_t> lo(m_dims.size(), 0);
    m_root = visit(lo, m_dims);
  }

  bool complete() const { return !m_over_budget; }
  std::int64_t boxes() const { return static_cast<std::int64_t>(m_boxes.size()); }

  // Stage (level, busiest or total): the boxes' values and the optimum at the root.
  double stage(int level, bool busiest) {
    for (int b : m_order) {
      Box& box = m_boxes[b];
      double v = infinite;
      if (box.leaf) {
        if (box.ok) {
          if (level == 0) {
            v = box.node_cost;
          } else {
            make_options(box);
            for (const auto& o : box.options) {
              if (!o.ok) continue;
              const LevelCost& c = o.costs[level - 1];
              v = std::min(v, busiest ? c.busiest : c.total);
            }
          }
        }
      } else {
        for (std::size_t k = 0; k < box.cuts.size(); ++k) {
          if (!box.cut_ok[k]) continue;
          const double a = m_boxes[box.cuts[k].first].value;
          const double b2 = m_boxes[box.cuts[k].second].value;
          v = std::min(v, busiest ? std::max(a, b2) : a + b2);
        }
      }
      box.value = v;
    }
    return m_boxes[m_root].value;
  }

  // Strikes out what cannot be part of an optimal partition after a stage.
  void keep_optimal(int level, bool busiest, double optimum) {
    for (int b : m_order) {
      Box& box = m_boxes[b];
      if (box.leaf) {
        if (!box.ok) continue;
        if (level == 0) {
          box.ok = busiest ? within(box.node_cost, optimum) : within(box.node_cost, box.value);
          continue;
        }
        bool any = false;
        for (auto& o : box.options) {
          if (!o.ok) continue;
          const LevelCost& c = o.costs[level - 1];
          o.ok = busiest ? within(c.busiest, optimum) : within(c.total, box.value);
          any = any || o.ok;
        }
        box.ok = any;
      } else {
        for (std::size_t k = 0; k < box.cuts.size(); ++k) {
          if (!box.cut_ok[k]) continue;
          const double a = m_boxes[box.cuts[k].first].value;
          const double b2 = m_boxes[box.cuts[k].second].value;
          box.cut_ok[k] =
              busiest ? (within(a, optimum) && within(b2, optimum)) : within(a + b2, box.value);
        }
      }
    }
  }

  // The first surviving partition: its leaves in depth-first order.
  void collect(int b, std::vector<NodeRegion>& regions) {
    Box& box = m_boxes[b];
    if (box.leaf) {
      NodeRegion r;
      r.origin = box.lo;
      r.extent.resize(box.lo.size());
      for (std::size_t i = 0; i < box.lo.size(); ++i)
        r.extent[i] = box.hi[i] - box.lo[i];
      make_options(box);
      for (const auto& o : box.options) {
        if (o.ok) {
          r.level_factors = o.factors;
          break;
        }
      }
      regions.push_back(std::move(r));
      return;
    }
    for (std::size_t k = 0; k < box.cuts.size(); ++k) {
      if (!box.cut_ok[k]) continue;
      const auto [first, second] = box.cuts[k];
      collect(first, regions);
      collect(second, regions);
      return;
    }
  }
  int root() const { return m_root; }

private:
  // The box's number in the index, or -1 (then `key` holds it for inserting).
  int find(const std::vector<std::int64_t>& lo, const std::vector<std::int64_t>& hi,
           std::uint64_t& key) {
    if (m_narrow_keys) {
      key = 0;
      for (std::size_t i = 0; i < lo.size(); ++i)
        key =
            (key * static_cast<std::uint64_t>(m_dims[i] + 1) + static_cast<std::uint64_t>(lo[i])) *
                static_cast<std::uint64_t>(m_dims[i] + 1) +
            static_cast<std::uint64_t>(hi[i]);
      const auto found = m_index.find(key);
      return found == m_index.end() ? -1 : found->second;
    }
    std::vector<std::int64_t> wide = lo;
    wide.insert(wide.end(), hi.begin(), hi.end());
    const auto found = m_wide_index.find(wide);
    return found == m_wide_index.end() ? -1 : found->second;
  }

  int visit(const std::vector<std::int64_t>& lo, const std::vector<std::int64_t>& hi) {
    std::uint64_t key = 0;
    if (const int known = find(lo, hi, key); known >= 0) return known;
    if (static_cast<std::int64_t>(m_boxes.size()) >= m_budget) {
      m_over_budget = true;
      return -1;
    }
    const int id = static_cast<int>(m_boxes.size());
    if (m_narrow_keys) {
      m_index.emplace(key, id);
    } else {
      std::vector<std::int64_t> wide = lo;
      wide.insert(wide.end(), hi.begin(), hi.end());
      m_wide_index.emplace(std::move(wide), id);
    }
    std::int64_t volume = 1;
    for (std::size_t i = 0; i < lo.size(); ++i)
      volume *= hi[i] - lo[i];
    m_boxes.emplace_back();
    {
      Box& box = m_boxes.back();
      box.lo = lo;
      box.hi = hi;
      box.leaf = volume == m_per_node;
    }
    if (m_boxes[id].leaf) {
      std::vector<Span> spans(lo.size());
      for (std::size_t i = 0; i < lo.size(); ++i) {
        spans[i] = span_of(m_context.problem.cells[i], m_dims[i], m_context.problem.periodic[i],
                           lo[i], hi[i], 0, m_dims[i]);
      }
      m_boxes[id].node_cost = unit_cost(m_context.problem, spans.data());
    } else {
      for (std::size_t i = 0; i < lo.size() && !m_over_budget; ++i) {
        const std::int64_t extent = hi[i] - lo[i], slab = volume / extent;
        for (std::int64_t p = 1; p < extent && !m_over_budget; ++p) {
          if ((p * slab) % m_per_node != 0) continue;
          std::vector<std::int64_t> mid_hi = hi, mid_lo = lo;
          mid_hi[i] = lo[i] + p;
          mid_lo[i] = lo[i] + p;
          const int first = visit(lo, mid_hi);
          const int second = visit(mid_lo, hi);
          if (first < 0 || second < 0) break;
          m_boxes[id].cuts.emplace_back(first, second);
        }
      }
      m_boxes[id].cut_ok.assign(m_boxes[id].cuts.size(), 1);
    }
    m_order.push_back(id); // children before parents
    return id;
  }

  void make_options(Box& box) {
    if (box.options_made) return;
    box.options_made = true;
    const int D = m_context.dims(), L = m_context.levels();
    std::vector<std::int64_t> extent(D);
    for (int i = 0; i < D; ++i)
      extent[i] = box.hi[i] - box.lo[i];
    // Every chain of level factors for levels 1 .. L-1 whose product is the extent.
    std::vector<std::vector<std::int64_t>> chain;
    auto evaluate = [&]() {
      LeafOption o;
      o.factors = chain;
      GridLevel g;
      g.coords = m_dims;
      g.frame_lo = box.lo;
      g.frame_hi = box.hi;
      std::vector<std::int64_t> parent(D, 1);
      for (int l = 1; l < L; ++l) {
        std::vector<std::int64_t> groups(D);
        for (int i = 0; i < D; ++i)
          groups[i] = parent[i] * chain[l - 1][i];
        g.parent_groups = parent;
        g.groups = groups;
        LevelCost c = grid_level_cost(m_context.problem, g);
        c.name = m_context.level_names[l];
        o.costs.push_back(c);
        parent = groups;
      }
      box.options.push_back(std::move(o));
    };
    std::function<void(int, std::vector<std::int64_t>)> walk = [&](int l,
                                                                   std::vector<std::int64_t> rest) {
      if (l == L - 1) {
        chain.push_back(rest);
        evaluate();
        chain.pop_back();
        return;
      }
      for (const auto& f : ordered_factorizations(m_context.level_sizes[l], rest, rest)) {
        std::vector<std::int64_t> next(D);
        for (int i = 0; i < D; ++i)
          next[i] = rest[i] / f[i];
        chain.push_back(f);
        walk(l + 1, next);
        chain.pop_back();
      }
    };
    walk(1, extent);
  }

  const SearchContext& m_context;
  std::vector<std::int64_t> m_dims;
  std::int64_t m_budget = 0, m_per_node = 1;
  std::vector<Box> m_boxes;
  std::unordered_map<std::uint64_t, int> m_index;        // boxes by key (when it fits 64 bits)
  std::map<std::vector<std::int64_t>, int> m_wide_index; // otherwise
  bool m_narrow_keys = true;
  std::vector<int> m_order;
  int m_root = -1;
  bool m_over_budget = false;
};

// A lower bound of the busiest node of every partition of grid `dims` into node boxes: the
// cheapest cost any box of a node's volume can have, counted with the fewest cells a box of
// its extent can own and placed against the boundary in every direction (the fewest
// neighbours), over every extent and corner.
double cheapest_node_box(const SearchContext& context, const std::vector<std::int64_t>& dims) {
  const int D = context.dims();
  const std::int64_t per_node = context.ranks / context.level_sizes[0];
  double cheapest = infinite;
  std::vector<Span> spans(D);
  for (const auto& e : ordered_factorizations(per_node, dims)) {
    for (std::uint32_t corner = 0; corner < (1u << D); ++corner) {
      for (int i = 0; i < D; ++i) {
        const std::int64_t lo = (corner >> i) & 1u ? dims[i] - e[i] : 0;
        spans[i] = span_of(context.problem.cells[i], dims[i], context.problem.periodic[i], lo,
                           lo + e[i], 0, dims[i]);
        spans[i].cells = static_cast<double>(e[i] * (context.problem.cells[i] / dims[i]));
      }
      cheapest = std::min(cheapest, unit_cost(context.problem, spans.data()));
    }
  }
  return cheapest;
}

} // namespace

std::optional<Candidate> search_node_regions(const SearchContext& context,
                                             const std::vector<std::int64_t>* only_dims,
                                             const Candidate* incumbent, SearchStats& stats) {
  const int L = context.levels();
  const std::int64_t nodes = context.level_sizes[0];
  if (L < 2 || nodes < 3 || nodes > context.region_search_nodes) return std::nullopt;
  std::vector<std::vector<std::int64_t>> grids;
  if (only_dims != nullptr) {
    grids.push_back(*only_dims);
  } else {
    grids = ordered_factorizations(context.ranks, context.caps, context.fixed);
  }
  // The grids in the order of their cheapest node box (a lower bound on the busiest node),
  // so that the box budget goes to the most promising first and the search stops at the
  // first grid that cannot beat the best plan.
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t i = 0; i < grids.size(); ++i)
    if (context.admits(grids[i])) order.emplace_back(cheapest_node_box(context, grids[i]), i);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::optional<Candidate> best;
  for (const auto& [bound, index] : order) {
    const std::vector<std::int64_t>& d = grids[index];
    const Candidate* to_beat = best ? &*best : incumbent;
    if (to_beat != nullptr &&
        compare_level({"", bound, 0}, {"", to_beat->cost.levels[0].busiest, 0}) > 0)
      break;
    const std::int64_t budget = region_search_max_boxes - stats.region_boxes;
    RegionProgramme programme(context, d, budget);
    stats.region_boxes += programme.boxes();
    if (!programme.complete()) {
      stats.regions_complete = false;
      break;
    }
    ++stats.region_grids;
    Candidate c;
    c.layout = PlanLayout::NodeRegions;
    c.dims = d;
    bool worse = false;
    for (int l = 0; l < L && !worse; ++l) {
      LevelCost level{context.level_names[l], 0, 0};
      level.busiest = programme.stage(l, true);
      programme.keep_optimal(l, true, level.busiest);
      level.total = programme.stage(l, false);
      programme.keep_optimal(l, false, level.total);
      c.cost.levels.push_back(level);
      // Stop as soon as this grid cannot beat the best so far.
      if (to_beat != nullptr) {
        PlanCost prefix;
        prefix.levels.assign(to_beat->cost.levels.begin(), to_beat->cost.levels.begin() + l + 1);
        const int verdict = compare(c.cost, prefix);
        worse = verdict > 0;
        if (verdict < 0) to_beat = nullptr; // better already: finish it
      }
    }
    if (worse) continue;
    programme.collect(programme.root(), c.regions);
    if (!best || compare_candidates(c, *best) < 0) {
      if (incumbent == nullptr || compare_candidates(c, *incumbent) < 0) best = std::move(c);
    }
  }
  return best;
}

} // namespace hcart::impl
