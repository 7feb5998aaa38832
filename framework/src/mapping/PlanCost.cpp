#include "mapping/UnitLoads.hpp"

#include <hcart/mapping/PlanCost.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hcart {

int compare(const PlanCost& a, const PlanCost& b) noexcept {
  const std::size_t n = std::min(a.levels.size(), b.levels.size());
  for (std::size_t l = 0; l < n; ++l) {
    if (const int c = impl::compare_level(a.levels[l], b.levels[l])) return c;
  }
  return 0;
}

PlanCost plan_cost(const Traffic& traffic) {
  PlanCost cost;
  for (std::size_t l = 0; l + 1 < traffic.levels.size(); ++l) {
    cost.levels.push_back(
        {traffic.levels[l].name, traffic.levels[l].max_unit_cost, traffic.levels[l].cost});
  }
  return cost;
}

std::string to_string(const PlanCost& cost) {
  auto human = [](double b) {
    const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int k = 0;
    while (std::fabs(b) >= 1024 && k < 5) {
      b /= 1024;
      ++k;
    }
    char text[48];
    std::snprintf(text, sizeof text, k == 0 ? "%.0f %s" : "%.2f %s", b, unit[k]);
    return std::string(text);
  };
  std::string s;
  for (const auto& l : cost.levels) {
    s += (s.empty() ? "" : " | ") + l.name + " " + human(l.busiest) + " busiest, " +
         human(l.total) + " total";
  }
  return s;
}

} // namespace hcart
