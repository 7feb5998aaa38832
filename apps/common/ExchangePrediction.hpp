// One run's halo exchanges against hcart's time model, for the apps' compare mode: the
// measured seconds per exchange beside the seconds predicted from a machine file
// (`--machine-file`, written by `hcart-machine --measure`; docs/machine-file.md).
#pragma once

#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/ExchangePrediction.hpp>
#include <hcart/grid/LevelCounters.hpp> // HaloCounters, without Kokkos
#include <hcart/mapping/TimeModel.hpp>

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace hcart::apps {

/// \brief A run's halo exchanges, measured and predicted.
struct ExchangeTiming {
  std::int64_t exchanges = 0;      ///< exchanges of the run
  double measured = 0;             ///< the slowest rank's halo seconds / exchanges
  std::optional<double> predicted; ///< the time model's seconds per exchange
  /// Per machine level, one exchange's busiest unit and most messages of a rank (what the
  /// default strategy minimises, coarse level first).
  std::vector<LevelLoad> loads;
};

/// \brief The exchange timing of a run whose halo took `halo_seconds` on this rank
/// (collective over decomp.comm()); `predicted` only with `timings`.
/// \throws hcart::InputError (on every rank) when the timings lack a level that carries bytes.
ExchangeTiming exchange_timing(const HaloCounters& mine, double halo_seconds,
                               const Decomposition& decomp,
                               const std::optional<MachineTimings>& timings);

/// \brief `--machine-file FILE` of the apps (compare mode predicts each exchange's time).
void add_machine_file_option(CLI::App& app, std::string& path);

/// \brief The machine file named by `path` ("" : none), read on every rank with one
/// agreement on errors.
std::optional<MachineTimings> load_machine_file(const std::string& path, MPI_Comm comm);

} // namespace hcart::apps
