#include "Compare.hpp"

#include "Text.hpp"

#include <hcart/core/MpiCheck.hpp>

#include <algorithm>

namespace hcart::apps {

DecompositionIdentity identity_of(const Decomposition& decomp) {
  DecompositionIdentity id;
  id.dims = decomp.dims();
  int size = 0;
  HCART_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  id.cart_rank_of_world.assign(static_cast<std::size_t>(size), 0);
  const int mine = decomp.rank();
  HCART_MPI_CHECK(
      MPI_Allgather(&mine, 1, MPI_INT, id.cart_rank_of_world.data(), 1, MPI_INT, MPI_COMM_WORLD));
  return id;
}

Spread spread(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  return {values.front(), values[values.size() / 2]};
}

std::vector<int> same_grid_as(const std::vector<DecompositionIdentity>& grids) {
  std::vector<int> same(grids.size(), -1);
  for (std::size_t k = 0; k < grids.size(); ++k) {
    for (std::size_t e = 0; e < k && same[k] < 0; ++e) {
      if (grids[e] == grids[k]) same[k] = static_cast<int>(e);
    }
  }
  return same;
}

std::string saving_text(double value, double baseline) {
  return baseline > 0 ? fixed(100.0 * (1.0 - value / baseline), "%.1f%%") : std::string("-");
}

} // namespace hcart::apps
