// The time model against closed forms: curves sampled from known power laws and lines,
// read back between and beyond the samples; predictions of small machines worked out by hand.
#include <hcart/core/Error.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/TimeModel.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using hcart::ExchangeSample;
using hcart::LevelTiming;
using hcart::MachineTimings;

namespace {
// A level whose exchange takes a * x^p seconds, sampled at x = 1000 * 2^k.
LevelTiming power_law(const std::string& name, double a, double p, int samples) {
  LevelTiming level{name, 2, 1e-6, 2, {}};
  for (int k = 0; k < samples; ++k) {
    const std::int64_t x = std::int64_t{1000} << k;
    level.exchange.push_back({x, a * std::pow(static_cast<double>(x), p)});
  }
  return level;
}
} // namespace

TEST(TimeModel, ReadsAPowerLawExactlyBetweenItsSamples) {
  for (double p : {0.5, 1.0, 1.37, 2.0}) {
    const LevelTiming level = power_law("node", 3e-9, p, 6);
    for (std::int64_t x : {1000, 1001, 1500, 2999, 7777, 20000, 31999, 32000}) {
      const double expected = 3e-9 * std::pow(static_cast<double>(x), p);
      EXPECT_NEAR(level.exchange_seconds(x), expected, 1e-12 * expected) << "p " << p << " x " << x;
    }
  }
}

TEST(TimeModel, BelowTheFirstSampleItsTimeBeyondTheLastItsBandwidth) {
  // 1 ms at 1000 B, then 0.5 ms per further 1000 B: 2e6 B/s on the last segment.
  const LevelTiming level{"node", 4, 0, 2, {{1000, 1e-3}, {2000, 1.5e-3}}};
  EXPECT_DOUBLE_EQ(level.exchange_seconds(1), 1e-3);
  EXPECT_DOUBLE_EQ(level.exchange_seconds(999), 1e-3);
  EXPECT_DOUBLE_EQ(level.bandwidth(), 2e6);
  EXPECT_DOUBLE_EQ(level.exchange_seconds(4000), 1.5e-3 + 2000 / 2e6);
  EXPECT_DOUBLE_EQ(level.exchange_seconds(1000000), 1.5e-3 + 998000 / 2e6);
}

TEST(TimeModel, ANoisySampleNeverMakesMoreBytesFaster) {
  // The middle sample is faster than the first: it counts as the first's time.
  const LevelTiming level{"node", 2, 0, 1, {{1000, 2e-3}, {2000, 1e-3}, {4000, 4e-3}}};
  EXPECT_DOUBLE_EQ(level.exchange_seconds(2000), 2e-3);
  EXPECT_DOUBLE_EQ(level.exchange_seconds(1500), 2e-3);
  // Between 2 ms at 2000 B and 4 ms at 4000 B the power law is a line through the origin.
  EXPECT_NEAR(level.exchange_seconds(3000), 3e-3, 1e-15);
  // A single sample: its volume over its time.
  const LevelTiming one{"core", 2, 0, 1, {{4096, 2e-3}}};
  EXPECT_DOUBLE_EQ(one.bandwidth(), 4096 / 2e-3);
}

TEST(TimeModel, TheSlowestLevelCountsAndMessagesBeyondTheCalibrationsAddLatency) {
  MachineTimings timings{"node:4 core:8",
                         {{"node", 4, 50e-6, 2, {{1000, 1e-3}, {2000, 2e-3}}},
                          {"core", 8, 1e-6, 1, {{1000, 1e-5}, {2000, 2e-5}}}}};
  // node: 2 ms at 2000 B, plus 4 - 2 messages of 50 us; core: 1.5e-5 s at 1500 B, 6 - 1
  // messages of 1 us.
  hcart::ExchangeTime t =
      hcart::predict_exchange_time({{"node", 2000, 4}, {"core", 1500, 6}}, timings);
  ASSERT_EQ(t.level_seconds.size(), 2u);
  EXPECT_NEAR(t.level_seconds[0], 2e-3 + 2 * 50e-6, 1e-15);
  EXPECT_NEAR(t.level_seconds[1], 1.5e-5 + 5e-6, 1e-15);
  EXPECT_EQ(t.slowest_level, 0);
  EXPECT_DOUBLE_EQ(t.seconds, t.level_seconds[0]);
  // One message per rank: no latency taken off the calibration's two.
  t = hcart::predict_exchange_time({{"node", 1000, 1}, {"core", 1000, 2}}, timings);
  EXPECT_DOUBLE_EQ(t.level_seconds[0], 1e-3);
  EXPECT_DOUBLE_EQ(t.level_seconds[1], 1e-5 + 1e-6);
  // Nothing crosses the nodes: the cores are the slowest level (one message more than
  // their calibration's one).
  t = hcart::predict_exchange_time({{"node", 0, 0}, {"core", 2000, 2}}, timings);
  EXPECT_EQ(t.slowest_level, 1);
  EXPECT_DOUBLE_EQ(t.seconds, 2e-5 + 1e-6);
  // Nothing crosses anything.
  t = hcart::predict_exchange_time({{"node", 0, 0}}, timings);
  EXPECT_EQ(t.slowest_level, -1);
  EXPECT_EQ(t.seconds, 0.0);
}

