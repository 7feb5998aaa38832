// The level-grid space of the exact search: every process grid d, every node grid n^(0)
// and every ordered factorization of every finer level, walked once for every chooser
// (walk_level_grids): the pairs (node grid n^(0), node box m = d / n^(0)) in the order of a
// lower bound that does not depend on m, until the chooser finds the bound hopeless, then
// each pair's finer levels depth first, every level pruned as soon as the chooser can say
// no plan below it can win.
//
// For the objective the bound is the face bytes crossing the node grid's cut planes (the
// same for every m) over the node count: the busiest node carries at least the mean. The
// cost at level l depends only on d and the factors of levels 0..l, and the objective is
// lexicographic over the levels, so a chain whose levels 0..l are already worse than the
// best plan's is left at level l: the walk keeps every chain tied with the best so far, and
// so reaches every optimum. By time, the bound is the node level's time at those mean bytes,
// and a chain is left as soon as its slowest level so far passes the best time.
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
// (The walk below takes the levels through it.)
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

// A level grid's plan: grid d, its levels' factors `chain` (coarse first), their cost.
Candidate level_grid_plan(const std::vector<std::int64_t>& d,
                          const std::vector<std::vector<std::int64_t>>& chain, PlanCost cost) {
  Candidate c;
  c.layout = PlanLayout::LevelGrid;
  c.dims = d;
  c.level_factors = chain;
  c.cost = std::move(cost);
  return c;
}

// The one walk of the level-grid space, for every chooser: the node grids n^(0) in the order
// of bound(n^(0)) (a lower bound of what any grid under them scores; ascending, ties in their
// enumeration order) until stop(bound) says the rest cannot win; under each, every node box m
// whose grid d = n^(0) m is admitted; then the finer levels' factors, depth first.
// enter(d, chain, parent, groups) is called as each level's factors are chosen
// (chain.back(), the groups of the level above and its own) and says whether to walk on
// below them; leave() after each enter, whatever it said; leaf(d, chain) at the finest level.
template <class Bound, class Stop, class Enter, class Leave, class Leaf>
void walk_level_grids(const SearchContext& context, Bound&& bound, Stop&& stop, Enter&& enter,
                      Leave&& leave, Leaf&& leaf) {
  const int D = context.dims(), L = context.levels();
  const std::int64_t nodes = context.level_sizes[0], per_node = context.ranks / nodes;
  // A level's factor divides the fixed dim, or with equal blocks the direction's divisor.
  const std::vector<std::int64_t> divides = context.grid_divisors();
  const auto node_grids = ordered_factorizations(nodes, context.caps, divides);
  const auto node_boxes = ordered_factorizations(per_node, context.caps, divides);
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t k = 0; k < node_grids.size(); ++k)
    order.emplace_back(bound(node_grids[k]), k);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::vector<std::int64_t>> chain;
  // The levels below `groups` (the groups of the last level chosen) of grid d.
  std::function<void(const std::vector<std::int64_t>&, const std::vector<std::int64_t>&)> below =
      [&](const std::vector<std::int64_t>& d, const std::vector<std::int64_t>& groups) {
        const int l = static_cast<int>(chain.size());
        if (l == L) {
          leaf(d, chain);
          return;
        }
        std::vector<std::int64_t> rest(D);
        for (int i = 0; i < D; ++i)
          rest[i] = d[i] / groups[i];
        for (const auto& f : level_options(context, l, rest)) {
          const std::vector<std::int64_t> next = times(groups, f);
          chain.push_back(f);
          if (enter(d, chain, groups, next)) below(d, next);
          leave();
          chain.pop_back();
        }
      };
  const std::vector<std::int64_t> ones(D, 1);
  for (const auto& [lower, k] : order) {
    if (stop(lower)) break;
    const auto& n0 = node_grids[k];
    for (const auto& m : node_boxes) {
      const std::vector<std::int64_t> d = times(n0, m);
      if (!context.admits(d)) continue;
      chain = {n0};
      if (enter(d, chain, ones, n0)) below(d, n0);
      leave();
    }
  }
}

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
  std::vector<Candidate> out;
  walk_level_grids(
      context, [](const std::vector<std::int64_t>&) { return 0.0; }, [](double) { return false; },
      [](const auto&, const auto&, const auto&, const auto&) { return true; }, [] {},
      [&](const std::vector<std::int64_t>& d, const std::vector<std::vector<std::int64_t>>& chain) {
        out.push_back(level_grid_plan(d, chain, level_grid_cost(context, chain)));
      });
  return out;
}

