// The level-grid space of the exact search: every process grid d, every node grid n^(0)
// and every ordered factorization of every finer level, searched level by level.
//
// The cost at level l depends only on d and the factors of levels 0..l, so the set of plans
// tied for the best cost at levels 0..l holds every optimum: the search keeps that set,
// level after level. At the node level the pairs (node grid n^(0), node box m = d / n^(0))
// are taken in the order of a lower bound that does not depend on m (the face bytes
// crossing the node grid's cut planes, the same for every m, divided by the node count: the
// busiest node carries at least the mean), and the search stops at the first node grid whose
// bound exceeds the best busiest node found.
#include "mapping/FactorSearch.hpp"
#include "mapping/PlanSearch.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/TimeModel.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace hcart::impl {

bool SearchContext::admits(const std::vector<std::int64_t>& d) const {
  std::int64_t product = 1;
  for (int i = 0; i < dims(); ++i) {
    if (d[i] < 1 || d[i] > caps[i] || (fixed[i] > 0 && d[i] != fixed[i])) return false;
    if (!divides.empty() && divides[i] > 0 && divides[i] % d[i] != 0) return false;
    product *= d[i];
  }
  return product == ranks;
}

std::vector<std::int64_t> SearchContext::grid_divisors() const {
  std::vector<std::int64_t> out(fixed);
  for (int i = 0; i < dims(); ++i) {
    if (out[i] == 0 && !divides.empty()) out[i] = divides[i];
  }
  return out;
}

int compare_candidates(const Candidate& a, const Candidate& b) {
  if (const int c = compare(a.cost, b.cost)) return c;
  auto rank = [](PlanLayout l) {
    return l == PlanLayout::LevelGrid      ? 0
           : l == PlanLayout::NodeRegions  ? 1
           : l == PlanLayout::RowMajorRuns ? 2
                                           : 3;
  };
  if (rank(a.layout) != rank(b.layout)) return rank(a.layout) < rank(b.layout) ? -1 : 1;
  if (a.dims != b.dims) return a.dims > b.dims ? -1 : 1;
  if (a.level_factors != b.level_factors) return a.level_factors > b.level_factors ? -1 : 1;
  return 0;
}

namespace {

GridLevel grid_level(const std::vector<std::int64_t>& d,
                     const std::vector<std::int64_t>& parent_groups,
                     const std::vector<std::int64_t>& groups) {
  GridLevel level;
  level.coords = d;
  level.frame_lo.assign(d.size(), 0);
  level.frame_hi = d;
  level.parent_groups = parent_groups;
  level.groups = groups;
  return level;
}

std::vector<std::int64_t> times(const std::vector<std::int64_t>& a,
                                const std::vector<std::int64_t>& b) {
  std::vector<std::int64_t> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    r[i] = a[i] * b[i];
  return r;
}

// The factors level l may take where `rest` processes per direction remain below the levels
// above: the last level takes them all, any other an ordered factorization of its size.
// (Both searches below walk the levels through it.)
std::vector<std::vector<std::int64_t>> level_options(const SearchContext& context, int l,
                                                     const std::vector<std::int64_t>& rest) {
  if (l + 1 == context.levels()) return {rest};
  return ordered_factorizations(context.level_sizes[l], rest, rest);
}

// The face terms' cost through the cut planes of node grid `n0` (each plane a whole plane of
// the mesh, both ways, the periodic wrap too): the same for every node box m, so that the
// cost over the node count bounds the busiest node of every grid n0 * m from below.
double cut_plane_faces(const LoadProblem& problem, const std::vector<std::int64_t>& n0) {
  const int D = problem.dims;
  double faces = 0;
  for (int i = 0; i < D; ++i) {
    double plane = 1.0; // cells of a plane perpendicular to direction i
    for (int j = 0; j < D; ++j)
      if (j != i) plane *= static_cast<double>(problem.cells[j]);
    const double crossings =
        2.0 * static_cast<double>(n0[i] - 1) + (problem.periodic[i] && n0[i] >= 2 ? 2.0 : 0.0);
    faces += problem.face_weight[i] * crossings * plane;
  }
  return faces;
}

// A plan under construction: its process grid, the factors chosen so far, their costs.
struct Partial {
  std::vector<std::int64_t> dims;
  std::vector<std::vector<std::int64_t>> factors;
  std::vector<std::int64_t> groups; // product of the factors so far
  PlanCost cost;
};

} // namespace

