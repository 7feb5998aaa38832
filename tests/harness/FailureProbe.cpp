// Tests that fail on purpose, run by tests/harness/check_failure_probe.cmake (never
// registered as a test of their own): they show that a failure on one rank fails the test
// on time, on every rank, instead of hanging.
#include "WorldRanks.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

using hcart::test::world_rank;

TEST(FailureProbe, FailsOnRankOneOnly) {
  if (world_rank() == 1) ADD_FAILURE() << "deliberate failure on rank 1";
}

TEST(FailureProbe, PassesAfterwards) {
  SUCCEED();
}

// The worst case: rank 1 leaves the test at a fatal assertion while rank 0 goes on into a
// collective that rank 1 will never join.
TEST(FailureProbe, FatalOnRankOneWhileOthersWait) {
  ASSERT_NE(world_rank(), 1) << "deliberate fatal failure on rank 1";
  MPI_Barrier(MPI_COMM_WORLD);
}
