// zeus: 3D Cartesian hydrodynamics in the ZEUS tradition, decomposed by hcart, from a deck.
//
//   hcart-mpiexec -n 2 build/bin/zeus inputs/zeus/sod_x.toml
//   hcart-mpiexec -n 4 build/bin/zeus inputs/zeus/sedov.toml --compare
#include "AppDeck.hpp"
#include "AppTimers.hpp"
#include "Compare.hpp"
#include "ExchangePrediction.hpp"
#include "Table.hpp"
#include "Text.hpp"
#include "ZeusConfig.hpp"
#include "ZeusReport.hpp"
#include "ZeusSolver.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/core/Collective.hpp>
#include <hcart/core/Main.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/io/Deck.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {
using namespace hcart;
using zeus::print_comparison;
using zeus::print_run;
using zeus::Report;
using zeus::run_once;
using zeus::to_json;
} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "zeus", [&](hcart::Environment& env) {
    hcart::CommandLine cli(
        "zeus",
        "zeus: 3D Cartesian hydrodynamics (ZEUS-like) decomposed by hcart. Keys: docs/decks.md.",
        zeus::schema());
    bool compare = false;
    int repeats = 3;
    hcart::apps::add_compare_options(
        cli.app(), compare, repeats,
        "run every strategy --repeats times, in turn, and print them side by side");
    std::string machine_file;
    hcart::apps::add_machine_file_option(cli.app(), machine_file);
    if (!cli.parse(argc, argv, MPI_COMM_WORLD)) return 0;
    const auto timings = hcart::apps::load_machine_file(machine_file, MPI_COMM_WORLD);
    const hcart::Deck deck = cli.load_deck(MPI_COMM_WORLD);
    zeus::Config config;
    hcart::agree_on_errors(MPI_COMM_WORLD, [&] { config = zeus::read_config(deck); });
    // The output directory must take the run's files (the final state at least) first.
    hcart::apps::prepare_output(MPI_COMM_WORLD, config.output, true);
    const bool root = env.rank() == 0;
    if (root) {
      std::cout << "zeus: " << env.size() << " ranks, deck " << deck.name() << ", resolved:\n"
                << deck.resolved() << std::endl;
      for (const auto& note : config.adjustments)
        std::cout << "zeus: note: " << note << std::endl;
    }
    if (!compare) {
      const Report report = run_once(config, true, env.rank());
      if (root) print_run(report);
      hcart::apps::write_report(MPI_COMM_WORLD, config.output,
                                to_json(report, deck.resolved()).dump(2) + "\n");
      return 0;
    }
    std::vector<std::string> compare_notes;
    const auto strategies = hcart::apps::compare_strategies(config.decomposition, config.spec,
                                                            env.size(), compare_notes);
    if (root) {
      for (const auto& note : compare_notes)
        std::cout << "zeus: note: " << note << std::endl;
    }
    const auto runs =
        hcart::apps::run_in_turn<Report>(strategies, repeats, [&](hcart::Strategy s, int repeat) {
          zeus::Config c = config;
          c.decomposition = hcart::apps::for_strategy(config.decomposition, s);
          c.output.directory = config.output.directory + "/" + hcart::to_string(s);
          if (root) {
            std::cout << "running strategy " << hcart::to_string(s) << " (run " << repeat + 1
                      << " of " << repeats << ")" << std::endl;
          }
          return run_once(c, false, env.rank(), timings);
        });
    if (root) print_comparison(runs);
    return 0;
  });
}
