// The halo plan on its own (no MPI): every message's boxes against a brute-force account
// of which cells must arrive from where, for every neighbour pattern, width and mode.
#include <hcart/core/Error.hpp>
#include <hcart/halo/HaloPlan.hpp>

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

using hcart::Across;
using hcart::Block;
using hcart::Box;
using hcart::HaloMode;
using hcart::HaloPlan;

namespace {

using Cell = std::tuple<int, int, int>;

// A block and the layers an exchange fills.
struct Case {
  Block block;
  std::array<int, 3> width{};
};

// -1, 0 or +1: which side of the owned range local index i lies on in direction d.
int side_of(const Block& b, int d, int i) {
  const int lo = b.halo_width[d], hi = b.halo_width[d] + b.local_size[d];
  return i < lo ? -1 : (i >= hi ? 1 : 0);
}

// The cells the exchange must fill: halo cells within `width` layers of the owned cells,
// whose offset (the sides they lie on) has a neighbour; Faces: across one face only.
std::set<Cell> expected_cells(const Case& c, HaloMode mode) {
  const Block& b = c.block;
  std::set<Cell> out;
  for (int i = 0; i < b.local_size[0] + 2 * b.halo_width[0]; ++i)
    for (int j = 0; j < b.local_size[1] + 2 * b.halo_width[1]; ++j)
      for (int k = 0; k < b.local_size[2] + 2 * b.halo_width[2]; ++k) {
        const int idx[3] = {i, j, k};
        std::array<int, 3> o{};
        int outside = 0;
        bool too_far = false;
        for (int d = 0; d < 3; ++d) {
          o[d] = side_of(b, d, idx[d]);
          outside += o[d] != 0;
          const int below = b.halo_width[d] - idx[d];
          const int above = idx[d] - (b.halo_width[d] + b.local_size[d]) + 1;
          too_far = too_far || below > c.width[d] || above > c.width[d];
        }
        if (outside == 0 || too_far) continue;
        if (mode == HaloMode::Faces && outside > 1) continue;
        if (b.at(o).across == Across::Boundary) continue;
        out.insert({i, j, k});
      }
  return out;
}

// A block whose neighbours are those of a process grid: a side has a neighbour when the
// direction is cut (another rank, or itself when periodic with one rank) or periodic.
Case block_of(const std::array<int, 3>& n, const std::array<int, 3>& h, const std::array<int, 3>& w,
              const std::array<int, 3>& dims, const std::array<bool, 3>& periodic,
              const std::array<int, 3>& coords) {
  Case c;
  Block& b = c.block;
  c.width = w;
  b.local_size = n;
  b.halo_width = h;
  for (int x = -1; x <= 1; ++x)
    for (int y = -1; y <= 1; ++y)
      for (int z = -1; z <= 1; ++z) {
        const std::array<int, 3> o{x, y, z};
        if (x == 0 && y == 0 && z == 0) continue;
        bool none = false, self = true;
        for (int d = 0; d < 3; ++d) {
          if (o[d] == 0) continue;
          const int at = coords[d] + o[d];
          if (!periodic[d] && (at < 0 || at >= dims[d])) none = true;
          if (dims[d] > 1) self = false;
        }
        b.at(o).across = none ? Across::Boundary : (self ? Across::Self : Across::OtherRank);
      }
  return c;
}

// Checks a plan against the brute-force account; returns the number of problems.
int problems(const Case& c, HaloMode mode, hcart::FullMethod method) {
  const Block& b = c.block;
  const HaloPlan plan = hcart::plan_halo(b, c.width, mode, method);
  const std::set<Cell> expected = expected_cells(c, mode);
  std::map<Cell, int> received;
  std::set<Cell> available; // cells with their final values: owned, then what arrived
  Box owned;
  for (int d = 0; d < 3; ++d) {
    owned.lo[d] = b.halo_width[d];
    owned.hi[d] = b.halo_width[d] + b.local_size[d];
  }
  for (int i = owned.lo[0]; i < owned.hi[0]; ++i)
    for (int j = owned.lo[1]; j < owned.hi[1]; ++j)
      for (int k = owned.lo[2]; k < owned.hi[2]; ++k)
        available.insert({i, j, k});
  int bad = 0;
  for (const auto& phase : plan.phases) {
    std::set<Cell> arrived;
    for (const auto& m : phase.messages) {
      bad += m.send_box.cells() != m.recv_box.cells();
      for (int d = 0; d < 3; ++d)
        bad += m.send_box.extent(d) != m.recv_box.extent(d);
      bad += m.send_tag != Block::offset_index(m.offset);
      bad += m.recv_tag != Block::offset_index({-m.offset[0], -m.offset[1], -m.offset[2]});
      bad += m.local != (b.at(m.offset).across == Across::Self);
      // What is sent must be final already (owned, or arrived in an earlier phase).
      for (int i = m.send_box.lo[0]; i < m.send_box.hi[0]; ++i)
        for (int j = m.send_box.lo[1]; j < m.send_box.hi[1]; ++j)
          for (int k = m.send_box.lo[2]; k < m.send_box.hi[2]; ++k)
            bad += available.count({i, j, k}) == 0;
      for (int i = m.recv_box.lo[0]; i < m.recv_box.hi[0]; ++i)
        for (int j = m.recv_box.lo[1]; j < m.recv_box.hi[1]; ++j)
          for (int k = m.recv_box.lo[2]; k < m.recv_box.hi[2]; ++k) {
            ++received[{i, j, k}];
            arrived.insert({i, j, k});
          }
      // A message towards +x receives cells on the +x side and sends the owned cells
      // nearest to it; a local copy takes the owned cells on the opposite side (the
      // periodic wrap).
      for (int d = 0; d < 3; ++d) {
        const int sign = m.local ? -1 : 1;
        if (m.offset[d] > 0) {
          bad += m.recv_box.lo[d] != owned.hi[d];
          bad += sign > 0 ? m.send_box.hi[d] != owned.hi[d] : m.send_box.lo[d] != owned.lo[d];
        }
        if (m.offset[d] < 0) {
          bad += m.recv_box.hi[d] != owned.lo[d];
          bad += sign > 0 ? m.send_box.lo[d] != owned.lo[d] : m.send_box.hi[d] != owned.hi[d];
        }
      }
    }
    available.insert(arrived.begin(), arrived.end());
  }
  // Every expected cell exactly once, and nothing else.
  for (const auto& [cell, times] : received)
    bad += times != 1 || expected.count(cell) == 0;
  for (const auto& cell : expected)
    bad += received.count(cell) == 0;
  return bad;
}

} // namespace

