// hcart::Machine: machine descriptions parsed and checked, and every rank's unit index per
// level under block and round-robin numbering.
#include <hcart/core/Error.hpp>
#include <hcart/mapping/Machine.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using hcart::Machine;
using hcart::Placement;
using Factors = std::vector<std::int64_t>;

TEST(Machine, ParsesAndNumbersRanks) {
  const Machine m = Machine::parse("node:2 socket:2 core:4");
  EXPECT_EQ(m.ranks(), 16);
  EXPECT_EQ(m.level_count(), 3);
  EXPECT_EQ(m.unit_indices(5), (Factors{0, 1, 1}));
  const Machine rr = Machine::parse("node:2,socket:2,core:4", Placement::RoundRobin);
  EXPECT_EQ(rr.unit_indices(5), (Factors{1, 0, 2}));
  EXPECT_EQ(rr.to_string(), "node:2 socket:2 core:4");
  for (const char* bad : {"", "node", "node:", ":4", "node:0", "node:-1", "node:x", "node:2 node:2",
                          "no de:2", "node:99999999999", "a:65536 b:65536"}) {
    EXPECT_THROW(Machine::parse(bad), hcart::InputError) << bad;
  }
  EXPECT_THROW(hcart::parse_placement("scatter"), hcart::InputError);
}
