// The time model for users: machine files (hcart/io/MachineFile.hpp) written and read back
// exactly, bad files an error on every rank; the loads of a decomposition's exchange as the
// traffic model plans them (hcart/grid/ExchangePrediction.hpp) equal the loads counted by a
// real exchange (an independent measurement: the exchanger's byte counters), and the
// prediction of a decomposition is the model's prediction of those loads.
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/ExchangePrediction.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/io/MachineFile.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

using hcart::test::world_rank;
using hcart::test::world_size;

namespace {

// Figures of a 2-level machine, with values no printer rounds to (1/3, 1e-7 / 7, ...).
hcart::MachineTimings two_levels() {
  hcart::MachineTimings t;
  t.machine = "node:2 core:2";
  hcart::LevelTiming node;
  node.name = "node";
  node.units = 2;
  node.latency = 1e-5 / 3;
  node.messages = 2;
  node.exchange = {{64, 2e-5 / 7}, {65536, 1.0 / 3e3}, {1048576, 4.0 / 3e2}};
  hcart::LevelTiming core = node;
  core.name = "core";
  core.latency = 1e-7 / 7;
  core.exchange = {{64, 1e-6 / 3}, {1048576, 1e-3 / 7}};
  core.pair = {{64, 1e-6 / 9}, {1048576, 1e-3 / 11}};
  t.levels = {node, core};
  return t;
}

std::string scratch(const std::string& name) {
  return (std::filesystem::current_path() /
          ("exchange-prediction-" + std::to_string(world_size())) / name)
      .string();
}

void write_text(const std::string& path, const std::string& text) {
  if (world_rank() == 0) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

} // namespace

TEST(MachineFile, WrittenAndReadBackExactly) {
  const hcart::MachineTimings t = two_levels();
  const std::string path = scratch("new/dir/machine.json"); // directories made on the way
  if (world_rank() == 0) {
    std::filesystem::remove_all(std::filesystem::path(path).parent_path());
    hcart::write_machine_file(path, t, "synthetic");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const hcart::MachineTimings back = hcart::read_machine_file(path, MPI_COMM_WORLD);
  EXPECT_EQ(back.machine, t.machine);
  ASSERT_EQ(back.levels.size(), t.levels.size());
  for (std::size_t l = 0; l < t.levels.size(); ++l) {
    const auto &a = t.levels[l], &b = back.levels[l];
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.units, a.units);
    EXPECT_EQ(b.latency, a.latency) << "bit for bit";
    EXPECT_EQ(b.messages, a.messages);
    ASSERT_EQ(b.exchange.size(), a.exchange.size());
    for (std::size_t s = 0; s < a.exchange.size(); ++s) {
      EXPECT_EQ(b.exchange[s].unit_bytes, a.exchange[s].unit_bytes);
      EXPECT_EQ(b.exchange[s].seconds, a.exchange[s].seconds) << "bit for bit";
    }
    ASSERT_EQ(b.pair.size(), a.pair.size());
    for (std::size_t s = 0; s < a.pair.size(); ++s)
      EXPECT_EQ(b.pair[s].seconds, a.pair[s].seconds);
  }
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp")) << "the temporary is renamed";
}

// A bad file on one rank only (another schema, a missing field, not JSON, absent): the same
// InputError on every rank, naming the file.
TEST(MachineFile, ABadFileIsAnErrorOnEveryRank) {
  const std::string good = hcart::machine_file_text(two_levels(), "synthetic");
  const std::string cases[][2] = {
      {"schema", "{\"schema\": \"hcart-machine-file/0\", \"machine\": \"x\", \"levels\": []}"},
      {"levels", "{\"schema\": \"hcart-machine-file/1\", \"machine\": \"x\"}"},
      {"not JSON", "{ this is not json"},
  };
  for (const auto& c : cases) {
    const std::string path = scratch(std::string("bad-") + std::to_string(&c - cases) + ".json");
    const std::string other = scratch("good.json");
    write_text(path, c[1]);
    write_text(other, good);
    // Only the last rank reads the bad file.
    const bool last = world_rank() == world_size() - 1;
    try {
      hcart::read_machine_file(last ? path : other, MPI_COMM_WORLD);
      ADD_FAILURE() << c[0] << ": expected an error";
    } catch (const hcart::InputError& e) {
      EXPECT_TRUE(e.collective());
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(c[0]), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(hcart::read_machine_file(scratch("absent.json"), MPI_COMM_WORLD), hcart::InputError);
}

// The planned loads against the loads a real exchange counted, per machine level, on a
// synthetic machine of 2 nodes (uneven blocks; Faces; one double field).
TEST(ExchangePrediction, PlannedLoadsAreWhatAnExchangeSends) {
  if (world_size() < 2 || world_size() % 2 != 0) GTEST_SKIP() << "2 nodes of equal ranks";
  hcart::GridSpec spec;
  spec.global_size = {23, 17, 30};
  spec.halo_width = {1, 1, 1};
  spec.periodic = {true, false, true};
  hcart::DecompositionOptions options;
  options.machine = "node:2 core:" + std::to_string(world_size() / 2);
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec, options);
  const hcart::Grid grid(decomp);
  const auto u = grid.make_field<double>("u");
  hcart::HaloExchanger halo(grid, hcart::HaloMode::Faces);
  halo.exchange(u);
  const hcart::HaloCounters& c = halo.counters();
  const auto measured = hcart::measured_loads(c.bytes, c.messages, decomp);
  const auto planned = hcart::planned_loads(decomp, {8, false});
  ASSERT_EQ(measured.size(), planned.size());
  for (std::size_t l = 0; l < planned.size(); ++l) {
    EXPECT_EQ(measured[l].name, planned[l].name);
    EXPECT_EQ(measured[l].max_unit_bytes, planned[l].max_unit_bytes) << planned[l].name;
    EXPECT_EQ(measured[l].total_bytes, planned[l].total_bytes) << planned[l].name;
    EXPECT_EQ(measured[l].max_rank_messages, planned[l].max_rank_messages) << planned[l].name;
  }
  EXPECT_GT(planned.front().max_unit_bytes, 0) << "the nodes exchange something";
  // The decomposition's prediction is the model's on those loads, the same on every rank.
  const hcart::MachineTimings t = two_levels();
  const hcart::ExchangeTime p = hcart::predict_exchange_time(decomp, t, {8, false});
  EXPECT_EQ(p.seconds, hcart::predict_exchange_time(planned, t).seconds);
  double mine = p.seconds, most = 0, least = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &least, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(most, least);
  EXPECT_GT(p.seconds, 0.0);
  // Figures that lack a level which carries bytes: an error naming it.
  hcart::MachineTimings cores_only = t;
  cores_only.levels.erase(cores_only.levels.begin());
  try {
    hcart::predict_exchange_time(decomp, cores_only, {8, false});
    ADD_FAILURE() << "expected an error";
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("node"), std::string::npos) << e.what();
  }
}
