#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/ExchangePrediction.hpp>

#include <algorithm>
#include <map>

namespace hcart {

std::vector<LevelLoad> planned_loads(const Decomposition& decomp, const TrafficOptions& traffic) {
  return level_loads(
      traffic_model(decomp.plan(), decomp.machine(), decomp.spec().to_mesh(), traffic));
}

ExchangeTime predict_exchange_time(const Decomposition& decomp, const MachineTimings& timings,
                                   const TrafficOptions& traffic) {
  return predict_exchange_time(planned_loads(decomp, traffic), timings);
}

std::vector<LevelLoad> measured_loads(const std::vector<std::int64_t>& bytes,
                                      const std::vector<std::int64_t>& messages,
                                      const Decomposition& decomp) {
  const int levels = decomp.machine().level_count();
  const int size = decomp.size();
  // Per rank: bytes, then messages, of every machine level.
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

} // namespace hcart
