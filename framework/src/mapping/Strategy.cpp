#include <hcart/core/Error.hpp>
#include <hcart/mapping/Strategy.hpp>

namespace hcart {

std::string to_string(Strategy strategy) {
  switch (strategy) {
  case Strategy::Mpi: return "mpi";
  case Strategy::Weighted: return "weighted";
  case Strategy::Hierarchical: return "hierarchical";
  case Strategy::Levelwise: return "levelwise";
  case Strategy::Manual: return "manual";
  }
  return "unknown";
}

Strategy parse_strategy(const std::string& text) {
  for (Strategy s : all_strategies()) {
    if (text == to_string(s)) return s;
  }
  throw InputError("strategy '" + text +
                   "': expected one of mpi, weighted, hierarchical, levelwise, manual");
}

std::vector<Strategy> all_strategies() {
  return {Strategy::Mpi, Strategy::Weighted, Strategy::Hierarchical, Strategy::Levelwise,
          Strategy::Manual};
}

} // namespace hcart