PlanCost level_grid_cost(const SearchContext& context,
                         const std::vector<std::vector<std::int64_t>>& level_factors) {
  const int D = context.dims();
  std::vector<std::int64_t> d(D, 1);
  for (const auto& f : level_factors)
    d = times(d, f);
  PlanCost cost;
  std::vector<std::int64_t> parent(D, 1);
  for (std::size_t l = 0; l < level_factors.size(); ++l) {
    const std::vector<std::int64_t> groups = times(parent, level_factors[l]);
    LevelCost c = grid_level_cost(context.problem, grid_level(d, parent, groups));
    c.name = context.level_names[l];
    cost.levels.push_back(c);
    parent = groups;
  }
  return cost;
}

std::vector<Candidate> all_level_grids(const SearchContext& context) {
  const int D = context.dims(), L = context.levels();
  std::vector<Candidate> out;
  std::vector<std::vector<std::int64_t>> chain;
  std::function<void(const std::vector<std::int64_t>&, int, std::vector<std::int64_t>)> walk =
      [&](const std::vector<std::int64_t>& d, int l, std::vector<std::int64_t> rest) {
        for (const auto& f : level_options(context, l, rest)) {
          std::vector<std::int64_t> next(D);
          for (int i = 0; i < D; ++i)
            next[i] = rest[i] / f[i];
          chain.push_back(f);
          if (l + 1 == L) {
            Candidate c;
            c.dims = d;
            c.level_factors = chain;
            c.cost = level_grid_cost(context, chain);
            out.push_back(std::move(c));
          } else {
            walk(d, l + 1, next);
          }
          chain.pop_back();
        }
      };
  for (const auto& d :
       ordered_factorizations(context.ranks, context.caps, context.grid_divisors())) {
    if (context.admits(d)) walk(d, 0, d);
  }
  return out;
}