// The busiest unit's own link (the pair curve) and what the level's units share (the
// exchange curve, every unit sending, read at the mean load): 3 nodes in a row, the middle
// one sending twice what each end sends. Both curves are lines through the origin, so the
// expected times are exact.
TEST(TimeModel, TheBusiestUnitsLinkAndTheLevelsMeanLoad) {
  LevelTiming node{"node", 3, 10e-6, 2, {{1000, 2e-3}, {4000, 8e-3}}}; // 2 us per byte
  node.pair = {{1000, 1e-3}, {4000, 4e-3}};                            // 1 us per byte alone
  const MachineTimings timings{"node:3 core:2", {node}};
  // Middle 2000 B, ends 1000 B: 4000 B over 3 nodes, a mean of 1334 B (rounded up).
  auto t = hcart::predict_exchange_time({{"node", 2000, 2, 4000, 3}}, timings);
  EXPECT_NEAR(t.seconds, std::max(2000 * 1e-6, 1334 * 2e-6), 1e-15);
  // An even load (3 x 2000 B): the exchange curve at the busiest unit, as without pairs.
  t = hcart::predict_exchange_time({{"node", 2000, 2, 6000, 3}}, timings);
  EXPECT_NEAR(t.seconds, 4e-3, 1e-15);
  // One unit alone carrying bytes (4000 B over 4 units: a mean of 1000 B): its link.
  t = hcart::predict_exchange_time({{"node", 4000, 2, 4000, 4}}, timings);
  EXPECT_NEAR(t.seconds, std::max(4000 * 1e-6, 1000 * 2e-6), 1e-15);
  // Loads without totals, and figures without a pair curve: the exchange curve at the
  // busiest unit; the extra messages' latency adds in every case.
  t = hcart::predict_exchange_time({{"node", 2000, 3}}, timings);
  EXPECT_NEAR(t.seconds, 4e-3 + 10e-6, 1e-15);
  LevelTiming no_pair = node;
  no_pair.pair.clear();
  t = hcart::predict_exchange_time({{"node", 2000, 2, 4000, 3}}, {"node:3 core:2", {no_pair}});
  EXPECT_NEAR(t.seconds, 4e-3, 1e-15);
  EXPECT_DOUBLE_EQ(node.pair_seconds(3000), 3e-3);
  EXPECT_DOUBLE_EQ(no_pair.pair_seconds(3000), 6e-3);
}

TEST(TimeModel, ALevelWithBytesNeedsFiguresOfItsName) {
  const MachineTimings timings{"node:2", {{"node", 2, 0, 1, {{1000, 1e-3}}}}};
  EXPECT_NO_THROW(hcart::predict_exchange_time({{"socket", 0, 0}}, timings));
  try {
    hcart::predict_exchange_time({{"socket", 8, 1}}, timings);
    FAIL() << "no error";
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no figures for level 'socket'"), std::string::npos)
        << e.what();
  }
}

TEST(TimeModel, InvalidFiguresAreNamed) {
  auto message = [](const MachineTimings& t) {
    try {
      hcart::validate(t);
    } catch (const hcart::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const LevelTiming good{"node", 2, 1e-6, 1, {{1000, 1e-3}, {2000, 2e-3}}};
  EXPECT_EQ(message({"m", {good}}), "no error");
  EXPECT_NE(message({"m", {good, good}}).find("'node' appears twice"), std::string::npos);
  LevelTiming bad = good;
  bad.latency = -1;
  EXPECT_NE(message({"m", {bad}}).find("latency -1"), std::string::npos);
  bad = good;
  bad.messages = 0;
  EXPECT_NE(message({"m", {bad}}).find("messages = 0"), std::string::npos);
  bad = good;
  bad.exchange = {};
  EXPECT_NE(message({"m", {bad}}).find("no exchange samples"), std::string::npos);
  bad = good;
  bad.exchange[1].unit_bytes = 1000;
  EXPECT_NE(message({"m", {bad}}).find("1000 unit bytes, expected more than 1000"),
            std::string::npos);
  bad = good;
  bad.exchange[0].seconds = 0;
  EXPECT_NE(message({"m", {bad}}).find("time of 0 s"), std::string::npos);
  bad = good;
  bad.exchange[0].seconds = std::nan("");
  EXPECT_NE(message({"m", {bad}}).find("time of nan s"), std::string::npos);
  bad = good;
  bad.pair = {{1000, 1e-3}, {1000, 2e-3}};
  EXPECT_NE(message({"m", {bad}}).find("a pair sample of 1000 unit bytes"), std::string::npos);
  bad.pair = {{1000, -1.0}};
  EXPECT_NE(message({"m", {bad}}).find("a pair time of -1 s"), std::string::npos);
}

TEST(TimeModel, LevelLoadsAreTheTrafficModelsBusiestUnitAndRank) {
  // 8 ranks on 2 nodes of 4 along z of 8x8x16: each node sends one face of 8x8 cells.
  const hcart::Machine machine = hcart::Machine::parse("node:2 core:4");
  const hcart::Mesh mesh{{8, 8, 16}, {1, 1, 1}, {false, false, false}, {}};
  hcart::PlanOptions options;
  options.dims = {1, 1, 8};
  const hcart::Plan plan = hcart::make_plan(mesh, machine, options);
  const auto loads = hcart::level_loads(hcart::traffic_model(plan, machine, mesh, {8, false}));
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0].name, "node");
  EXPECT_EQ(loads[0].max_unit_bytes, 8 * 8 * 8);
  EXPECT_EQ(loads[0].max_rank_messages, 1);
  EXPECT_EQ(loads[1].name, "core");
  // A middle rank of a node sends a face to each side within the node.
  EXPECT_EQ(loads[1].max_rank_messages, 2);
  EXPECT_EQ(loads[1].max_unit_bytes, 2 * 8 * 8 * 8);
  // All together: each node sends its face; inside each node 3 boundaries both ways.
  EXPECT_EQ(loads[0].total_bytes, 2 * 8 * 8 * 8);
  EXPECT_EQ(loads[0].units, 2);
  EXPECT_EQ(loads[1].total_bytes, 2 * 3 * 2 * 8 * 8 * 8);
  EXPECT_EQ(loads[1].units, 8);
}
