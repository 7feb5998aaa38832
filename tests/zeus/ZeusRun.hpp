// What the ZEUS tests share: decks, a run to t_end (or a number of steps) on a communicator
// without files, profiles along a direction, and the owned zones gathered on rank 0.
#pragma once

#include "GatherField.hpp"
#include "WorldRanks.hpp"
#include "ZeusConfig.hpp"
#include "ZeusSolver.hpp"

#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/io/Deck.hpp>

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

namespace hcart::test::zeus_run {

inline zeus::Config config(const std::string& deck,
                           const std::vector<std::string>& overrides = {}) {
  return zeus::read_config(Deck::parse(deck, "test", overrides, zeus::schema()));
}

inline std::string sod_deck(char direction, int zones) {
  std::string size = direction == 'x'   ? "[" + std::to_string(zones) + ", 4, 4]"
                     : direction == 'y' ? "[4, " + std::to_string(zones) + ", 4]"
                                        : "[4, 4, " + std::to_string(zones) + "]";
  std::string deck = "[mesh]\nsize = " + size + "\n[boundary]\n";
  for (char d : std::string("xyz")) {
    const char* kind = d == direction ? "outflow" : "periodic";
    deck += std::string(1, d) + "_lower = \"" + kind + "\"\n" + std::string(1, d) + "_upper = \"" +
            kind + "\"\n";
  }
  deck += "[hydro]\ngamma = 1.4\nt_end = 0.2\n[problem]\nname = \"sod\"\ndirection = \"" +
          std::string(1, direction) + "\"\n";
  return deck;
}

// Runs the problem to t_end on `comm` without writing files.
struct Simulation {
  std::unique_ptr<Decomposition> decomp;
  std::unique_ptr<Grid> grid;
  Timers timers;
  std::unique_ptr<zeus::Solver> hydro;
  Simulation(MPI_Comm comm, const zeus::Config& c, long steps = -1) {
    decomp = std::make_unique<Decomposition>(comm, c.spec, c.decomposition);
    grid = std::make_unique<Grid>(*decomp);
    hydro = std::make_unique<zeus::Solver>(*grid, c.settings, timers, c.output);
    if (steps >= 0) {
      for (long s = 0; s < steps; ++s)
        hydro->step();
    } else {
      while (hydro->time() < c.settings.t_end)
        hydro->step();
    }
  }
};

// Averages of the owned zones of `field` over the planes normal to direction a, all ranks.
inline std::vector<double> profile(const Simulation& run, const Field<double>& field, int a) {
  const Grid& g = *run.grid;
  const auto host = hcart::host_copy(field);
  const auto n = g.local_size(), h = g.halo_width();
  const auto off = g.global_offset();
  std::vector<double> sum(static_cast<std::size_t>(g.global_size()[a]), 0.0);
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        const int idx[3] = {i, j, k};
        sum[static_cast<std::size_t>(off[a] + idx[a])] += host(i + h[0], j + h[1], k + h[2]);
      }
  MPI_Allreduce(MPI_IN_PLACE, sum.data(), static_cast<int>(sum.size()), MPI_DOUBLE, MPI_SUM,
                g.decomposition().comm());
  const auto G = g.global_size();
  const double plane = static_cast<double>(G[0] * G[1] * G[2] / G[a]);
  for (auto& v : sum)
    v /= plane;
  return sum;
}

// The owned zones of `field` on rank 0 of the run, in global order (empty elsewhere).
inline std::vector<double> gather(const Simulation& run, const Field<double>& field) {
  return gather_global(*run.grid, field);
}

} // namespace hcart::test::zeus_run
