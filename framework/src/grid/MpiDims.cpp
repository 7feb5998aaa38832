#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/MpiDims.hpp>

#include <climits>

namespace hcart {

std::vector<std::int64_t> mpi_dims_create(std::int64_t ranks, std::vector<std::int64_t> dims) {
  HCART_REQUIRE(ranks >= 1 && ranks <= INT_MAX,
                "hcart::mpi_dims_create: " << ranks << " ranks, expected 1 to " << INT_MAX);
  HCART_REQUIRE(!dims.empty() && dims.size() <= 16,
                "hcart::mpi_dims_create: " << dims.size() << " dimensions, expected 1 to 16");
  std::int64_t fixed = 1;
  for (std::int64_t d : dims) {
    HCART_REQUIRE(d >= 0 && d <= ranks,
                  "hcart::mpi_dims_create: dim " << d << ", expected 0 to " << ranks);
    if (d > 0) fixed *= d;
  }
  HCART_REQUIRE(ranks % fixed == 0, "hcart::mpi_dims_create: fixed dims (product "
                                        << fixed << ") do not divide " << ranks << " ranks");
  std::vector<int> out(dims.begin(), dims.end());
  HCART_MPI_CHECK(MPI_Dims_create(static_cast<int>(ranks), static_cast<int>(out.size()), out.data()));
  return {out.begin(), out.end()};
}

} // namespace hcart
