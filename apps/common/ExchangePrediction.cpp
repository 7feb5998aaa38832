#include "ExchangePrediction.hpp"

#include "MachineFile.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <algorithm>
#include <map>

namespace hcart::apps {

std::vector<LevelLoad> exchange_loads(const std::vector<std::int64_t>& bytes,
                                      const std::vector<std::int64_t>& messages,
                                      const Decomposition& decomp) {
  const int levels = decomp.machine().level_count();
  const int size = decomp.size();
  // Per rank: bytes, then messages, of every machine level ("self" left out).
  std::vector<std::int64_t> counts(2 * static_cast<std::size_t>(levels));
  for (int l = 0; l < levels; ++l) {
    counts[l] = bytes.at(l);
    counts[levels + l] = messages.at(l);
  }
  std::vector<std::int64_t> all(counts.size() * static_cast<std::size_t>(size));
  HCART_MPI_CHECK(MPI_Allgather(counts.data(), 2 * levels, MPI_INT64_T, all.data(), 2 * levels,
                                MPI_INT64_T, decomp.comm()));
  std::vector<LevelLoad> loads;
  for (int l = 0; l < levels; ++l) {
    LevelLoad load{decomp.machine().levels()[l].name, 0, 0};
    std::map<std::vector<std::int64_t>, std::int64_t> per_unit;
    for (int r = 0; r < size; ++r) {
      std::vector<std::int64_t> unit = decomp.unit_indices_of(r);
      unit.resize(static_cast<std::size_t>(l) + 1);
      const std::int64_t* c = all.data() + static_cast<std::size_t>(r) * 2 * levels;
      per_unit[unit] += c[l];
      load.max_rank_messages = std::max(load.max_rank_messages, c[levels + l]);
    }
    for (const auto& [unit, unit_bytes] : per_unit) {
      load.max_unit_bytes = std::max(load.max_unit_bytes, unit_bytes);
      load.total_bytes += unit_bytes;
    }
    load.units = static_cast<std::int64_t>(per_unit.size());
    loads.push_back(load);
  }
  return loads;
}

ExchangeTiming exchange_timing(const HaloCounters& mine, double halo_seconds,
                               const Decomposition& decomp,
                               const std::optional<MachineTimings>& timings) {
  ExchangeTiming t;
  t.exchanges = mine.exchanges;
  double slowest = halo_seconds;
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, decomp.comm()));
  t.measured = t.exchanges > 0 ? slowest / static_cast<double>(t.exchanges) : 0.0;
  // The run's counters per exchange (every exchange of a run sends the same).
  const std::int64_t exchanges = std::max<std::int64_t>(1, mine.exchanges);
  std::vector<std::int64_t> bytes, messages;
  for (std::size_t l = 0; l < mine.bytes.size(); ++l) {
    bytes.push_back(mine.bytes[l] / exchanges);
    messages.push_back(mine.messages[l] / exchanges);
  }
  t.loads = exchange_loads(bytes, messages, decomp);
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
  std::optional<MachineTimings> timings;
  agree_on_errors(comm, [&] {
    if (!path.empty()) timings = read_machine_file(path);
  });
  return timings;
}

} // namespace hcart::apps
