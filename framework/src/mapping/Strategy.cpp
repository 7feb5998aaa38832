#include <hcart/core/Error.hpp>
#include <hcart/mapping/Strategy.hpp>

#include <algorithm>

namespace hcart {

const std::vector<StrategyInfo>& strategy_table() {
  static const std::vector<StrategyInfo> table = {
      {Strategy::Mpi, "mpi", "MPI_Dims_create's grid, ranks where MPI puts them (the baseline)",
       false, false},
      {Strategy::Weighted, "weighted", "one weighted factorization, ranks in world order", false,
       false},
      {Strategy::Levelwise, "levelwise",
       "the seed paper's rule: a weighted factorization level by level, coarse first", false,
       false},
      {Strategy::Hierarchical, "hierarchical",
       "the exact optimum of the busiest link, grid and placement together (the default)", false,
       true},
      {Strategy::Manual, "manual", "your dims, placed as hierarchical places them", true, true},
  };
  return table;
}

namespace {
const StrategyInfo& info(Strategy strategy) {
  const std::vector<StrategyInfo>& table = strategy_table();
  const auto row = std::find_if(table.begin(), table.end(),
                                [&](const StrategyInfo& s) { return s.strategy == strategy; });
  HCART_REQUIRE(row != table.end(), "hcart: strategy " << static_cast<int>(strategy)
                                                       << " is not in the strategy table");
  return *row;
}
} // namespace

bool needs_all_dims(Strategy strategy) {
  return info(strategy).needs_all_dims;
}

bool searches(Strategy strategy) {
  return info(strategy).searches;
}

std::string to_string(Strategy strategy) {
  for (const StrategyInfo& s : strategy_table()) {
    if (s.strategy == strategy) return s.name;
  }
  return "unknown";
}

Strategy parse_strategy(const std::string& text) {
  for (const StrategyInfo& s : strategy_table()) {
    if (text == s.name) return s.strategy;
  }
  throw InputError("strategy '" + text + "': expected one of " + strategy_names());
}

std::vector<Strategy> all_strategies() {
  std::vector<Strategy> out;
  for (const StrategyInfo& s : strategy_table())
    out.push_back(s.strategy);
  return out;
}

std::string strategy_names(const std::vector<Strategy>& strategies, const std::string& separator,
                           const std::string& last) {
  std::string out;
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    if (i > 0) out += i + 1 == strategies.size() ? last : separator;
    out += to_string(strategies[i]);
  }
  return out;
}

std::string strategy_names(const std::string& separator, const std::string& last) {
  return strategy_names(all_strategies(), separator, last);
}

std::vector<Strategy> compared_strategies(bool all_dims_fixed) {
  std::vector<Strategy> out;
  for (const StrategyInfo& s : strategy_table()) {
    if (!s.needs_all_dims || all_dims_fixed) out.push_back(s.strategy);
  }
  return out;
}

} // namespace hcart
