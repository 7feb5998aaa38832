// hcart::Timers: regions add up their time and calls, time added from elsewhere counts,
// misuse is an error, the summary over ranks holds every region any rank used with its
// min / mean / max and imbalance, and regions fence as their setting says.
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/core/ExecutionModel.hpp>
#include <hcart/core/Timers.hpp>

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <string>
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

namespace {
// One work item that runs for a while: `steps` dependent updates of one value.
struct Busy {
  Kokkos::View<double*, hcart::MemorySpace> value;
  long steps;
  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    double x = value(0);
    for (long s = 0; s < steps; ++s)
      x = x * 0.999999 + 1e-7;
    value(0) = x;
  }
};

void busy(const Busy& kernel) {
  Kokkos::parallel_for("busy", Kokkos::RangePolicy<hcart::ExecutionSpace>(0, 1), kernel);
}
} // namespace

// HCART_TIMER_FENCES: 1 or 0, by default fences on a host backend alone; another value is
// refused naming it. A fenced region waits for its kernels; an unfenced one on a device
// counts their launch alone (on a host backend a kernel is done when its launch returns).
TEST(Timers, FencesAsTheirSettingSays) {
  const char* before = std::getenv("HCART_TIMER_FENCES");
  const std::string kept = before != nullptr ? before : "";
  unsetenv("HCART_TIMER_FENCES");
  EXPECT_EQ(hcart::Timers::default_fences(), hcart::host_execution);
  EXPECT_EQ(hcart::Timers().fences(), hcart::host_execution);
  setenv("HCART_TIMER_FENCES", "1", 1);
  EXPECT_TRUE(hcart::Timers().fences());
  setenv("HCART_TIMER_FENCES", "0", 1);
  EXPECT_FALSE(hcart::Timers().fences());
  setenv("HCART_TIMER_FENCES", "yes", 1);
  try {
    hcart::Timers timers;
    ADD_FAILURE() << "HCART_TIMER_FENCES=yes accepted";
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("HCART_TIMER_FENCES='yes'"), std::string::npos)
        << e.what();
  }
  if (before != nullptr) {
    setenv("HCART_TIMER_FENCES", kept.c_str(), 1);
  } else {
    unsetenv("HCART_TIMER_FENCES");
  }

  const Busy kernel{Kokkos::View<double*, hcart::MemorySpace>("busy", 1), 20000000};
  busy(kernel); // the first launch's set-up out of the times
  hcart::fence("busy");
  const auto t0 = std::chrono::steady_clock::now();
  busy(kernel);
  hcart::fence("busy");
  const double alone = hcart::seconds_since(t0);
  hcart::Timers fenced, unfenced;
  fenced.set_fences(true);
  unfenced.set_fences(false);
  {
    auto scope = fenced.region("busy");
    busy(kernel);
  }
  {
    auto scope = unfenced.region("busy");
    busy(kernel);
  }
  hcart::fence("busy");
  EXPECT_GE(fenced.seconds("busy"), 0.5 * alone);
  if (!hcart::host_execution) {
    EXPECT_LT(unfenced.seconds("busy"), 0.5 * alone);
  }
  EXPECT_EQ(unfenced.summarize(MPI_COMM_SELF).front().calls, 1);
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
