// hcart::Strategy: how a process grid and the placement of ranks on it are chosen
// (docs/design.md, 'Strategies'). One table (strategy_table) holds every strategy's name,
// what it does and whether comparisons run it: parsers, deck lists, help texts, error
// messages and the compare lists of the tools read it, so a new strategy is an enum value,
// a row and its rule in make_plan (docs/design.md says where).
#pragma once

#include <string>
#include <vector>

namespace hcart {

enum class Strategy {
  Mpi,          ///< MPI_Dims_create + MPI_Cart_create(reorder = 1): the baseline
  Weighted,     ///< single-level weighted factorization, ranks in their given order
  Hierarchical, ///< the exact optimum of the bottleneck objective (the default)
  Levelwise,    ///< the seed paper's multi-level weighted factorization, level by level
  Manual        ///< dims from the user; the best placement for them
};

/// \brief One strategy's row of the table.
struct StrategyInfo {
  Strategy strategy;
  const char* name;    ///< what decks, info keys and command lines say
  const char* summary; ///< one line for help texts
  /// Needs every dim fixed (manual): comparisons run it only where the dims are.
  bool needs_all_dims;
  /// Places the ranks by the exact search of the busiest link (hierarchical, manual).
  bool searches;
};

/// \brief Every strategy, in the order comparisons show them: the baseline first
/// (mpi, weighted, levelwise, hierarchical, manual).
const std::vector<StrategyInfo>& strategy_table();

/// \brief The name of `strategy` ("mpi", "weighted", ...).
std::string to_string(Strategy strategy);
/// \brief Parses a name of the table. \throws hcart::InputError naming the text and the names.
Strategy parse_strategy(const std::string& text);
/// \brief All strategies, in the table's order.
std::vector<Strategy> all_strategies();
/// \brief The names in the table's order, e.g. `strategy_names(", ", " or ")` gives
/// "mpi, weighted, levelwise, hierarchical or manual".
std::string strategy_names(const std::string& separator = ", ", const std::string& last = ", ");
/// \brief The names of `strategies`, joined the same way.
std::string strategy_names(const std::vector<Strategy>& strategies,
                           const std::string& separator = ", ", const std::string& last = ", ");
/// \brief The table's answers for one strategy: whether it needs every dim fixed, and
/// whether it places ranks by the exact search.
bool needs_all_dims(Strategy strategy);
bool searches(Strategy strategy);
/// \brief What a side-by-side comparison runs, in the table's order: every strategy, those
/// that need every dim only when `all_dims_fixed`.
std::vector<Strategy> compared_strategies(bool all_dims_fixed);

} // namespace hcart