namespace {

// The objective's best level grid, exactly: a chain is left at the first level where it is
// worse than the best plan so far, which it is compared with level by level (every chain
// tied with the best so far is walked to the end); empty when no grid fits.
std::optional<Candidate> best_level_grid(const SearchContext& context, SearchStats& stats) {
  const LoadProblem& problem = context.problem;
  const auto nodes = static_cast<double>(context.level_sizes[0]);
  std::optional<Candidate> best;
  PlanCost cost;             // the chain's levels so far
  std::vector<int> verdicts; // per level: the chain's levels 0..l against the best's (< 0 better)
  walk_level_grids(
      context,
      [&](const std::vector<std::int64_t>& n0) { return cut_plane_faces(problem, n0) / nodes; },
      [&](double lower) {
        return best && compare_level({"", lower, 0}, {"", best->cost.levels[0].busiest, 0}) > 0;
      },
      [&](const std::vector<std::int64_t>& d, const std::vector<std::vector<std::int64_t>>& chain,
          const std::vector<std::int64_t>& parent, const std::vector<std::int64_t>& groups) {
        const std::size_t l = chain.size() - 1;
        if (l == 0) ++stats.grid_pairs;
        // Tied with the best so far: this level may not be worse than the best's (its cost is
        // counted only up to that); better already: counted whole.
        const bool tied = best && (l == 0 || verdicts.back() == 0);
        LevelCost c = grid_level_cost(problem, grid_level(d, parent, groups),
                                      tied ? best->cost.levels[l].busiest
                                           : std::numeric_limits<double>::infinity());
        c.name = context.level_names[l];
        const int verdict = tied ? compare_level(c, best->cost.levels[l]) : -1;
        cost.levels.push_back(c);
        verdicts.push_back(verdict);
        return verdict <= 0;
      },
      [&] {
        cost.levels.pop_back();
        verdicts.pop_back();
      },
      [&](const std::vector<std::int64_t>& d, const std::vector<std::vector<std::int64_t>>& chain) {
        Candidate c = level_grid_plan(d, chain, cost);
        if (!best || compare_candidates(c, *best) < 0) best = std::move(c);
      });
  return best;
}

} // namespace

void time_level_grids(const SearchContext& context, const MachineTimings& timings,
                      const std::function<double()>& bound,
                      const std::function<void(const Candidate&, double)>& timed) {
  const int D = context.dims(), L = context.levels();
  const LoadProblem& problem = context.problem;
  const std::int64_t nodes = context.level_sizes[0];
  std::vector<std::int64_t> units(L);
  for (int l = 0; l < L; ++l)
    units[l] = (l == 0 ? 1 : units[l - 1]) * context.level_sizes[l];
  const auto beyond = [&](double seconds) { return compare_sums(seconds, bound()) > 0; };
  // The node level's time is at least its time at the mean node's bytes (the faces through
  // the node grid's cut planes, the same for every node box; edges and corners only add)
  // with the messages of the corner rank of a node box whose low sides are all inside the
  // grid (its messages towards the low side in the cut directions alone), and the
  // exchange's time is at least the node level's: the node grids in the order of that
  // bound, until it passes the best time.
  const auto node_time = [&](const std::vector<std::int64_t>& n0) {
    const double faces = cut_plane_faces(problem, n0);
    std::uint32_t cut = 0; // the directions the node grid cuts
    for (int i = 0; i < D; ++i)
      if (n0[i] >= 2) cut |= 1u << i;
    std::int64_t messages = 0;
    for (const auto& t : problem.terms)
      if ((t.crossed & ~cut) == 0 && (t.plus & t.crossed) == 0) ++messages;
    const auto mean = static_cast<std::int64_t>(std::floor(faces / static_cast<double>(nodes)));
    return level_seconds({context.level_names[0], mean, messages,
                          static_cast<std::int64_t>(std::floor(faces)), nodes},
                         timings);
  };
  PlanCost cost;               // the chain's levels so far, in bytes
  std::vector<double> seconds; // the slowest of the chain's levels so far
  walk_level_grids(
      context, node_time, beyond,
      [&](const std::vector<std::int64_t>& d, const std::vector<std::vector<std::int64_t>>& chain,
          const std::vector<std::int64_t>& parent, const std::vector<std::int64_t>& groups) {
        // One level's time: its bytes (the busiest unit, the total) and its messages.
        const std::size_t l = chain.size() - 1;
        LevelCost level = grid_level_cost(problem, grid_level(d, parent, groups));
        level.name = context.level_names[l];
        const std::int64_t messages = level_grid_messages(problem, d, chain)[l];
        const double t = level_seconds(
            {level.name, static_cast<std::int64_t>(std::llround(level.busiest)), messages,
             static_cast<std::int64_t>(std::llround(level.total)), units[l]},
            timings);
        cost.levels.push_back(level);
        seconds.push_back(std::max(l == 0 ? 0.0 : seconds.back(), t));
        return !beyond(seconds.back());
      },
      [&] {
        cost.levels.pop_back();
        seconds.pop_back();
      },
      [&](const std::vector<std::int64_t>& d, const std::vector<std::vector<std::int64_t>>& chain) {
        timed(level_grid_plan(d, chain, cost), seconds.back());
      });
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