TEST(HaloPlan, FacesFullAndConcurrentAgainstBruteForce) {
  std::mt19937_64 rng(11);
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::array<int, 3> n{}, h{}, w{}, dims{}, coords{};
    std::array<bool, 3> periodic{};
    for (int d = 0; d < 3; ++d) {
      h[d] = static_cast<int>(rng() % 4);
      n[d] = h[d] + 1 + static_cast<int>(rng() % 5);
      w[d] = h[d] == 0 ? 0 : 1 + static_cast<int>(rng() % h[d]);
      dims[d] = 1 + static_cast<int>(rng() % 3);
      coords[d] = static_cast<int>(rng() % dims[d]);
      periodic[d] = rng() % 2 == 0;
    }
    const Case b = block_of(n, h, w, dims, periodic, coords);
    for (HaloMode mode : {HaloMode::Faces, HaloMode::Full}) {
      for (auto method : {hcart::FullMethod::ThreePhase, hcart::FullMethod::Concurrent}) {
        EXPECT_EQ(problems(b, mode, method), 0)
            << "trial " << trial << " n " << n[0] << n[1] << n[2] << " h " << h[0] << h[1] << h[2]
            << " width " << w[0] << w[1] << w[2] << " dims " << dims[0] << dims[1] << dims[2]
            << " periodic " << periodic[0] << periodic[1] << periodic[2] << " mode "
            << (mode == HaloMode::Full ? "full" : "faces");
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 1600);
}

TEST(HaloPlan, PhasesAndMessageCounts) {
  const Case all =
      block_of({8, 8, 8}, {2, 2, 2}, {2, 2, 2}, {3, 3, 3}, {false, false, false}, {1, 1, 1});
  EXPECT_EQ(hcart::plan_halo(all.block, all.width, HaloMode::Faces).phases.size(), 1u);
  EXPECT_EQ(hcart::plan_halo(all.block, all.width, HaloMode::Faces).phases[0].messages.size(), 6u);
  const HaloPlan three = hcart::plan_halo(all.block, all.width, HaloMode::Full);
  ASSERT_EQ(three.phases.size(), 3u);
  for (const auto& phase : three.phases)
    EXPECT_EQ(phase.messages.size(), 2u);
  const HaloPlan concurrent =
      hcart::plan_halo(all.block, all.width, HaloMode::Full, hcart::FullMethod::Concurrent);
  ASSERT_EQ(concurrent.phases.size(), 1u);
  EXPECT_EQ(concurrent.phases[0].messages.size(), 26u);
  // A corner rank of a non-periodic grid: 3 faces, 7 of 26 offsets.
  const Case corner =
      block_of({8, 8, 8}, {1, 1, 1}, {1, 1, 1}, {2, 2, 2}, {false, false, false}, {0, 0, 0});
  EXPECT_EQ(hcart::plan_halo(corner.block, corner.width, HaloMode::Faces).phases[0].messages.size(),
            3u);
  EXPECT_EQ(
      hcart::plan_halo(corner.block, corner.width, HaloMode::Full, hcart::FullMethod::Concurrent)
          .phases[0]
          .messages.size(),
      7u);
  // A halo of 0 in x: nothing moves across x.
  const Case flat =
      block_of({8, 8, 1}, {1, 1, 0}, {1, 1, 0}, {2, 2, 1}, {true, true, true}, {0, 0, 0});
  EXPECT_EQ(hcart::plan_halo(flat.block, flat.width, HaloMode::Faces).phases[0].messages.size(),
            4u);
}

TEST(HaloPlan, AWidthBeyondTheHaloOrTheBlockIsRefused) {
  Case b = block_of({4, 4, 4}, {2, 2, 2}, {3, 2, 2}, {2, 1, 1}, {false, false, false}, {0, 0, 0});
  EXPECT_THROW(hcart::plan_halo(b.block, b.width, HaloMode::Faces), hcart::InputError);
  b = block_of({1, 4, 4}, {2, 2, 2}, {2, 2, 2}, {2, 1, 1}, {false, false, false}, {0, 0, 0});
  EXPECT_THROW(hcart::plan_halo(b.block, b.width, HaloMode::Faces), hcart::InputError);
  b.width = {1, 2, 2};
  EXPECT_NO_THROW(hcart::plan_halo(b.block, b.width, HaloMode::Faces));
}
