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

// Nodes holding different rank counts: "node:[4,4,2]", filled in block order inside.
TEST(Machine, UnevenNodes) {
  const Machine m = Machine::parse("node:[4,4,2] socket:2 core:2");
  EXPECT_FALSE(m.even());
  EXPECT_EQ(m.ranks(), 10);
  EXPECT_EQ(m.level_count(), 3);
  EXPECT_EQ(m.levels()[0].size, 3);
  EXPECT_EQ(m.node_ranks(), (Factors{4, 4, 2}));
  EXPECT_EQ(m.unit_indices(5), (Factors{1, 0, 1}));
  EXPECT_EQ(m.unit_indices(9), (Factors{2, 0, 1})); // the last node: socket 0 only
  EXPECT_EQ(m.to_string(), "node:[4x2,2] socket:2 core:2");
  EXPECT_EQ(Machine::parse(m.to_string()).to_string(), m.to_string());
  for (std::int64_t r = 0; r < m.ranks(); ++r)
    EXPECT_EQ(m.block_number(r), r); // a block launch: world order is block order
  EXPECT_EQ(m.node_first_block(2), 8);

  // Round-robin deals the ranks to the nodes with room: 0,1,2 | 3,4,5 | 6,7 | 8,9 on 0,1.
  const Machine rr = Machine::parse("node:[4,4,2] core:4", Placement::RoundRobin);
  const Factors node_of{0, 1, 2, 0, 1, 2, 0, 1, 0, 1};
  const Factors block_of{0, 4, 8, 1, 5, 9, 2, 6, 3, 7};
  for (std::int64_t r = 0; r < rr.ranks(); ++r) {
    EXPECT_EQ(rr.unit_indices(r)[0], node_of[r]) << r;
    EXPECT_EQ(rr.block_number(r), block_of[r]) << r;
  }

  // "AxN": N nodes of A ranks; a list of equal counts is an even machine.
  EXPECT_EQ(Machine::parse("node:[16x3,8] core:16").node_ranks(), (Factors{16, 16, 16, 8}));
  const Machine even = Machine::parse("node:[4x3] core:8");
  EXPECT_TRUE(even.even());
  EXPECT_EQ(even.to_string(), "node:3 core:4");
  EXPECT_TRUE(Machine::parse("node:4 socket:2 core:4").even());
}

TEST(Machine, UnevenDescriptionsAreCheckedWithOneLine) {
  const std::pair<const char*, const char*> bad[] = {
      {"node:[4,4,2]", "holds 4 ranks, expected 1 to 1 (no finer level)"},
      {"node:[4,5] core:4", "node 1 holds 5 ranks, expected 1 to 4 (a whole node)"},
      {"node:[4,0] core:4", "'0' in '[4,0]'"},
      {"node:[] core:4", "is not a list of ranks per unit"},
      {"node:[4,,2] core:4", "an empty entry in '[4,,2]'"},
      {"node:[4x0] core:4", "'4x0' in '[4x0]'"},
      {"node:[4,a] core:4", "count 'a' of level 'node'"},
      {"node:[4,4 core:4", "'[' without its ']'"},
      {"node:2 core:[2,1]", "only the first (coarsest) level may"},
      {"node:[4x20000000] core:4", "more than 16777216"},
  };
  for (const auto& [text, expected] : bad) {
    try {
      Machine::parse(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const hcart::InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(expected), std::string::npos) << text << ": " << what;
      EXPECT_NE(what.find(std::string("machine '") + text + "'"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

// A measured table: uneven when some combination of indices is no rank's; the same indices
// twice, or a node without ranks, are refused.
TEST(Machine, MeasuredTables) {
  const std::vector<hcart::MachineLevel> levels{{"node", 2}, {"core", 2}};
  const Machine even(levels, {1, 0, 1, 1, 0, 0, 0, 1}, "detected");
  EXPECT_TRUE(even.even());
  EXPECT_EQ(even.block_number(0), 2);
  const Machine uneven(levels, {0, 0, 0, 1, 1, 0}, "detected");
  EXPECT_FALSE(uneven.even());
  EXPECT_EQ(uneven.node_ranks(), (Factors{2, 1}));
  EXPECT_THROW(Machine(levels, {0, 0, 0, 0, 1, 0}, "detected"), hcart::InputError);
  EXPECT_THROW(Machine(levels, {0, 0, 0, 1}, "detected"), hcart::InputError);
  EXPECT_THROW(Machine(levels, {0, 0, 0}, "detected"), hcart::InputError);
}
