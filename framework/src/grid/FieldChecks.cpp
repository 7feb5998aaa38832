// hcart::require_finite: the named fields' counts and misfits in one reduction.
#include <hcart/grid/FieldChecks.hpp>

namespace hcart {

void require_finite(const Grid& grid, const std::vector<FiniteCheck>& fields,
                    const std::string& when) {
  // Per field: {non-finite values, ranks where it does not fit}, in one reduction.
  const std::size_t n = fields.size();
  std::vector<long long> counts(2 * n, 0);
  for (std::size_t f = 0; f < n; ++f) {
    const bool fits = fields[f].fits(grid);
    counts[f] = fits ? fields[f].count(grid) : 0;
    counts[n + f] = fits ? 0 : 1;
  }
  if (!counts.empty()) {
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, counts.data(), static_cast<int>(counts.size()),
                                  MPI_LONG_LONG, MPI_SUM, grid.decomposition().comm()));
  }
  for (std::size_t f = 0; f < n; ++f)
    if (counts[n + f] > 0) fields[f].throw_misfit(grid, "hcart::require_finite");
  std::string problem;
  for (std::size_t f = 0; f < n; ++f) {
    if (counts[f] == 0) continue;
    problem += (problem.empty() ? "" : "; ") + std::string("field '") + fields[f].name() +
               "' holds " + std::to_string(counts[f]) + " values that are NaN or infinite";
  }
  if (problem.empty()) return;
  Error error(when + ": " + problem);
  error.set_collective(true);
  throw error;
}

} // namespace hcart
