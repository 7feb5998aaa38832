#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>

#include <gtest/gtest.h>

namespace {
int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
int size_of(MPI_Comm comm) {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}
} // namespace

TEST(AgreeOnErrors, NothingHappensWhenAllRanksSucceed) {
  int calls = 0;
  EXPECT_NO_THROW(hcart::agree_on_errors(MPI_COMM_WORLD, [&] { ++calls; }));
  EXPECT_EQ(calls, 1);
}

TEST(AgreeOnErrors, AnErrorOnTheLastRankReachesEveryRank) {
  const int last = size_of(MPI_COMM_WORLD) - 1;
  try {
    hcart::agree_on_errors(MPI_COMM_WORLD, [&] {
      HCART_REQUIRE(rank_of(MPI_COMM_WORLD) != last, "size = " << -5 << ", expected >= 1");
    });
    FAIL() << "every rank must throw";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_STREQ(e.what(), "size = -5, expected >= 1");
  }
}

TEST(AgreeOnErrors, TheLowestFailingRankWinsAndKindsArePreserved) {
  const int me = rank_of(MPI_COMM_WORLD);
  try {
    hcart::agree_on_errors(MPI_COMM_WORLD,
                           [&] { throw std::runtime_error("rank " + std::to_string(me)); });
    FAIL() << "every rank must throw";
  } catch (const hcart::InputError&) {
    FAIL() << "a runtime_error must not become an InputError";
  } catch (const hcart::Error& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_STREQ(e.what(), "rank 0");
  }
}

TEST(AgreeOnErrors, CommunicationStillWorksAfterAnAgreedError) {
  EXPECT_THROW(
      hcart::agree_on_errors(MPI_COMM_WORLD, [] { throw hcart::InputError("everyone fails"); }),
      hcart::InputError);
  int one = 1, total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, size_of(MPI_COMM_WORLD));
}
