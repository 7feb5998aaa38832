// hcart::LevelCommunicators: for every synthetic machine of the rank count and both rank
// numberings, each level's unit communicator holds the ranks of one unit, every member
// has the unit index the decomposition gives it, and the leaders are rank 0 of each unit;
// the calibration (measure_level_timings) on uneven machines.
#include "Specs.hpp"
#include "SyntheticMachines.hpp"
#include "WorldRanks.hpp"

#include <hcart/grid/Decomposition.hpp>
#include <hcart/topology/LevelCommunicators.hpp>
#include <hcart/topology/LevelTimings.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using hcart::Decomposition;
using hcart::DecompositionOptions;
using hcart::Placement;
using hcart::test::machines_for;
using hcart::test::make_spec;
using hcart::test::world_size;

TEST(LevelCommunicators, UnitsAndLeadersFollowTheMachine) {
  const int P = world_size();
  for (const auto& text : machines_for(P)) {
    for (Placement placement : {Placement::Block, Placement::RoundRobin}) {
      DecompositionOptions options;
      options.machine = text;
      options.placement = placement;
      const Decomposition d(MPI_COMM_WORLD, make_spec({32, 32, 32}, {1, 1, 1}, {}), options);
      const hcart::LevelCommunicators levels(d.comm(), d.machine(), d.original_rank(d.rank()));
      ASSERT_EQ(levels.level_count(), d.machine().level_count());
      std::int64_t below = P;
      for (int l = 0; l < levels.level_count(); ++l) {
        below /= levels.units(l);
        int unit_size = 0;
        MPI_Comm_size(levels.unit(l), &unit_size);
        EXPECT_EQ(unit_size, below) << text << " level " << l;
        EXPECT_EQ(levels.unit_index(l), d.unit_indices()[l]);
        // Everyone in my unit has my unit index.
        int mine = static_cast<int>(levels.unit_index(l)), lo = 0, hi = 0;
        MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, levels.unit(l));
        MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, levels.unit(l));
        EXPECT_EQ(lo, hi);
        int unit_rank = 0;
        MPI_Comm_rank(levels.unit(l), &unit_rank);
        EXPECT_EQ(levels.leaders(l) != MPI_COMM_NULL, unit_rank == 0);
        if (levels.leaders(l) != MPI_COMM_NULL) {
          int leaders = 0;
          MPI_Comm_size(levels.leaders(l), &leaders);
          EXPECT_EQ(leaders, levels.units(l));
        }
      }
    }
  }
}

// The calibration on uneven machines (nodes of different rank counts, round-robin and
// block): every rank sends the same, so partners agree on the message sizes and nothing
// hangs or truncates; the node level gets increasing curves, and a pair curve when it has 3
// units or more.
TEST(LevelCommunicators, CalibrationRunsOnUnevenMachines) {
  const int P = hcart::test::world_size();
  if (P < 3) GTEST_SKIP() << "an uneven machine needs 3 ranks";
  std::vector<std::string> machines{"node:[" + std::to_string(P - 1) +
                                    ",1] core:" + std::to_string(P - 1)};
  if (P >= 4) { // 3 nodes: a pair curve too
    machines.push_back("node:[" + std::to_string(P - 2) + ",1,1] core:" + std::to_string(P - 2));
  }
  hcart::LevelTimingOptions options;
  options.min_unit_bytes = 1024;
  options.max_unit_bytes = 8192;
  options.repetitions = 1;
  options.passes = 1;
  options.warmup_unit_bytes = 0;
  options.pingpongs = 2;
  for (const auto& text : machines) {
    for (Placement placement : {Placement::Block, Placement::RoundRobin}) {
      const hcart::Machine machine = hcart::Machine::parse(text, placement);
      const hcart::MachineTimings t =
          hcart::measure_level_timings(MPI_COMM_WORLD, machine, hcart::test::world_rank(), options);
      ASSERT_FALSE(t.levels.empty()) << text;
      const hcart::LevelTiming& node = t.levels[0];
      EXPECT_EQ(node.name, "node");
      EXPECT_EQ(node.units, machine.levels()[0].size);
      EXPECT_NO_THROW(hcart::validate(t)) << text;
      EXPECT_GE(node.exchange.size(), 2u) << text;
      EXPECT_EQ(node.pair.empty(), node.units < 3) << text;
    }
  }
}
