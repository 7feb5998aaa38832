// The hydro solver on any decomposition: bitwise identical results for every rank count and
// strategy (and on 6 ranks a node-regions plan), and a checkpoint resumed bitwise exactly on
// another rank count.
#include "ZeusRun.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

using namespace hcart;
using namespace hcart::test::zeus_run;
using hcart::test::first_ranks;
using hcart::test::world_rank;

TEST(Zeus, BitwiseIdenticalForEveryRankCountAndStrategy) {
  const std::vector<std::string> decks = {
      "[mesh]\nsize = [14, 12, 10]\n[boundary]\nx_lower = \"reflecting\"\ny_lower = "
      "\"reflecting\"\n"
      "z_upper = \"reflecting\"\n[hydro]\ngamma = 1.6666666666666667\n[problem]\nname = "
      "\"sedov\"\nsedov_radius = 0.2\n",
      "[mesh]\nsize = [12, 10, 14]\n[boundary]\nx_lower = \"periodic\"\nx_upper = "
      "\"periodic\"\ny_lower = "
      "\"periodic\"\ny_upper = \"periodic\"\n[problem]\nname = \"advection\"\npressure = "
      "1.0\nvelocity = [1.0, -0.5, "
      "0.25]\nbump_width = 0.2\n"};
  for (const auto& deck : decks) {
    std::vector<double> reference;
    if (MPI_Comm self = first_ranks(1); self != MPI_COMM_NULL) {
      const Simulation run(self, config(deck), 12);
      reference = gather(run, run.hydro->density());
      const auto e = gather(run, run.hydro->energy());
      reference.insert(reference.end(), e.begin(), e.end());
      MPI_Comm_free(&self);
    }
    // The strategies, and on 6 ranks the default on 3 nodes of 2, whose plan for the first
    // deck is node regions (boxes of different shapes): a permutation, not a grid.
    std::vector<std::vector<std::string>> runs = {{"decomposition.strategy=mpi"},
                                                  {"decomposition.strategy=weighted"},
                                                  {"decomposition.strategy=levelwise"},
                                                  {"decomposition.strategy=hierarchical"}};
    if (test::world_size() == 6)
      runs.push_back(
          {"decomposition.strategy=hierarchical", "decomposition.machine=node:3 core:2"});
    for (const auto& overrides : runs) {
      const std::string strategy = overrides.back();
      const Simulation run(MPI_COMM_WORLD, config(deck, overrides), 12);
      if (overrides.size() == 2 && &deck == &decks.front()) {
        EXPECT_EQ(run.decomp->plan().layout, hcart::PlanLayout::NodeRegions)
            << run.decomp->plan().describe_layout();
      }
      std::vector<double> mine = gather(run, run.hydro->density());
      const auto e = gather(run, run.hydro->energy());
      mine.insert(mine.end(), e.begin(), e.end());
      if (world_rank() == 0) {
        ASSERT_EQ(mine.size(), reference.size());
        EXPECT_EQ(std::memcmp(mine.data(), reference.data(), mine.size() * sizeof(double)), 0)
            << strategy << ", dims " << run.decomp->dims()[0] << "x" << run.decomp->dims()[1] << "x"
            << run.decomp->dims()[2] << ", " << run.decomp->plan().describe_layout();
      }
    }
  }
}

TEST(Zeus, CheckpointRestartOnAnotherRankCountIsBitwiseExact) {
  int P = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  // 21 zones in x: room for MPI_Dims_create's 7x1x1 when 7 of 8 ranks resume.
  const std::string deck =
      "[mesh]\nsize = [21, 12, 12]\n[boundary]\nx_lower = \"reflecting\"\ny_lower = "
      "\"reflecting\"\nz_lower = \"reflecting\"\n[hydro]\ngamma = 1.6666666666666667\n"
      "[problem]\nname = \"sedov\"\nsedov_radius = 0.25\n";
  std::vector<double> straight;
  {
    const Simulation run(MPI_COMM_WORLD, config(deck), 16);
    straight = gather(run, run.hydro->density());
  }
  const std::string directory =
      (std::filesystem::temp_directory_path() / ("hcart-zeus-restart-" + std::to_string(P)))
          .string();
  std::string checkpoint;
  {
    zeus::Config c =
        config(deck, {"decomposition.strategy=weighted", "output.directory=" + directory});
    const Simulation run(MPI_COMM_WORLD, c, 8);
    checkpoint = run.hydro->write_checkpoint();
  }
  const int readers = P > 1 ? P - 1 : 1;
  if (MPI_Comm comm = first_ranks(readers); comm != MPI_COMM_NULL) {
    zeus::Config c = config(deck, {"decomposition.strategy=mpi", "output.restart=" + checkpoint});
    const Simulation run(comm, c, 8);
    EXPECT_EQ(run.hydro->steps(), 16);
    const auto resumed = gather(run, run.hydro->density());
    if (world_rank() == 0) {
      ASSERT_EQ(resumed.size(), straight.size());
      long differ = 0;
      double worst = 0;
      for (std::size_t i = 0; i < straight.size(); ++i) {
        differ += resumed[i] != straight[i];
        worst = std::max(worst, std::fabs(resumed[i] - straight[i]));
      }
      EXPECT_EQ(differ, 0) << "largest difference " << worst << ", time " << run.hydro->time();
    }
    MPI_Comm_free(&comm);
  }
}
