// The apps' timers: halo exchange times booked into the halo.* regions, the summary over
// ranks as JSON for the reports, and the reports' other shared JSON entries.
#pragma once

#include <hcart/core/Timers.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace hcart::apps {

/// \brief Adds what `halo` spent since `accounted` to the regions halo.pack (packing and
/// posting), halo.wait, halo.unpack and (when it ran) halo.check of `timers`, and moves
/// `accounted` up to now.
void account_halo_times(Timers& timers, const HaloExchanger& halo, HaloTimes& accounted);

/// \brief This rank's seconds in halo exchanges so far: the regions account_halo_times
/// books (packing and posting, waiting, unpacking, the collective check of the fields).
double halo_seconds(const Timers& timers);

/// \brief A note when this rank runs more threads than its CPU binding has processing units
/// (Open MPI binds each of up to 2 ranks to one core by default, so threads would share
/// it), saying how to give each rank its cores; empty otherwise. Collective over `comm`:
/// the note of the rank with the fewest units.
std::string thread_binding_note(MPI_Comm comm, int threads);

/// \brief A note when the timers' regions do not fence a device (Timers::fences): what their
/// times then count and how to time each region's kernels; empty otherwise.
std::string timer_fences_note(const Timers& timers);

/// \brief The halo counters of every rank of `comm` added up (collective): bytes and messages
/// per level; the level names and the exchanges are this rank's.
HaloCounters summed_halo_counters(const HaloCounters& mine, MPI_Comm comm);

/// \brief The reports' "halo" entry: {"levels": [{"name", "bytes", "messages"}, ...]}.
nlohmann::json halo_json(const HaloCounters& counters);

/// \brief One object per region: name, min, mean, max, imbalance (and calls, when asked).
nlohmann::json timers_json(const std::vector<Timers::Summary>& summary, bool with_calls);

/// \brief Adds a run report's decomposition entries to `j`: "strategy", "dims",
/// "level_factors", "layout" and "chosen_by", from the members of those names.
template <class Report>
void add_decomposition_json(nlohmann::json& j, const Report& r) {
  j["strategy"] = r.strategy;
  j["dims"] = r.dims;
  j["level_factors"] = r.level_factors;
  j["layout"] = r.layout;
  j["chosen_by"] = r.chosen_by;
}

} // namespace hcart::apps
