// The block rule with a multiple (hcart/mapping/Blocks.hpp) and the choice of the ranks that
// keep an agglomerated level (hcart/mapping/Agglomeration.hpp), against blocks and bytes
// worked out by hand or counted by independent code.
#include <hcart/core/Error.hpp>
#include <hcart/mapping/Agglomeration.hpp>
#include <hcart/mapping/Blocks.hpp>
#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Mesh.hpp>

#include <gtest/gtest.h>

#include <map>
#include <vector>

using hcart::AgglomerationProblem;
using hcart::AgglomerationRule;

namespace {

std::vector<std::int64_t> extents(std::int64_t size, std::int64_t pieces, std::int64_t multiple) {
  std::vector<std::int64_t> e;
  for (std::int64_t c = 0; c < pieces; ++c)
    e.push_back(hcart::block_extent(size, pieces, c, multiple));
  return e;
}

} // namespace

// The cases, worked out by hand: 64 cells in 4 levels (multiple 8) on 3, 5, 6, 7
// ranks along one direction; and 127 vertex-centred points in 4 levels (128 / 8 units).
TEST(BlockRule, MultiplesWorkedOutByHand) {
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(extents(64, 3, 8), (V{24, 24, 16}));
  EXPECT_EQ(extents(64, 5, 8), (V{16, 16, 16, 8, 8}));
  EXPECT_EQ(extents(64, 6, 8), (V{16, 16, 8, 8, 8, 8}));
  EXPECT_EQ(extents(64, 7, 8), (V{16, 8, 8, 8, 8, 8, 8}));
  EXPECT_EQ(extents(64, 3, 1), (V{22, 21, 21})); // the balanced rule, as before
  EXPECT_EQ(extents(127, 2, 8), (V{64, 63}));
  EXPECT_EQ(extents(127, 3, 8), (V{40, 40, 47})); // the short last unit: the extra one last
  EXPECT_EQ(extents(127, 5, 16), (V{16, 16, 32, 32, 31}));
  EXPECT_EQ(hcart::block_offset(64, 3, 2, 8), 48);
  EXPECT_EQ(hcart::block_offset(64, 3, 3, 8), 64);
  EXPECT_EQ(hcart::block_offset(127, 3, 3, 8), 127);
}

// Every boundary between blocks a multiple, the blocks adding up to the size, offsets the
// running sum, and a multiple of 1 the balanced rule.
TEST(BlockRule, BoundariesAtMultiplesForEverySplit) {
  for (std::int64_t size : {1, 7, 16, 63, 64, 100, 127, 255}) {
    for (std::int64_t m : {1, 2, 4, 8, 16}) {
      if (m > size) continue;
      for (std::int64_t d = 1; d <= (size + m - 1) / m; ++d) {
        std::int64_t sum = 0;
        for (std::int64_t c = 0; c < d; ++c) {
          EXPECT_EQ(hcart::block_offset(size, d, c, m), sum) << size << " " << d << " " << m;
          if (c > 0) {
            EXPECT_EQ(sum % m, 0) << size << " " << d << " " << m;
          }
          sum += hcart::block_extent(size, d, c, m);
        }
        EXPECT_EQ(sum, size);
        if (m == 1) {
          EXPECT_EQ(hcart::block_extent(size, d, 0), size / d + (size % d > 0 ? 1 : 0));
        }
      }
    }
  }
}

TEST(BlockRule, BoundsKeepEveryBlockAtLeastItsHalo) {
  hcart::Mesh mesh{{64, 127, 20}, {1, 1, 3}, {false, false, false}, {}, {8, 8, 4}};
  const auto b = hcart::cut_bounds(mesh);
  EXPECT_EQ(b[0], 8);  // 8 units of 8
  EXPECT_EQ(b[1], 15); // 16 units; 16 pieces would leave the last 7 points, under a multiple
  EXPECT_EQ(b[2], 5);  // 5 units of 4 >= 3
  mesh.halo_width = {9, 1, 5};
  const auto c = hcart::cut_bounds(mesh);
  EXPECT_EQ(c[0], 4); // 2 units a block
  EXPECT_EQ(c[2], 2); // units of 4, 2 each: 8, 8, 4 would leave 4 < 5 for 3 pieces
  mesh.block_multiple = {8, 0, 1};
  EXPECT_THROW(hcart::validate(mesh), hcart::InputError);
  mesh.block_multiple = {65, 1, 1};
  EXPECT_THROW(hcart::validate(mesh), hcart::InputError);
}

