#include "AppTimers.hpp"

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/topology/Detect.hpp>

namespace hcart::apps {

void account_halo_times(Timers& timers, const HaloExchanger& halo, HaloTimes& accounted) {
  const HaloTimes& t = halo.times();
  timers.add("halo.pack", t.pack - accounted.pack + t.post - accounted.post);
  timers.add("halo.wait", t.wait - accounted.wait);
  timers.add("halo.unpack", t.unpack - accounted.unpack);
  if (t.check > accounted.check) timers.add("halo.check", t.check - accounted.check);
  if (t.stage > accounted.stage) timers.add("halo.stage", t.stage - accounted.stage);
  accounted = t;
}

double halo_seconds(const Timers& timers) {
  return timers.seconds("halo.pack") + timers.seconds("halo.wait") + timers.seconds("halo.unpack") +
         timers.seconds("halo.check") + timers.seconds("halo.stage");
}

std::string timer_fences_note(const Timers& timers) {
  if (host_execution || timers.fences()) return {};
  return "the timers' regions do not fence the device: a region counts its kernels' launches, "
         "and their run where something waits for them (a reduction, an exchange with "
         "messages); HCART_TIMER_FENCES=1 times each region's kernels, at a round trip each";
}

std::string thread_binding_note(MPI_Comm comm, int threads) {
  int units = bound_processing_units();
  if (units <= 0) units = 1 << 20; // unknown: no note
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &units, 1, MPI_INT, MPI_MIN, comm));
  if (threads <= units) return "";
  return std::to_string(threads) + " threads per rank share " + std::to_string(units) +
         (units == 1 ? " processing unit" : " processing units") +
         " of the rank's CPU binding: give each rank its cores (Open MPI: mpiexec --map-by "
         "slot:PE=" +
         std::to_string(threads) +
         " --bind-to core; Slurm: --cpus-per-task=" + std::to_string(threads) + ")";
}

HaloCounters summed_halo_counters(const HaloCounters& mine, MPI_Comm comm) {
  HaloCounters all = mine;
  for (auto* counts : {&all.bytes, &all.messages}) {
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, counts->data(), static_cast<int>(counts->size()),
                                  MPI_INT64_T, MPI_SUM, comm));
  }
  return all;
}

nlohmann::json halo_json(const HaloCounters& counters) {
  nlohmann::json levels = nlohmann::json::array();
  for (std::size_t l = 0; l < counters.level_names.size(); ++l) {
    levels.push_back({{"name", counters.level_names[l]},
                      {"bytes", counters.bytes[l]},
                      {"messages", counters.messages[l]}});
  }
  return {{"levels", levels}};
}

nlohmann::json timers_json(const std::vector<Timers::Summary>& summary, bool with_calls) {
  nlohmann::json timers = nlohmann::json::array();
  for (const auto& t : summary) {
    nlohmann::json entry = {{"name", t.name},
                            {"min", t.min},
                            {"mean", t.mean},
                            {"max", t.max},
                            {"imbalance", t.imbalance}};
    if (with_calls) entry["calls"] = t.calls;
    timers.push_back(entry);
  }
  return timers;
}

} // namespace hcart::apps
