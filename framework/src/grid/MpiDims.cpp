#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/MpiDims.hpp>

#include <climits>

#include <algorithm>

namespace hcart {

std::vector<std::int64_t> mpi_dims_create(std::int64_t ranks, std::vector<std::int64_t> dims) {
  HCART_REQUIRE(ranks >= 1 && ranks <= INT_MAX,
                "hcart::mpi_dims_create: " << ranks << " ranks, expected 1 to " << INT_MAX);
  HCART_REQUIRE(!dims.empty() && dims.size() <= 16,
                "hcart::mpi_dims_create: " << dims.size() << " dimensions, expected 1 to 16");
  std::int64_t fixed = 1;
  bool any_free = false;
  for (std::int64_t d : dims) {
    any_free = any_free || d == 0;
    HCART_REQUIRE(d >= 0 && d <= ranks,
                  "hcart::mpi_dims_create: dim " << d << ", expected 0 to " << ranks);
    if (d > 0) fixed *= d;
  }
  HCART_REQUIRE(ranks % fixed == 0, "hcart::mpi_dims_create: fixed dims (product "
                                        << fixed << ") do not divide " << ranks << " ranks");
  HCART_REQUIRE(any_free || fixed == ranks,
                "hcart::mpi_dims_create: every dim is fixed and their product "
                    << fixed << " differs from the " << ranks
                    << " ranks (directions that may not be cut count as fixed to 1)");
  std::vector<int> out(dims.begin(), dims.end());
  HCART_MPI_CHECK(
      MPI_Dims_create(static_cast<int>(ranks), static_cast<int>(out.size()), out.data()));
  return std::vector<std::int64_t>(out.begin(), out.end());
}

std::vector<std::int64_t> mpi_baseline_dims(std::int64_t ranks, std::vector<std::int64_t> dims,
                                            const Mesh& mesh) {
  const std::vector<std::int64_t> bounds = cut_bounds(mesh);
  if (dims.empty()) dims.assign(bounds.size(), 0);
  HCART_REQUIRE(dims.size() == bounds.size(),
                "hcart::mpi_baseline_dims: " << dims.size() << " dims for a " << bounds.size()
                                             << "-dimensional mesh");
  std::int64_t capacity = 1;
  std::string bound_text;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0 && bounds[i] <= 1) dims[i] = 1;
    // Saturating at ranks: both factors stay below 2^31, so the product cannot overflow.
    capacity = std::min(ranks, capacity * std::min(bounds[i], ranks));
    bound_text += (i ? "x" : "") + std::to_string(bounds[i]);
  }
  HCART_REQUIRE(capacity >= ranks, "the mpi strategy: the mesh can be cut into at most "
                                       << bound_text << " pieces, fewer than the " << ranks
                                       << " ranks");
  dims = mpi_dims_create(ranks, dims);
  std::string shown;
  for (std::size_t i = 0; i < dims.size(); ++i)
    shown += (i ? "x" : "") + std::to_string(dims[i]);
  for (std::size_t i = 0; i < dims.size(); ++i) {
    HCART_REQUIRE(dims[i] <= bounds[i], "the mpi strategy's dims "
                                            << shown << " (from MPI_Dims_create) cut direction "
                                            << i << " (size " << mesh.global_size[i] << ", halo "
                                            << mesh.halo_width[i] << ") into " << dims[i]
                                            << " pieces, more than its " << bounds[i]);
  }
  return dims;
}

} // namespace hcart
