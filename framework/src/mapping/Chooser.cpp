// What the search compares plans by, and the driver that walks every space for it
// (docs/algorithms.md, "One search, any chooser").
#include "mapping/FactorSearch.hpp"
#include "mapping/PlanSearch.hpp"

#include <hcart/mapping/PlanCost.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace hcart::impl {

void ObjectiveChooser::note(const Candidate& c) {
  if (!m_best || compare_candidates(c, *m_best) < 0) m_best = c;
}

void ObjectiveChooser::walk_level_grids(const SearchContext& context, SearchStats& stats) {
  search_level_grids(context, *this, stats);
}

bool ObjectiveChooser::hopeless(double node_cost) const {
  return m_best && compare_level({"", node_cost, 0}, {"", m_best->cost.levels[0].busiest, 0}) > 0;
}

double ObjectiveChooser::node_cost_limit() const {
  return m_best ? m_best->cost.levels[0].busiest : std::numeric_limits<double>::infinity();
}

TimeChooser::TimeChooser(const MachineTimings& timings, const Machine& machine, Mesh costed,
                         TrafficOptions traffic, Strategy strategy, std::vector<double> weights,
                         LoadProblem bytes, bool closed_form, bool costs_are_bytes)
    : m_timings(&timings), m_machine(&machine), m_costed(std::move(costed)),
      m_traffic(std::move(traffic)), m_strategy(strategy), m_weights(std::move(weights)),
      m_bytes(std::move(bytes)), m_closed_form(closed_form), m_costs_are_bytes(costs_are_bytes),
      m_node_timing(timings.find(machine.levels()[0].name)) {}

void TimeChooser::note(const Candidate& c) {
  if (!m_objective_best || compare_candidates(c, *m_objective_best) < 0) m_objective_best = c;
}

void TimeChooser::walk_level_grids(const SearchContext& context, SearchStats& stats) {
  search_level_grids(context, *this, stats);
}

void TimeChooser::offer(const Candidate& c) {
  note(c);
  // Its node level alone slower than the best, or its bytes and node messages alone: it
  // cannot be chosen.
  if (hopeless(c.cost.levels[0].busiest)) return;
  const double least = least_seconds(c);
  if (beyond_best(least)) return;
  // Its bytes and every level's messages known exactly: that bound is its time (on an even
  // machine, where every unit of a level holds ranks, as the time model's mean counts).
  if (c.messages_exact && m_costs_are_bytes && m_closed_form && m_machine->even()) {
    offer(c, least);
    return;
  }
  m_pending.emplace_back(least, c);
}

void TimeChooser::count_later(const Candidate& c, double least) {
  note(c);
  if (!beyond_best(least)) m_pending.emplace_back(least, c);
}

void TimeChooser::settle() {
  std::stable_sort(m_pending.begin(), m_pending.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [least, c] : m_pending) {
    if (beyond_best(least)) break;
    const Traffic t =
        traffic_model(plan_of(c, m_strategy, m_weights), *m_machine, m_costed, m_traffic);
    Candidate counted = c; // its cost the objective's, counted
    counted.cost = plan_cost(t);
    offer(counted, predict_exchange_time(level_loads(t), *m_timings).seconds);
  }
  m_pending.clear();
}

bool TimeChooser::beyond_best(double seconds) const {
  return m_best && compare_sums(seconds, m_best_seconds) > 0;
}

double TimeChooser::least_seconds(const Candidate& c) const {
  return m_costs_are_bytes && m_closed_form ? bytes_seconds(c.cost, c.messages) : 0;
}

double TimeChooser::bytes_seconds(const PlanCost& bytes,
                                  const std::vector<std::int64_t>& messages) const {
  std::vector<LevelLoad> loads;
  std::int64_t units = 1;
  for (std::size_t l = 0; l < bytes.levels.size(); ++l) {
    const LevelCost& level = bytes.levels[l];
    units *= m_machine->levels()[l].size;
    loads.push_back({level.name, static_cast<std::int64_t>(std::floor(level.busiest)),
                     l < messages.size() ? messages[l] : 0,
                     static_cast<std::int64_t>(std::floor(level.total)), units});
  }
  return predict_exchange_time(loads, *m_timings).seconds;
}

void TimeChooser::offer(const Candidate& c, double seconds) {
  note(c);
  const int by_time = m_best ? compare_sums(seconds, m_best_seconds) : -1;
  if (by_time > 0) return;
  if (by_time < 0 || compare_candidates(c, *m_best) < 0) {
    m_best = c;
    m_best_seconds = seconds;
  }
}

double TimeChooser::best_seconds() const {
  return m_best ? m_best_seconds : std::numeric_limits<double>::infinity();
}

bool TimeChooser::hopeless(double node_cost) const {
  // The node level's time at those bytes alone (no latency of more messages) is a lower
  // bound of the exchange's, where the cost is bytes and bounds them.
  if (!m_best || !m_costs_are_bytes || !m_closed_form || m_node_timing == nullptr) return false;
  if (std::isinf(node_cost)) return node_cost > 0; // no partition at all
  const auto bytes = static_cast<std::int64_t>(std::floor(node_cost));
  if (bytes <= 0) return false; // a level without bytes takes no time
  const double lower = m_node_timing->pair.empty() ? m_node_timing->exchange_seconds(bytes)
                                                   : m_node_timing->pair_seconds(bytes);
  return compare_sums(lower, m_best_seconds) > 0;
}

bool TimeChooser::passes_by(double node_cost) const {
  return m_objective_best && hopeless(node_cost) &&
         compare_level({"", node_cost, 0}, {"", m_objective_best->cost.levels[0].busiest, 0}) > 0;
}

double TimeChooser::node_cost_limit() const {
  constexpr double none = std::numeric_limits<double>::infinity();
  if (!m_best || !m_costs_are_bytes || !m_closed_form || m_node_timing == nullptr) return none;
  // The node level's time grows with its bytes: the last bytes not hopeless, by bisection.
  std::int64_t low = 0, high = std::int64_t{1} << 50;
  if (hopeless(static_cast<double>(low))) return 0;
  if (!hopeless(static_cast<double>(high))) return none;
  while (high - low > 1) {
    const std::int64_t mid = low + (high - low) / 2;
    (hopeless(static_cast<double>(mid)) ? high : low) = mid;
  }
  return static_cast<double>(low) + 1; // every cost below low + 1 floors to at most low
}

void search(const SearchContext& context, Chooser& chooser,
            const std::vector<std::vector<std::int64_t>>& run_grids,
            const std::vector<std::vector<std::int64_t>>& strip_grids, SearchStats& stats) {
  // The fastest space first, so that its best bounds the others.
  if (context.even) chooser.walk_level_grids(context, stats);
  chooser.settle();
  search_node_regions(context, chooser, stats);
  chooser.settle();
  search_row_major_runs(context, run_grids, chooser, stats);
  chooser.settle();
  search_strips(context, strip_grids, chooser, stats);
  chooser.settle();
  search_stencil_strips(context, strip_grids, chooser, stats);
  chooser.settle();
  search_partitions(context, strip_grids, chooser, stats);
  chooser.settle();
}

} // namespace hcart::impl
