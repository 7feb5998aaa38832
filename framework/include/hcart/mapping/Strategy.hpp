// hcart::Strategy: how a process grid and the placement of ranks on it are chosen
// (docs/design.md, 'Strategies').
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

/// \brief "mpi", "weighted", "hierarchical", "levelwise" or "manual".
std::string to_string(Strategy strategy);
/// \brief Parses the names above. \throws hcart::InputError naming the text.
Strategy parse_strategy(const std::string& text);
/// \brief All strategies in the order above.
std::vector<Strategy> all_strategies();

} // namespace hcart
