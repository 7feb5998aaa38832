// For tests: this process's place in MPI_COMM_WORLD, and communicators of its first ranks
// (runs on fewer ranks than the test was started with, to compare rank counts).
#pragma once

#include <mpi.h>

namespace hcart::test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

inline int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// \brief The first `n` ranks of the world (MPI_COMM_NULL on the others); free it.
inline MPI_Comm first_ranks(int n) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() < n ? 0 : MPI_UNDEFINED, world_rank(), &comm);
  return comm;
}

} // namespace hcart::test
