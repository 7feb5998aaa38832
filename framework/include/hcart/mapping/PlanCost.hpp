// hcart::PlanCost: what the default strategy minimises (docs/algorithms.md, 'The objective:
// the busiest link').
//
// An exchange's time follows its busiest link. For every machine level, coarse first, a
// plan's cost is the most (cost-weighted) halo bytes that ONE unit of that level sends across
// it (messages whose sender and receiver first differ at that level), then the total of such
// bytes over all units. Plans are compared level by level: the busiest node first, then the
// node total, then the busiest socket, and so on.
//
//   hcart::Traffic t = hcart::traffic_model(plan, machine, mesh);
//   hcart::PlanCost c = hcart::plan_cost(t);
//   c.levels[0].busiest;   // the busiest node's cost-weighted bytes
//   hcart::compare(c, other) < 0;   // c is the better plan
//
// A message's cost is its bytes times the cost factors c_i of the directions it crosses (a
// face message c_i, an edge message c_i * c_j; all 1 by default, so the cost is the bytes).
// Pure C++.
#pragma once

#include <hcart/mapping/TrafficModel.hpp>

#include <string>
#include <vector>

namespace hcart {

/// \brief One machine level's share of the objective.
struct LevelCost {
  std::string name;
  double busiest = 0; ///< most cost-weighted bytes one unit of this level sends across it
  double total = 0;   ///< cost-weighted bytes of all units across this level
};

/// \brief The objective of a plan, one entry per machine level, coarse first.
struct PlanCost {
  std::vector<LevelCost> levels;
};

/// \brief Relative tolerance of every comparison of costs (sums of doubles).
inline constexpr double cost_tolerance = 1e-12;

/// \brief -1 when a is the better plan (lexicographically: busiest then total, level by
/// level, each within cost_tolerance), +1 when b is, 0 when they tie. Costs of different
/// level counts compare over the common levels.
int compare(const PlanCost& a, const PlanCost& b) noexcept;

/// \brief The cost of a traffic model's plan (its cost-weighted fields; "self" left out).
PlanCost plan_cost(const Traffic& traffic);

/// \brief "node 1.50 MiB busiest, 6.00 MiB total | core ..." for logs and messages.
std::string to_string(const PlanCost& cost);

} // namespace hcart