namespace {

// The objective's best level grid, exactly (the plans tied at levels 0 .. l kept level
// after level); empty when no grid fits.
std::optional<Candidate> best_level_grid(const SearchContext& context, SearchStats& stats) {
  const int D = context.dims(), L = context.levels();
  const std::int64_t nodes = context.level_sizes[0], per_node = context.ranks / nodes;
  const std::vector<std::int64_t>& limit = context.caps;
  // A level's factor divides the fixed dim, or with equal blocks the direction's divisor.
  const std::vector<std::int64_t> divides = context.grid_divisors();
  const auto node_grids = ordered_factorizations(nodes, limit, divides);
  const auto node_boxes = ordered_factorizations(per_node, limit, divides);

  // The bound: face bytes through the node grid's cut planes, over the node count.
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t k = 0; k < node_grids.size(); ++k) {
    const double faces = cut_plane_faces(context.problem, node_grids[k]);
    order.emplace_back(faces / static_cast<double>(nodes), k);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  std::vector<Partial> tied;
  LevelCost best{context.level_names[0], std::numeric_limits<double>::infinity(),
                 std::numeric_limits<double>::infinity()};
  const std::vector<std::int64_t> ones(D, 1);
  for (const auto& [bound, k] : order) {
    if (!std::isinf(best.busiest) && compare_level({"", bound, 0}, {"", best.busiest, 0}) > 0)
      break;
    const auto& n0 = node_grids[k];
    for (const auto& m : node_boxes) {
      const std::vector<std::int64_t> d = times(n0, m);
      if (!context.admits(d)) continue;
      ++stats.grid_pairs;
      LevelCost c = grid_level_cost(context.problem, grid_level(d, ones, n0), best.busiest);
      const int verdict = compare_level(c, best);
      if (verdict > 0) continue;
      if (verdict < 0) {
        tied.clear();
        best = c;
      }
      c.name = context.level_names[0];
      tied.push_back({d, {n0}, n0, PlanCost{{c}}});
    }
  }
  if (tied.empty()) return std::nullopt;

  // The finer levels, one at a time, among the plans tied so far.
  for (int l = 1; l < L; ++l) {
    std::vector<Partial> next;
    LevelCost level_best{context.level_names[l], std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::infinity()};
    for (const Partial& p : tied) {
      std::vector<std::int64_t> rest(D);
      for (int i = 0; i < D; ++i)
        rest[i] = p.dims[i] / p.groups[i];
      for (const auto& f : level_options(context, l, rest)) {
        const std::vector<std::int64_t> groups = times(p.groups, f);
        LevelCost c = grid_level_cost(context.problem, grid_level(p.dims, p.groups, groups),
                                      level_best.busiest);
        const int verdict = compare_level(c, level_best);
        if (verdict > 0) continue;
        if (verdict < 0) {
          next.clear();
          level_best = c;
        }
        c.name = context.level_names[l];
        Partial q = p;
        q.factors.push_back(f);
        q.groups = groups;
        q.cost.levels.push_back(c);
        next.push_back(std::move(q));
      }
    }
    tied = std::move(next);
  }

  std::optional<Candidate> best_plan;
  for (Partial& p : tied) {
    Candidate c;
    c.layout = PlanLayout::LevelGrid;
    c.dims = p.dims;
    c.level_factors = std::move(p.factors);
    c.cost = std::move(p.cost);
    if (!best_plan || compare_candidates(c, *best_plan) < 0) best_plan = std::move(c);
  }
  return best_plan;
}

} // namespace

