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

/// \brief Runs body(comm) on the first min(n, world size) ranks, comm being their
/// communicator; the other ranks skip it. For tests of numerics that need not run on every
/// rank (many exchanges of a small mesh, slow on oversubscribed ranks).
template <class Body>
void on_first_ranks(int n, Body body) {
  MPI_Comm comm = first_ranks(n < world_size() ? n : world_size());
  if (comm == MPI_COMM_NULL) return;
  body(comm);
  MPI_Comm_free(&comm);
}

} // namespace hcart::test
