// Field checks shared by the benchmarks: a benchmark compares its variants bit for bit before
// it times them.
#pragma once

#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Box.hpp>
#include <hcart/grid/Field.hpp>

#include <mpi.h>

#include <cstring>

namespace hcart::bench {

/// \brief The cells of `box` where a and b differ in any bit (host copies), summed over
/// all ranks of MPI_COMM_WORLD. Collective.
inline long count_differing_cells(const Field<double>& a, const Field<double>& b, const Box& box) {
  const auto ha = host_copy(a), hb = host_copy(b);
  long differ = 0;
  for (int i = box.lo[0]; i < box.hi[0]; ++i)
    for (int j = box.lo[1]; j < box.hi[1]; ++j)
      for (int k = box.lo[2]; k < box.hi[2]; ++k)
        differ += std::memcmp(&ha(i, j, k), &hb(i, j, k), sizeof(double)) != 0;
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  return differ;
}

} // namespace hcart::bench
