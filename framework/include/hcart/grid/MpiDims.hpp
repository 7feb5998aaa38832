// hcart::mpi_dims_create: the MPI library's own MPI_Dims_create, the baseline that the
// Mpi strategy and the comparison tools report.
#pragma once

#include <cstdint>
#include <vector>

namespace hcart {

/// \brief Calls MPI_Dims_create(ranks, dims.size(), dims) of the linked MPI library:
/// entries > 0 are kept, zeros are filled (MPI must be initialised).
/// \throws hcart::InputError when the fixed entries do not divide `ranks`, or for more
/// than 16 dimensions.
std::vector<std::int64_t> mpi_dims_create(std::int64_t ranks, std::vector<std::int64_t> dims);

} // namespace hcart
