#include "MachineFile.hpp"

#include "Text.hpp"

namespace hcart::apps {

Table machine_timings_table(const MachineTimings& timings) {
  Table table({"level", "units", "latency", "bandwidth", "exchange, smallest", "largest"});
  for (const LevelTiming& level : timings.levels) {
    const ExchangeSample& first = level.exchange.front();
    const ExchangeSample& last = level.exchange.back();
    table.add_row({level.name, std::to_string(level.units), fixed(level.latency * 1e6, "%.1f us"),
                   fixed(level.bandwidth() / 1e6, "%.1f MB/s"),
                   human_bytes(static_cast<double>(first.unit_bytes)) + " in " +
                       fixed(first.seconds * 1e3, "%.3f ms"),
                   human_bytes(static_cast<double>(last.unit_bytes)) + " in " +
                       fixed(last.seconds * 1e3, "%.3f ms")});
  }
  return table;
}

} // namespace hcart::apps
