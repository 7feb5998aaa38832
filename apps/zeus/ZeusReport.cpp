// zeus's report (ZeusReport.hpp).
#include "ZeusReport.hpp"

#include "AppDeck.hpp"
#include "AppTimers.hpp"
#include "Compare.hpp"
#include "ExchangePrediction.hpp"
#include "Table.hpp"
#include "Text.hpp"
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

namespace hcart::zeus {

using apps::fixed;

Report run_once(const Config& config, bool verbose, int rank,
                const std::optional<MachineTimings>& timings) {
  Timers timers;
  auto total = std::make_unique<Timers::Region>(timers, "total");
  // The planner counts what an exchange sends (density, energy and three velocities, 26
  // neighbours) and, with a machine file, predicts its time.
  DecompositionOptions options = config.decomposition;
  options.traffic = {5 * 8, true};
  options.timings = timings;
  // With self-gravity the blocks nest for its multigrid levels, as far as its agglomeration
  // lets them (ZeusConfig.cpp): a refusal names that key too.
  const Decomposition decomp =
      decompose(MPI_COMM_WORLD, config.spec, options, config.deck,
                config.settings.gravity.enabled
                    ? std::vector<std::pair<std::string, std::string>>{{"gravity", "agglomeration"}}
                    : std::vector<std::pair<std::string, std::string>>{});
  const Grid grid(decomp);
  zeus::Solver hydro(grid, config.settings, timers, config.output);
  const double t_end = config.settings.t_end;
  auto progress = [&](const zeus::Progress& p) {
    if (rank != 0 || !verbose) return;
    std::printf("  step %ld  t = %.5g of %.5g  dt = %.3e  %.1f s\n", p.step, p.time, t_end, p.dt,
                p.seconds);
    std::fflush(stdout);
  };
  const zeus::Result result = hydro.run(progress);
  total.reset();
  Report r;
  r.strategy = to_string(decomp.report().strategy);
  r.machine = decomp.report().machine + " (" + decomp.report().machine_source + ")";
  r.notes = decomp.report().notes;
  const std::string crowded = apps::thread_binding_note(decomp.comm(), host_threads());
  if (!crowded.empty()) r.notes.push_back(crowded);
  const std::string unfenced = apps::timer_fences_note(timers);
  if (!unfenced.empty()) r.notes.push_back(unfenced);
  if (result.time < t_end && hydro.steps() >= config.settings.max_steps) {
    r.notes.push_back(
        "stopped at [hydro] max_steps = " + std::to_string(config.settings.max_steps) +
        " at t = " + fixed(result.time, "%.6g") +
        ", before [hydro] t_end = " + fixed(t_end, "%.6g") + ": raise max_steps to reach t_end");
  }
  r.dims = decomp.dims();
  r.grid = apps::identity_of(decomp);
  r.level_factors = decomp.level_factors();
  r.layout = decomp.plan().describe_layout();
  r.chosen_by = decomp.plan().chosen_by;
  r.result = result;
  r.timers = timers.summarize(decomp.comm());
  r.halo = apps::summed_halo_counters(hydro.halo().counters(), decomp.comm());
  const auto n = grid.local_size();
  const double zones = static_cast<double>(n[0]) * n[1] * n[2];
  double per_rank =
      result.seconds > 0 ? zones * static_cast<double>(result.steps) / result.seconds : 0.0;
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &per_rank, 1, MPI_DOUBLE, MPI_MIN, decomp.comm()));
  r.zone_updates_per_rank = per_rank;
  const double halo = apps::halo_seconds(timers);
  double share = timers.seconds("total") > 0 ? halo / timers.seconds("total") : 0.0;
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &share, 1, MPI_DOUBLE, MPI_MAX, decomp.comm()));
  r.halo_share = share;
  r.exchange = apps::exchange_timing(hydro.halo().counters(), halo, decomp, timings);
  r.mass = hydro.total_mass();
  return r;
}

