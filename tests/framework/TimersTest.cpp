// hcart::Timers: regions add up their time and calls, time added from elsewhere counts,
// misuse is an error, and the summary over ranks holds every region any rank used with
// its min / mean / max and imbalance.
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/core/Timers.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

using hcart::test::world_rank;
using hcart::test::world_size;

TEST(Timers, RegionsAccumulateTimeAndCalls) {
  hcart::Timers timers;
  for (int r = 0; r < 3; ++r) {
    auto scope = timers.region("sleep");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_GE(timers.seconds("sleep"), 0.006);
  EXPECT_LT(timers.seconds("sleep"), 5.0);
  timers.add("elsewhere", 0.25, 4);
  timers.add("elsewhere", 0.5);
  EXPECT_DOUBLE_EQ(timers.seconds("elsewhere"), 0.75);
  EXPECT_EQ(timers.seconds("never"), 0.0);
  timers.start("manual");
  EXPECT_THROW(timers.start("manual"), hcart::Error) << "started twice";
  timers.stop("manual");
  EXPECT_THROW(timers.stop("manual"), hcart::Error) << "stopped but not running";
  timers.clear();
  EXPECT_EQ(timers.seconds("elsewhere"), 0.0);
}

// Each rank adds rank + 1 seconds to "work"; only the last rank uses "last".
TEST(Timers, TheSummaryOverRanks) {
  hcart::Timers timers;
  const int P = world_size(), me = world_rank();
  timers.add("work", me + 1.0, 2);
  if (me == P - 1) timers.add("last", 3.0);
  const auto summary = timers.summarize(MPI_COMM_WORLD);
  ASSERT_EQ(summary.size(), 2u) << "every region any rank used";
  const hcart::Timers::Summary* work = nullptr;
  for (const auto& s : summary) {
    if (s.name == "work") work = &s;
  }
  ASSERT_NE(work, nullptr);
  EXPECT_DOUBLE_EQ(work->min, 1.0);
  EXPECT_DOUBLE_EQ(work->max, P);
  EXPECT_DOUBLE_EQ(work->mean, (P + 1) / 2.0);
  EXPECT_DOUBLE_EQ(work->imbalance, P / ((P + 1) / 2.0) - 1.0);
  EXPECT_EQ(work->calls, 2);
  std::ostringstream table;
  hcart::Timers::print(table, summary);
  EXPECT_NE(table.str().find("work"), std::string::npos);
  EXPECT_NE(table.str().find("last"), std::string::npos);
}
