#include "ExchangePrediction.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/io/MachineFile.hpp>

#include <algorithm>

namespace hcart::apps {

ExchangeTiming exchange_timing(const HaloCounters& mine, double halo_seconds,
                               const Decomposition& decomp,
                               const std::optional<MachineTimings>& timings) {
  ExchangeTiming t;
  t.exchanges = mine.exchanges;
  double slowest = halo_seconds;
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, decomp.comm()));
  t.measured = t.exchanges > 0 ? slowest / static_cast<double>(t.exchanges) : 0.0;
  // The run's counters per exchange: their average (a run whose exchanges differ, ZEUS's
  // sweeps and source step, is predicted as that many average exchanges).
  const std::int64_t exchanges = std::max<std::int64_t>(1, mine.exchanges);
  std::vector<std::int64_t> bytes, messages;
  for (std::size_t l = 0; l < mine.bytes.size(); ++l) {
    bytes.push_back(mine.bytes[l] / exchanges);
    messages.push_back(mine.messages[l] / exchanges);
  }
  t.loads = measured_loads(bytes, messages, decomp);
  if (timings) {
    agree_on_errors(decomp.comm(),
                    [&] { t.predicted = predict_exchange_time(t.loads, *timings).seconds; });
  }
  return t;
}

void add_machine_file_option(CLI::App& app, std::string& path) {
  app.add_option("--machine-file", path,
                 "measured figures of the machine (hcart-machine --measure): compare mode shows "
                 "each strategy's predicted time per halo exchange beside the measured one");
}

std::optional<MachineTimings> load_machine_file(const std::string& path, MPI_Comm comm) {
  if (path.empty()) return std::nullopt;
  return read_machine_file(path, comm);
}

} // namespace hcart::apps