void time_level_grids(const SearchContext& context, const MachineTimings& timings,
                      const std::function<double()>& bound,
                      const std::function<void(const Candidate&, double)>& timed) {
  const int D = context.dims(), L = context.levels();
  const LoadProblem& problem = context.problem;
  const std::int64_t nodes = context.level_sizes[0], per_node = context.ranks / nodes;
  const std::vector<std::int64_t> divides = context.grid_divisors();
  const auto node_grids = ordered_factorizations(nodes, context.caps, divides);
  const auto node_boxes = ordered_factorizations(per_node, context.caps, divides);
  std::vector<std::int64_t> units(L);
  for (int l = 0; l < L; ++l)
    units[l] = (l == 0 ? 1 : units[l - 1]) * context.level_sizes[l];
  const auto beyond = [&](double seconds) { return compare_sums(seconds, bound()) > 0; };
  // One level's time: its bytes (the busiest unit, the total) and its messages.
  const auto level_time = [&](const std::vector<std::int64_t>& d,
                              const std::vector<std::vector<std::int64_t>>& chain,
                              const std::vector<std::int64_t>& parent,
                              const std::vector<std::int64_t>& groups, LevelCost& cost) {
    const int l = static_cast<int>(chain.size()) - 1;
    cost = grid_level_cost(problem, grid_level(d, parent, groups));
    cost.name = context.level_names[l];
    const std::int64_t messages = level_grid_messages(problem, d, chain)[l];
    return level_seconds({cost.name, static_cast<std::int64_t>(std::llround(cost.busiest)),
                          messages, static_cast<std::int64_t>(std::llround(cost.total)), units[l]},
                         timings);
  };

  // The node level's time is at least its time at the mean node's bytes (the faces through
  // the node grid's cut planes, the same for every node box; edges and corners only add)
  // with the messages of the corner rank of a node box whose low sides are all inside the
  // grid (its messages towards the low side in the cut directions alone), and the
  // exchange's time is at least the node level's: the node grids in the order of that
  // bound, until it passes the best time.
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t k = 0; k < node_grids.size(); ++k) {
    const double faces = cut_plane_faces(problem, node_grids[k]);
    std::uint32_t cut = 0; // the directions the node grid cuts
    for (int i = 0; i < D; ++i)
      if (node_grids[k][i] >= 2) cut |= 1u << i;
    std::int64_t messages = 0;
    for (const auto& t : problem.terms)
      if ((t.crossed & ~cut) == 0 && (t.plus & t.crossed) == 0) ++messages;
    const auto mean = static_cast<std::int64_t>(std::floor(faces / static_cast<double>(nodes)));
    order.emplace_back(level_seconds({context.level_names[0], mean, messages,
                                      static_cast<std::int64_t>(std::floor(faces)), nodes},
                                     timings),
                       k);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  const std::vector<std::int64_t> ones(D, 1);
  std::vector<std::vector<std::int64_t>> chain;
  PlanCost cost;
  // The finer levels of `d` below `groups`, the time so far `seconds`.
  std::function<void(const std::vector<std::int64_t>&, const std::vector<std::int64_t>&, double)>
      walk = [&](const std::vector<std::int64_t>& d, const std::vector<std::int64_t>& groups,
                 double seconds) {
        const int l = static_cast<int>(chain.size());
        if (l == L) {
          Candidate c;
          c.layout = PlanLayout::LevelGrid;
          c.dims = d;
          c.level_factors = chain;
          c.cost = cost;
          timed(c, seconds);
          return;
        }
        std::vector<std::int64_t> rest(D);
        for (int i = 0; i < D; ++i)
          rest[i] = d[i] / groups[i];
        for (const auto& f : level_options(context, l, rest)) {
          const std::vector<std::int64_t> next = times(groups, f);
          chain.push_back(f);
          LevelCost level;
          const double t = std::max(seconds, level_time(d, chain, groups, next, level));
          if (!beyond(t)) {
            cost.levels.push_back(level);
            walk(d, next, t);
            cost.levels.pop_back();
          }
          chain.pop_back();
        }
      };
  for (const auto& [lower, k] : order) {
    if (beyond(lower)) break;
    const auto& n0 = node_grids[k];
    for (const auto& m : node_boxes) {
      const std::vector<std::int64_t> d = times(n0, m);
      if (!context.admits(d)) continue;
      chain = {n0};
      LevelCost level;
      const double t = level_time(d, chain, ones, n0, level);
      if (beyond(t)) continue;
      cost.levels = {level};
      walk(d, n0, t);
    }
  }
}

void search_level_grids(const SearchContext& context, ObjectiveChooser& chooser,
                        SearchStats& stats) {
  if (std::optional<Candidate> objective = best_level_grid(context, stats))
    chooser.offer(*objective);
}

void search_level_grids(const SearchContext& context, TimeChooser& chooser, SearchStats& stats) {
  // The objective's best is recorded (for ties and the plan's words); the grids are timed in
  // bytes, each reaching the chooser with its objective cost.
  if (std::optional<Candidate> objective = best_level_grid(context, stats))
    chooser.note(*objective);
  SearchContext bytes = context;
  bytes.problem = *chooser.timed_bytes();
  if (chooser.closed_form()) {
    time_level_grids(
        bytes, chooser.timings(), [&] { return chooser.best_seconds(); },
        [&](const Candidate& c, double seconds) { // c.cost in bytes
          if (compare_sums(seconds, chooser.best_seconds()) > 0) return;
          Candidate costed = c;
          costed.cost = level_grid_cost(context, c.level_factors);
          chooser.offer(costed, seconds);
        });
    return;
  }
  // Bounded by their bytes (the extra messages' latency left out, which can only add) and
  // counted by the chooser in the order of that bound until it passes the best time.
  for (auto& c : all_level_grids(bytes)) {
    const double least = chooser.bytes_seconds(c.cost);
    c.cost = level_grid_cost(context, c.level_factors); // the objective's
    chooser.count_later(c, least);
  }
}

} // namespace hcart::impl
