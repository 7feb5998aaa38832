// For tests: the owned cells of a field of every rank, gathered on rank 0 of the grid's
// communicator in global index order (x slowest), to compare runs bit for bit.
#pragma once

#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>

#include <mpi.h>

#include <cmath>
#include <vector>

namespace hcart::test {

/// \brief The global field on rank 0 of grid's communicator (empty on the other ranks).
inline std::vector<double> gather_global(const Grid& grid, const Field<double>& field) {
  const auto g = grid.global_size();
  const auto n = grid.local_size();
  const auto h = grid.halo_width();
  const auto off = grid.global_offset();
  const auto host = hcart::host_copy(field);
  // (global linear index, value) pairs of this rank's owned cells.
  std::vector<double> mine;
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        mine.push_back(static_cast<double>(((off[0] + i) * g[1] + off[1] + j) * g[2] + off[2] + k));
        mine.push_back(host(i + h[0], j + h[1], k + h[2]));
      }
  const MPI_Comm comm = grid.decomposition().comm();
  int size = 0, count = static_cast<int>(mine.size());
  MPI_Comm_size(comm, &size);
  std::vector<int> counts(size), displs(size, 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  for (int r = 1; r < size; ++r)
    displs[r] = displs[r - 1] + counts[r - 1];
  const bool root = grid.decomposition().rank() == 0;
  std::vector<double> all(root ? displs[size - 1] + counts[size - 1] : 0);
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE,
              0, comm);
  std::vector<double> out;
  if (root) {
    out.assign(static_cast<std::size_t>(g[0] * g[1] * g[2]), std::nan(""));
    for (std::size_t p = 0; p < all.size(); p += 2)
      out[static_cast<std::size_t>(all[p])] = all[p + 1];
  }
  return out;
}

} // namespace hcart::test
