// hcart::mpi_dims_create: the MPI library's own MPI_Dims_create, the baseline that the
// Mpi strategy and the comparison tools report.
#pragma once

#include <hcart/mapping/Mesh.hpp>

#include <cstdint>
#include <vector>

namespace hcart {

/// \brief Calls MPI_Dims_create(ranks, dims.size(), dims) of the linked MPI library:
/// entries > 0 are kept, zeros are filled (MPI must be initialised).
/// \throws hcart::InputError when the fixed entries do not divide `ranks`, or for more
/// than 16 dimensions.
std::vector<std::int64_t> mpi_dims_create(std::int64_t ranks, std::vector<std::int64_t> dims);

/// \brief The Mpi strategy's dims for `mesh`: MPI_Dims_create over the directions that
/// can be cut at all. A free direction that may not be cut (size 1, or fewer cells than
/// two halo widths) is fixed to 1 first, as a user of a 2D code passes 2 dimensions.
/// \throws hcart::InputError as mpi_dims_create, or when the result cuts a direction into
/// more pieces than it may have (the mesh is too small for MPI_Dims_create's choice).
std::vector<std::int64_t> mpi_baseline_dims(std::int64_t ranks, std::vector<std::int64_t> dims,
                                            const Mesh& mesh);

} // namespace hcart
