// jacobi3d: the Laplace or Poisson equation on the unit cube by 7-point Jacobi iteration,
// decomposed by hcart, from an input deck.
//
//   hcart-mpiexec -n 2 build/bin/jacobi3d inputs/jacobi3d/default.toml
//   hcart-mpiexec -n 4 build/bin/jacobi3d inputs/jacobi3d/elongated.toml --compare
//   build/bin/jacobi3d DECK --set jacobi.max_iterations=200 --set mesh.size=[32,32,32]
#include "AppDeck.hpp"
#include "Compare.hpp"
#include "JacobiConfig.hpp"
#include "JacobiSolver.hpp"
#include "Multigrid.hpp"
#include "Passes.hpp"
#include "Report.hpp"
#include "Text.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/core/Collective.hpp>
#include <hcart/core/Main.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/io/Deck.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace hcart;

jacobi::RunReport run_once(const jacobi::Config& config, bool verbose, int rank,
                           const std::optional<MachineTimings>& timings = {}) {
  Timers timers;
  auto total = std::make_unique<Timers::Region>(timers, "total");
  // One decomposition (of the communication of one iteration), then the iterations per
  // pass and the halo they need, decided once (Passes.hpp).
  // The planner counts what an exchange sends (one field, 26 neighbours) and, with a machine
  // file, predicts its time.
  DecompositionOptions options = config.decomposition;
  options.traffic = {8, true};
  options.timings = timings;
  const bool multigrid = config.settings.solver == jacobi::Settings::Method::Multigrid;
  const double cells = static_cast<double>(config.spec.global_size[0]) *
                       static_cast<double>(config.spec.global_size[1]) *
                       static_cast<double>(config.spec.global_size[2]);
  const long max_iterations = config.settings.max_iterations;
  auto progress = [&](const jacobi::Progress& p) {
    if (rank != 0 || !verbose) return;
    const double mlups = cells * static_cast<double>(p.done) / p.seconds / 1e6;
    const double left =
        p.seconds / static_cast<double>(p.done) * static_cast<double>(max_iterations - p.iteration);
    std::printf("  %s %ld/%ld  residual %.3e  %.1f %s  %.1f s left at most\n",
                multigrid ? "cycle" : "iteration", p.iteration, max_iterations, p.residual, mlups,
                multigrid ? "MLUP/s per cycle" : "MLUP/s", left);
    std::fflush(stdout);
  };
  if (multigrid) {
    // The levels nest by construction: the fine blocks' boundaries at multiples of the
    // coarsest point's spacing (GridSpec::block_multiple).
    const HierarchyOptions h = jacobi::hierarchy_options(config.settings.multigrid);
    const Decomposition decomp = decompose(MPI_COMM_WORLD, nested_spec(config.spec, h), options,
                                           config.deck, {{"multigrid", "agglomeration"}});
    const GridHierarchy levels(decomp, h);
    jacobi::Multigrid solver(levels, config.settings, timers, config.output);
    const jacobi::Result result = solver.run(progress);
    total.reset();
    return jacobi::collect(decomp, jacobi::facts_of(solver), result, timers, timings);
  }
  const Decomposition decomp = decompose(MPI_COMM_WORLD, config.spec, options, config.deck);
  const jacobi::Passes passes = jacobi::plan_passes(config.settings, decomp);
  const Grid grid(decomp, passes.halo_width);
  jacobi::Solver solver(grid, config.settings, passes.iterations_per_pass, timers, config.output);
  const jacobi::Result result = solver.run(progress);
  total.reset();
  return jacobi::collect(decomp, jacobi::facts_of(solver), result, timers, timings);
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "jacobi3d", [&](hcart::Environment& env) {
    hcart::CommandLine cli("jacobi3d",
                           "jacobi3d: 7-point Jacobi for the Laplace or Poisson equation on the "
                           "unit cube, decomposed by hcart. Keys and defaults: docs/decks.md.",
                           jacobi::schema());
    bool compare = false;
    int repeats = 3;
    hcart::apps::add_compare_options(
        cli.app(), compare, repeats,
        "run every strategy (" + hcart::strategy_names(hcart::compared_strategies(false)) +
            "; manual too when dims fix every direction) --repeats times, in turn, and print "
            "them side by side");
    std::string machine_file;
    hcart::apps::add_machine_file_option(cli.app(), machine_file);
    if (!cli.parse(argc, argv, MPI_COMM_WORLD)) return 0;
    const auto timings = hcart::apps::load_machine_file(machine_file, MPI_COMM_WORLD);
    const hcart::Deck deck = cli.load_deck(MPI_COMM_WORLD);
    jacobi::Config config;
    hcart::agree_on_errors(MPI_COMM_WORLD, [&] { config = jacobi::read_config(deck); });
    // The output directory must take the run's files before the first iteration.
    const auto& out = config.output;
    hcart::apps::prepare_output(
        MPI_COMM_WORLD, out, out.every > 0 || out.checkpoint_every > 0 || !out.timers_json.empty());
    const bool root = env.rank() == 0;
    if (root) {
      std::cout << "jacobi3d: " << env.size() << " ranks, deck " << deck.name() << ", resolved:\n"
                << deck.resolved() << std::endl;
      for (const auto& note : deck.notes())
        std::cout << "jacobi3d: note: " << note << std::endl;
      for (const auto& note : config.adjustments)
        std::cout << "jacobi3d: note: " << note << std::endl;
    }
    if (!compare) {
      const jacobi::RunReport report = run_once(config, true, env.rank());
      if (root) jacobi::print_run(std::cout, report);
      hcart::apps::write_report(MPI_COMM_WORLD, config.output,
                                jacobi::to_json(report, deck.resolved()).dump(2) + "\n");
      return 0;
    }
    // The mesh each run decomposes: with multigrid, the fine level's blocks at whole
    // multiples of the coarsest spacing.
    const hcart::GridSpec spec =
        config.settings.solver == jacobi::Settings::Method::Multigrid
            ? hcart::nested_spec(config.spec, jacobi::hierarchy_options(config.settings.multigrid))
            : config.spec;
    std::vector<std::string> compare_notes;
    const auto strategies =
        hcart::apps::compare_strategies(config.decomposition, spec, env.size(), compare_notes);
    if (root) {
      for (const auto& note : compare_notes)
        std::cout << "jacobi3d: note: " << note << std::endl;
    }
    const auto runs = hcart::apps::run_in_turn<jacobi::RunReport>(
        strategies, repeats, [&](hcart::Strategy s, int repeat) {
          jacobi::Config c = config;
          c.decomposition = hcart::apps::for_strategy(config.decomposition, s);
          if (root) {
            std::cout << "running strategy " << hcart::to_string(s) << " (run " << repeat + 1
                      << " of " << repeats << ")" << std::endl;
          }
          return run_once(c, false, env.rank(), timings);
        });
    if (root) {
      std::cout << "\n";
      jacobi::print_comparison(std::cout, runs);
    }
    return 0;
  });
}
