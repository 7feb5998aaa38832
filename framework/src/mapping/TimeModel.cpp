#include <hcart/core/Error.hpp>
#include <hcart/mapping/TimeModel.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace hcart {

namespace {
void require_samples(const LevelTiming& level) {
  HCART_REQUIRE(!level.exchange.empty(),
                "hcart::TimeModel: level '" << level.name << "' has no exchange samples");
}

// The measured times, made non-decreasing in the bytes (noise never makes more bytes faster).
std::vector<double> monotone_times(const std::vector<ExchangeSample>& curve) {
  std::vector<double> t;
  double highest = 0;
  for (const ExchangeSample& s : curve) {
    highest = std::max(highest, s.seconds);
    t.push_back(highest);
  }
  return t;
}

double curve_bandwidth(const std::vector<ExchangeSample>& curve) {
  const std::vector<double> t = monotone_times(curve);
  const std::size_t n = curve.size();
  if (n >= 2 && t[n - 1] > t[n - 2]) {
    return static_cast<double>(curve[n - 1].unit_bytes - curve[n - 2].unit_bytes) /
           (t[n - 1] - t[n - 2]);
  }
  // One sample, or a last segment without slope: the largest volume over its whole time.
  return static_cast<double>(curve[n - 1].unit_bytes) / t[n - 1];
}

double curve_seconds(const std::vector<ExchangeSample>& curve, std::int64_t unit_bytes) {
  const std::vector<double> t = monotone_times(curve);
  const auto x = static_cast<double>(unit_bytes);
  if (unit_bytes <= curve.front().unit_bytes) return t.front();
  for (std::size_t k = 1; k < curve.size(); ++k) {
    if (unit_bytes <= curve[k].unit_bytes) {
      // A power law between the two samples: straight in log-log, as a curve that grows
      // from latency-bound to bandwidth-bound (and faster still, e.g. TCP under a shaped
      // link) is far closer to than a chord is.
      const auto x0 = static_cast<double>(curve[k - 1].unit_bytes);
      const auto x1 = static_cast<double>(curve[k].unit_bytes);
      return t[k - 1] * std::pow(t[k] / t[k - 1], std::log(x / x0) / std::log(x1 / x0));
    }
  }
  return t.back() + (x - static_cast<double>(curve.back().unit_bytes)) / curve_bandwidth(curve);
}

void validate_curve(const LevelTiming& level, const std::vector<ExchangeSample>& curve,
                    const char* which) {
  std::int64_t previous = 0;
  for (const ExchangeSample& s : curve) {
    HCART_REQUIRE(s.unit_bytes > previous, "hcart::TimeModel: level '"
                                               << level.name << "' has " << which << " sample of "
                                               << s.unit_bytes << " unit bytes, expected more than "
                                               << previous << " (increasing)");
    HCART_REQUIRE(std::isfinite(s.seconds) && s.seconds > 0,
                  "hcart::TimeModel: level '" << level.name << "' has " << which << " time of "
                                              << s.seconds << " s at " << s.unit_bytes
                                              << " bytes, expected a finite value > 0");
    previous = s.unit_bytes;
  }
}
} // namespace

double LevelTiming::bandwidth() const {
  require_samples(*this);
  return curve_bandwidth(exchange);
}

double LevelTiming::exchange_seconds(std::int64_t unit_bytes) const {
  require_samples(*this);
  return curve_seconds(exchange, unit_bytes);
}

double LevelTiming::pair_seconds(std::int64_t unit_bytes) const {
  if (pair.empty()) return exchange_seconds(unit_bytes);
  return curve_seconds(pair, unit_bytes);
}

const LevelTiming* MachineTimings::find(const std::string& name) const {
  for (const LevelTiming& level : levels) {
    if (level.name == name) return &level;
  }
  return nullptr;
}

void validate(const MachineTimings& timings) {
  std::set<std::string> names;
  for (const LevelTiming& level : timings.levels) {
    HCART_REQUIRE(!level.name.empty(), "hcart::TimeModel: a level without a name");
    HCART_REQUIRE(names.insert(level.name).second,
                  "hcart::TimeModel: level '" << level.name << "' appears twice");
    HCART_REQUIRE(level.units >= 1, "hcart::TimeModel: level '" << level.name
                                                                << "' has units = " << level.units
                                                                << ", expected >= 1");
    HCART_REQUIRE(level.messages >= 1, "hcart::TimeModel: level '"
                                           << level.name << "' has messages = " << level.messages
                                           << ", expected >= 1");
    HCART_REQUIRE(std::isfinite(level.latency) && level.latency >= 0,
                  "hcart::TimeModel: level '" << level.name << "' has latency " << level.latency
                                              << ", expected a finite value >= 0");
    require_samples(level);
    validate_curve(level, level.exchange, "an exchange");
    validate_curve(level, level.pair, "a pair");
  }
}

std::vector<LevelLoad> level_loads(const Traffic& traffic) {
  std::vector<LevelLoad> loads;
  for (std::size_t l = 0; l + 1 < traffic.levels.size(); ++l) {
    const LevelTraffic& t = traffic.levels[l];
    loads.push_back({t.name, t.max_unit_bytes, t.max_rank_messages, t.bytes, t.units});
  }
  return loads;
}

double level_seconds(const LevelLoad& load, const MachineTimings& timings) {
  if (load.max_unit_bytes <= 0) return 0;
  const LevelTiming* level = timings.find(load.name);
  HCART_REQUIRE(level != nullptr, "hcart::TimeModel: no figures for level '"
                                      << load.name << "' (the machine file was measured on "
                                      << timings.machine << ")");
  const std::int64_t extra = std::max<std::int64_t>(
      0, load.max_rank_messages - static_cast<std::int64_t>(level->messages));
  // The busiest unit's link, and the level's units together at their mean load.
  double bytes_bound = level->exchange_seconds(load.max_unit_bytes);
  if (!level->pair.empty() && load.units > 0 && load.total_bytes > 0) {
    const std::int64_t mean = (load.total_bytes + load.units - 1) / load.units;
    bytes_bound = std::max(level->pair_seconds(load.max_unit_bytes), level->exchange_seconds(mean));
  }
  return bytes_bound + static_cast<double>(extra) * level->latency;
}

ExchangeTime predict_exchange_time(const std::vector<LevelLoad>& loads,
                                   const MachineTimings& timings) {
  validate(timings);
  ExchangeTime out;
  for (std::size_t l = 0; l < loads.size(); ++l) {
    const double seconds = level_seconds(loads[l], timings);
    out.level_seconds.push_back(seconds);
    if (seconds > out.seconds) {
      out.seconds = seconds;
      out.slowest_level = static_cast<int>(l);
    }
  }
  return out;
}

} // namespace hcart
