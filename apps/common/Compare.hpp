// Compare mode, shared by the applications: every strategy run several times, in turn, and
// the honest summary of it — min and median over the repeats, and no "saving" between
// strategies that produced the same decomposition (the same process grid and the same
// placement of every rank: any difference between them is noise).
#pragma once

#include <hcart/grid/Decomposition.hpp>
#include <hcart/mapping/Strategy.hpp>

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace hcart::apps {

/// \brief What identifies a decomposition: dims and every world rank's Cartesian rank.
struct GridIdentity {
  std::array<int, 3> dims{};
  std::vector<int> cart_rank_of_world;
  bool operator==(const GridIdentity& other) const {
    return dims == other.dims && cart_rank_of_world == other.cart_rank_of_world;
  }
};

/// \brief The identity of `decomp` (collective over MPI_COMM_WORLD).
GridIdentity identity_of(const Decomposition& decomp);

/// \brief min and median of some values (0, 0 when there are none).
struct Spread {
  double min = 0, median = 0;
};
Spread spread(std::vector<double> values);

/// \brief Runs `run(strategy, repeat)` `repeats` times for every strategy, the strategies
/// in turn and each repeat starting one strategy further on, so that none always goes
/// first. Returns the runs per strategy, in the order of `strategies`.
template <class Report>
std::vector<std::vector<Report>> run_in_turn(const std::vector<Strategy>& strategies, int repeats,
                                             const std::function<Report(Strategy, int)>& run) {
  std::vector<std::vector<Report>> runs(strategies.size());
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t k = 0; k < strategies.size(); ++k) {
      const std::size_t s = (k + static_cast<std::size_t>(r)) % strategies.size();
      runs[s].push_back(run(strategies[s], r));
    }
  }
  return runs;
}

/// \brief For every strategy, the index of the first one before it with the same grid, or -1.
std::vector<int> same_grid_as(const std::vector<GridIdentity>& grids);

/// \brief "12.3%" saving of `value` against `baseline` (time: positive is faster).
std::string saving_text(double value, double baseline);

} // namespace hcart::apps