void print_run(const Report& r) {
  std::cout << "\nstrategy " << r.strategy << ", machine " << r.machine << ", dims "
            << apps::join({r.dims[0], r.dims[1], r.dims[2]}) << ", level factors " << r.layout
            << " (" << r.chosen_by << ")\n";
  for (const auto& note : r.notes)
    std::cout << "  note: " << note << "\n";
  std::cout << "steps " << r.result.steps << ", t = " << r.result.time << ", "
            << fixed(r.result.seconds, "%.3f") << " s, "
            << fixed(r.zone_updates_per_rank / 1e6, "%.3f")
            << " million zone updates/s per rank (slowest), "
            << "halo exchange " << fixed(100 * r.halo_share, "%.1f") << "% of the time, total mass "
            << fixed(r.mass, "%.15g") << "\n\n";
  Timers::print(std::cout, r.timers);
}

// Compare mode's table: a column per strategy over its runs (min and median), and "same as"
// where a strategy produced the decomposition of an earlier one.
void print_comparison(const std::vector<std::vector<Report>>& runs) {
  apps::ComparisonTable<Report> table(runs);
  table.row("dims", [](std::size_t, const Report& r) {
    return apps::join({r.dims[0], r.dims[1], r.dims[2]});
  });
  table.row("decomposition", [&](std::size_t k, const Report&) {
    const std::string same = table.same_as(k);
    return same.empty() ? std::string("-") : same;
  });
  table.row("level factors", [](std::size_t, const Report& r) { return r.layout; });
  table.rule();
  apps::add_level_rows(table, runs.front().front().halo.level_names);
  table.row("all halo bytes", [](std::size_t, const Report& r) {
    long long sum = 0;
    for (std::size_t l = 0; l + 1 < r.halo.bytes.size(); ++l)
      sum += r.halo.bytes[l];
    return apps::human_bytes(static_cast<double>(sum));
  });
  table.row("runs", [&](std::size_t k, const Report&) { return std::to_string(runs[k].size()); });
  table.row("steps", [](std::size_t, const Report& r) { return std::to_string(r.result.steps); });
  table.row("seconds min / median", [&](std::size_t k, const Report&) {
    const apps::Spread t = table.seconds(k);
    return fixed(t.min, "%.3f") + " / " + fixed(t.median, "%.3f");
  });
  table.row("Mzone updates/s/rank", [](std::size_t, const Report& r) {
    return fixed(r.zone_updates_per_rank / 1e6, "%.3f");
  });
  table.row("halo / exchange", [](std::size_t, const Report& r) {
    return fixed(r.exchange.measured * 1e3, "%.3f ms");
  });
  if (runs.front().front().exchange.predicted) {
    table.row("halo / exchange, predicted", [](std::size_t, const Report& r) {
      return fixed(*r.exchange.predicted * 1e3, "%.3f ms");
    });
  }
  table.row("halo share",
            [](std::size_t, const Report& r) { return fixed(100 * r.halo_share, "%.1f%%"); });
  table.row("saving vs mpi, median time",
            [&](std::size_t k, const Report&) { return table.time_saving(k, 0); });
  std::cout << "\n";
  table.print(std::cout);
  std::cout << "(" << runs.front().size()
            << " runs per strategy, the strategies in turn; a strategy with the same dims and "
               "rank placement as another is the same decomposition)\n";
}

nlohmann::json to_json(const Report& r, const std::string& deck) {
  nlohmann::json j;
  j["schema"] = "hcart-zeus-report/1";
  j["deck"] = deck;
  apps::add_decomposition_json(j, r);
  j["machine"] = r.machine;
  j["steps"] = r.result.steps;
  j["time"] = r.result.time;
  j["seconds"] = r.result.seconds;
  j["zone_updates_per_second_per_rank"] = r.zone_updates_per_rank;
  j["halo_share"] = r.halo_share;
  j["total_mass"] = r.mass;
  j["timers"] = apps::timers_json(r.timers, false);
  j["halo"] = apps::halo_json(r.halo);
  return j;
}

} // namespace hcart::zeus
