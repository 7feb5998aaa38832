// hcart::reproducible_sums (hcart/grid/ReproducibleSums.hpp): the same bits on every rank
// count as on one rank, for addends of mixed magnitudes and signs; within its bound of a sum
// in long double taken cell by cell on the host; integers summed exactly; an empty entry
// zero; a NaN addend an error on every rank.
#include "WorldRanks.hpp"

#include <hcart/hcart.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace hcart;
using hcart::test::first_ranks;
using hcart::test::world_rank;

namespace {

constexpr std::int64_t kSize[3] = {37, 23, 19};

// The addends of global cell (i, j, k): a wave over nine decades of magnitude, an integer, zero.
KOKKOS_INLINE_FUNCTION double wave(long long i, long long j, long long k) {
  double scale = 1e-4;
  for (long long p = 0; p < (i + 2 * j) % 10; ++p)
    scale *= 10.0;
  return scale * math::sin(0.37 * static_cast<double>(i) + 1.1 * static_cast<double>(j) +
                           0.07 * static_cast<double>(k));
}

struct Addends {
  long long offset[3];
  bool poison;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, ReductionArray<double, 3>& x) const {
    const long long gi = offset[0] + i, gj = offset[1] + j, gk = offset[2] + k;
    x[0] = wave(gi, gj, gk);
    x[1] = static_cast<double>(gi - 3 * gj + gk);
    x[2] = 0.0;
    if (poison && gi == 5 && gj == 7 && gk == 11) x[0] = math::infinity() - math::infinity(); // NaN
  }
};

ReductionArray<double, 3> sums_on(MPI_Comm comm, bool poison = false) {
  GridSpec spec;
  spec.global_size = {kSize[0], kSize[1], kSize[2]};
  const Decomposition decomp(comm, spec);
  const Grid grid(decomp);
  Addends a{{grid.global_index(0, 0), grid.global_index(1, 0), grid.global_index(2, 0)}, poison};
  return reproducible_sums<3>(comm, "test sums", grid.owned_box(), a);
}

} // namespace

TEST(ReproducibleSums, SameBitsOnEveryRankCountAndNearTheExactSum) {
  const ReductionArray<double, 3> all = sums_on(MPI_COMM_WORLD);
  long double reference = 0, largest = 0;
  long long integers = 0;
  for (long long i = 0; i < kSize[0]; ++i) {
    for (long long j = 0; j < kSize[1]; ++j) {
      for (long long k = 0; k < kSize[2]; ++k) {
        const double w = wave(i, j, k);
        reference += w;
        largest = std::max(largest, std::fabs(static_cast<long double>(w)));
        integers += i - 3 * j + k;
      }
    }
  }
  const long double cells = static_cast<long double>(kSize[0] * kSize[1] * kSize[2]);
  // The bound: each addend within 2^-61 of the largest, and the final roundings.
  EXPECT_LE(std::fabs(static_cast<long double>(all[0]) - reference),
            cells * std::ldexp(largest, -61) + std::fabs(reference) * 2e-16L)
      << "sum " << all[0] << ", long double " << static_cast<double>(reference);
  EXPECT_EQ(all[1], static_cast<double>(integers));
  EXPECT_EQ(all[2], 0.0);
  if (MPI_Comm one = first_ranks(1); one != MPI_COMM_NULL) {
    const ReductionArray<double, 3> single = sums_on(one);
    EXPECT_EQ(std::memcmp(all.values, single.values, sizeof(all.values)), 0)
        << "on all ranks " << all[0] << ", on one " << single[0];
    MPI_Comm_free(&one);
  }
}

TEST(ReproducibleSums, ANanIsAnErrorOnEveryRank) {
  try {
    sums_on(MPI_COMM_WORLD, true);
    ADD_FAILURE() << "no error for a NaN addend";
  } catch (const Error& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("entry 0 has an addend that is NaN or infinite"),
              std::string::npos)
        << e.what();
  }
}