namespace {

// A problem on `machine` (ranks in block order: rank r is machine rank r) with the process
// grid `dims`, pieces of `bytes` each.
AgglomerationProblem problem_on(const char* machine, std::vector<std::int64_t> dims,
                                std::int64_t bytes, std::int64_t cells, std::int64_t threshold,
                                hcart::Placement placement = hcart::Placement::Block) {
  const hcart::Machine m = hcart::Machine::parse(machine, placement);
  AgglomerationProblem p;
  p.dims = std::move(dims);
  for (std::int64_t r = 0; r < m.ranks(); ++r) {
    p.units.push_back(m.unit_indices(r));
    p.piece_bytes.push_back(bytes);
  }
  p.cells = cells;
  p.threshold = threshold;
  return p;
}

// The gather's bytes counted independently: each rank's piece to its box's owner, by the
// coarsest level at which they differ.
std::vector<std::int64_t> count(const AgglomerationProblem& p, const std::vector<std::int64_t>& group,
                                const std::vector<std::int64_t>& owners) {
  const std::size_t levels = p.units.front().size();
  std::vector<std::int64_t> total(levels + 1, 0);
  const std::int64_t nx = p.dims[0], ny = p.dims[1], nz = p.dims[2];
  for (std::int64_t x = 0; x < nx; ++x)
    for (std::int64_t y = 0; y < ny; ++y)
      for (std::int64_t z = 0; z < nz; ++z) {
        const std::int64_t r = (x * ny + y) * nz + z;
        const std::int64_t box =
            ((x / group[0]) * (ny / group[1]) + y / group[1]) * (nz / group[2]) + z / group[2];
        const std::int64_t o = owners[static_cast<std::size_t>(box)];
        std::size_t l = levels;
        for (std::size_t k = 0; k < levels && r != o; ++k) {
          if (p.units[r][k] != p.units[o][k]) {
            l = k;
            break;
          }
        }
        if (r == o) l = levels;
        total[l] += p.piece_bytes[static_cast<std::size_t>(r)];
      }
  return total;
}

} // namespace

// The group size: enough cells per rank, in the machine's units where they serve.
TEST(Agglomeration, GroupSizeFollowsTheMachine) {
  // 8 ranks, 512 cells: 64 a rank; 512 wanted: all in one.
  EXPECT_EQ(hcart::agglomeration_group_size(problem_on("node:4 core:2", {2, 2, 2}, 8, 512, 512)), 8);
  // 4096 cells, 8 ranks: 512 a rank: nothing to do.
  EXPECT_EQ(hcart::agglomeration_group_size(problem_on("node:4 core:2", {2, 2, 2}, 8, 4096, 512)), 1);
  // 2048 cells: 256 a rank; 2 a box (a node's cores).
  EXPECT_EQ(hcart::agglomeration_group_size(problem_on("node:4 core:2", {2, 2, 2}, 8, 2048, 512)), 2);
  // 1024 cells: 4 a box: two whole nodes (the machine's unit of 2, merged).
  EXPECT_EQ(hcart::agglomeration_group_size(problem_on("node:4 core:2", {2, 2, 2}, 8, 1024, 512)), 4);
  // 12 ranks of 3 cores, 2400 cells (200 a rank): 3 a box (a node), not the divisor 4.
  EXPECT_EQ(hcart::agglomeration_group_size(problem_on("node:4 core:3", {3, 2, 2}, 8, 2400, 500)), 3);
  // Fewer cells than the threshold in all: one rank.
  EXPECT_EQ(hcart::agglomeration_group_size(problem_on("node:2 core:3", {6, 1, 1}, 8, 100, 512)), 6);
}

