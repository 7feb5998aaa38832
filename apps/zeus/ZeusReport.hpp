// What zeus reports: one run's summary (its decomposition, timers, zone updates, halo
// traffic per level, the exchange's time against the machine file's prediction) printed and
// written as JSON, and the side-by-side table of compare mode.
#pragma once

#include "Compare.hpp"
#include "ExchangePrediction.hpp"
#include "ZeusConfig.hpp"
#include "ZeusSolver.hpp"

#include <hcart/core/Timers.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/mapping/TimeModel.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace hcart::zeus {

/// \brief Everything about one finished run, identical on every rank.
struct Report {
  std::string strategy, machine;
  std::vector<std::string> notes;
  std::array<int, 3> dims{};
  apps::DecompositionIdentity grid; ///< dims and placement, to tell identical decompositions apart
  std::vector<std::array<int, 3>> level_factors;
  std::string layout;    ///< Plan::describe_layout()
  std::string chosen_by; ///< Plan::chosen_by
  zeus::Result result;
  std::vector<Timers::Summary> timers;
  HaloCounters halo;                ///< summed over ranks: machine levels, then "self"
  double zone_updates_per_rank = 0; ///< per second
  double halo_share = 0;            ///< of the slowest rank's total
  apps::ExchangeTiming exchange;    ///< per halo exchange, measured and (machine file) predicted
  double mass = 0;
};

/// \brief One run of `config` (collective): the solver to the end, then its report.
Report run_once(const Config& config, bool verbose, int rank,
                const std::optional<MachineTimings>& timings = {});
/// \brief One run's summary, as rank 0 prints it.
void print_run(const Report& r);
/// \brief Compare mode's table: a column per strategy over its runs (min and median).
void print_comparison(const std::vector<std::vector<Report>>& runs);
/// \brief One run's report as the JSON of the timer report file, with the resolved deck.
nlohmann::json to_json(const Report& r, const std::string& deck);

} // namespace hcart::zeus
