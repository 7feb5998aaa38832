// The hydro solver's run control: a state that stops being finite ends the run on every
// rank, a deck's adjustments are said, and a finished checkpoint is refused.
#include "ZeusRun.hpp"

#include <hcart/core/Error.hpp>

#include <gtest/gtest.h>

#include <filesystem>

using namespace hcart;
using namespace hcart::test::zeus_run;

// A state that stops being finite (here: an energy of 1e308 / (gamma - 1), infinite) ends
// the run with an error on every rank instead of going on.
TEST(Zeus, ANonFiniteStateStopsTheRunOnEveryRank) {
  const zeus::Config c = config(sod_deck('x', 32), {"problem.sod_left=[1.0, 1e308]"});
  try {
    const Simulation run(MPI_COMM_WORLD, c, 3);
    FAIL() << "a run with an infinite energy went on";
  } catch (const hcart::InputError&) {
    FAIL() << "a numerical failure is not an input error";
  } catch (const hcart::Error& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("no longer finite at step 0"), std::string::npos)
        << e.what();
  }
}

// A Sedov radius smaller than the zones is raised, and the adjustment is said.
TEST(Zeus, ASedovRadiusBelowTheZonesIsRaisedAndSaid) {
  const std::string deck = "[mesh]\nsize = [20, 20, 20]\n[problem]\nname = \"sedov\"\n"
                           "sedov_radius = 0.01\n";
  const zeus::Config c = config(deck);
  ASSERT_EQ(c.adjustments.size(), 1u);
  EXPECT_NE(c.adjustments[0].find("[problem] sedov_radius = 0.01 is less than 1.5 zones"),
            std::string::npos)
      << c.adjustments[0];
  EXPECT_DOUBLE_EQ(c.settings.sedov_radius, 1.5 * 0.05);
  EXPECT_TRUE(config(deck, {"problem.sedov_radius=0.2"}).adjustments.empty());
}

// A checkpoint already at t_end is refused before the first step.
TEST(Zeus, ARestartFromAFinishedCheckpointIsRefused) {
  const int P = test::world_size();
  const std::string directory =
      (std::filesystem::temp_directory_path() / ("hcart-zeus-finished-" + std::to_string(P)))
          .string();
  const std::string deck = sod_deck('x', 32);
  std::string checkpoint;
  {
    const Simulation run(MPI_COMM_WORLD, config(deck, {"output.directory=" + directory}), 4);
    checkpoint = run.hydro->write_checkpoint();
  }
  try {
    const Simulation run(MPI_COMM_WORLD,
                         config(deck, {"output.restart=" + checkpoint, "hydro.max_steps=4"}), 0);
    FAIL() << "a checkpoint at max_steps was accepted";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("the checkpoint is at step 4"), std::string::npos)
        << e.what();
  }
}