// On a machine launched in block order, the boxes of a node's cores: nothing crosses a node.
TEST(Agglomeration, MachineRuleKeepsTheGatherInsideNodes) {
  // 8 ranks on 4 nodes of 2, grid 2x2x2 row-major: ranks (2k, 2k+1) share a node and differ
  // in z: boxes 1x1x2.
  const AgglomerationProblem p = problem_on("node:4 core:2", {2, 2, 2}, 100, 2048, 512);
  const hcart::Agglomeration a = hcart::choose_agglomeration(p, AgglomerationRule::Machine);
  EXPECT_EQ(a.group, (std::vector<std::int64_t>{1, 1, 2}));
  EXPECT_EQ(a.owners, (std::vector<std::int64_t>{0, 2, 4, 6}));
  EXPECT_EQ(a.bytes.total, count(p, a.group, a.owners));
  EXPECT_EQ(a.bytes.total[0], 0);   // across nodes
  EXPECT_EQ(a.bytes.total[1], 400); // within nodes: 4 pieces move
  EXPECT_EQ(a.bytes.total[2], 400); // stay with their owners
}

// Launched round-robin, a node's ranks are 4 apart: the machine rule finds boxes along x;
// the stride rule, every other rank, sends every piece across a node.
TEST(Agglomeration, StrideCrossesNodesWhereTheMachineRuleDoesNot) {
  const AgglomerationProblem p = problem_on("node:4 core:2", {2, 2, 2}, 100, 2048, 512,
                                            hcart::Placement::RoundRobin);
  const hcart::Agglomeration machine = hcart::choose_agglomeration(p, AgglomerationRule::Machine);
  const hcart::Agglomeration stride = hcart::choose_agglomeration(p, AgglomerationRule::Stride);
  EXPECT_EQ(machine.bytes.total[0], 0);
  EXPECT_EQ(machine.group, (std::vector<std::int64_t>{2, 1, 1}));
  EXPECT_EQ(stride.group, machine.group);
  EXPECT_EQ(stride.owners, (std::vector<std::int64_t>{0, 2, 4, 6}));
  EXPECT_EQ(stride.bytes.total, count(p, stride.group, stride.owners));
  EXPECT_GT(stride.bytes.total[0], 0);
}

// Uneven: 3 nodes of 3, 2 and 3 cores (8 ranks, grid 8x1x1), groups of 2: the counted bytes
// equal the independent count for both rules, and the machine rule never sends more across
// nodes than the stride rule.
TEST(Agglomeration, UnevenMachinesCountedExactly) {
  AgglomerationProblem p;
  p.dims = {8, 1, 1};
  const int node_of[8] = {0, 0, 0, 1, 1, 2, 2, 2};
  for (int r = 0; r < 8; ++r) {
    p.units.push_back({node_of[r], r});
    p.piece_bytes.push_back(10 + r);
  }
  p.cells = 2048;
  p.threshold = 512;
  const auto machine = hcart::choose_agglomeration(p, AgglomerationRule::Machine);
  const auto stride = hcart::choose_agglomeration(p, AgglomerationRule::Stride);
  EXPECT_EQ(machine.bytes.total, count(p, machine.group, machine.owners));
  EXPECT_EQ(stride.bytes.total, count(p, stride.group, stride.owners));
  EXPECT_LE(machine.bytes.total[0], stride.bytes.total[0]);
  // Boxes of 2 along x: (0,1) (2,3) (4,5) (6,7); (2,3) and (4,5) straddle nodes. Each owner
  // is the member with the larger piece: it receives the smaller one (across a node there).
  EXPECT_EQ(machine.owners, (std::vector<std::int64_t>{1, 3, 5, 7}));
  EXPECT_EQ(machine.bytes.total[0], 12 + 14);
}
