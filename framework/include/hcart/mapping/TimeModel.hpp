// hcart::TimeModel: from the bytes of a halo exchange to its seconds, with figures measured
// on the machine (docs/machine-file.md, 'The model').
//
// A machine's levels (nodes, then sockets, ...) each get a LevelTiming, measured by
// hcart::measure_level_timings (topology/LevelTimings.hpp, run by `hcart-machine --measure`):
//   latency   half the round trip of a small message between two units of the level
//   exchange  the time of a concurrent exchange across the level at growing volumes: every
//             rank trades with one partner in the next and one in the previous unit of its
//             parent (one message each; with two units, one message to the other), all
//             ranks at once; each sample is (bytes one unit sends, seconds)
//   pair      the same exchange between two units alone, the level's other units idle (levels
//             of 3 units or more; with two it is the exchange): what one link carries
//             without the rest of the level's traffic
// The time of one halo exchange is predicted level by level and the slowest level counts
// (the levels' messages are in flight together):
//   t_l = max(pair_l(busiest unit's bytes at l), exchange_l(mean bytes of the level's units))
//         + (most messages of one rank at l - m_l) * latency_l
//         (m_l: a rank's messages in the calibration; the last term only when a rank sends
//         more; without a pair curve, exchange_l(busiest unit's bytes) alone)
//   t   = max_l t_l
// The busiest unit is bound by its own link; the level as a whole by what its units share
// (a switch's backplane, an oversubscribed network, or, on an emulated cluster, the cores
// that move every node's packets): the exchange curve, measured with every unit sending,
// is read at the mean load. When the load is even the two agree with the exchange curve at
// the busiest unit; when one unit carries more than the others (3 nodes in a row, a node
// holding fewer ranks) its link alone sets the time.
// Each curve is read between samples as a power law (straight in log-log; the first
// sample's time below them, the last segment's bandwidth beyond them), so a link whose speed
// depends on the volume (latency-bound at first; TCP windows, a shaped link's burst) is
// followed as measured.
//
//   hcart::LevelLoad node{"node", 786432, 4, 2359296, 4}; // busiest, messages, total, units
//   hcart::ExchangeTime t = hcart::predict_exchange_time({node}, timings);
//   t.seconds;   // the slowest level's time
//
// Pure C++: no MPI.
#pragma once

#include <hcart/mapping/TrafficModel.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace hcart {

/// \brief One point of a level's exchange curve.
struct ExchangeSample {
  std::int64_t unit_bytes = 0; ///< bytes each unit sent across the level
  double seconds = 0;          ///< time of the whole concurrent exchange
};

/// \brief What one level of a machine costs, as measured.
struct LevelTiming {
  std::string name;                     ///< the machine level's name
  std::int64_t units = 1;               ///< its units per parent unit when measured
  double latency = 0;                   ///< seconds, half a small message's round trip
  int messages = 2;                     ///< messages each rank sent in the exchanges
  std::vector<ExchangeSample> exchange; ///< unit_bytes strictly increasing
  /// Two units alone (unit_bytes strictly increasing); empty for a level of two units, or
  /// figures measured before pairs were.
  std::vector<ExchangeSample> pair = {};

  /// \brief The time of an exchange in which one unit sends `unit_bytes`: between two
  /// samples t0 * (t1 / t0)^(log(x / x0) / log(x1 / x0)), the first sample's time below
  /// them, the last segment's bandwidth beyond them; the curve is made non-decreasing first
  /// (a noisy sample never makes more bytes faster). \throws hcart::InputError when the
  /// level has no samples.
  double exchange_seconds(std::int64_t unit_bytes) const;
  /// \brief The same read on the pair curve (the exchange curve when there is none).
  double pair_seconds(std::int64_t unit_bytes) const;
  /// \brief Bytes per second of one unit at the largest volumes measured (the last segment).
  double bandwidth() const;
};

/// \brief The measured figures of every level of a machine (coarse first).
struct MachineTimings {
  std::string machine; ///< the machine they were measured on, e.g. "node:4 rank:2"
  std::vector<LevelTiming> levels;
  /// \brief The level called `name`, or nullptr.
  const LevelTiming* find(const std::string& name) const;
};

/// \brief \throws hcart::InputError naming the level and the value for a negative or
/// non-finite latency, no samples, unit bytes not strictly increasing or < 1 (on either
/// curve), a time not finite and positive, or two levels of one name.
void validate(const MachineTimings& timings);

/// \brief The load of one level in one exchange: what its busiest unit sends across it, the
/// most messages one rank sends across it, and what all its units send together.
struct LevelLoad {
  std::string name;
  std::int64_t max_unit_bytes = 0;
  std::int64_t max_rank_messages = 0;
  std::int64_t total_bytes = 0; ///< all units together (0: unknown, the busiest unit counts)
  std::int64_t units = 0;       ///< the level's units in the machine (0: unknown)
};

/// \brief The loads of the machine levels of a traffic model (its "self" copies left out).
std::vector<LevelLoad> level_loads(const Traffic& traffic);

/// \brief A predicted exchange: every level's time (0 where nothing crosses it) and the
/// slowest level's, which is the prediction.
struct ExchangeTime {
  std::vector<double> level_seconds; ///< in the order of the loads
  double seconds = 0;
  int slowest_level = -1; ///< index into the loads; -1 when nothing crosses any level
};

/// \brief One level's term of predict_exchange_time (0 where it carries no bytes), without
/// validating `timings` again (the planner calls it for every level grid it times).
/// \throws hcart::InputError when the level carries bytes and `timings` has no level of its
/// name.
double level_seconds(const LevelLoad& load, const MachineTimings& timings);

/// \brief Predicts one exchange (the model above). Loads that carry no bytes need no figures.
/// \throws hcart::InputError naming the level when a level carries bytes but `timings` has
/// no level of its name, or its figures are invalid.
ExchangeTime predict_exchange_time(const std::vector<LevelLoad>& loads,
                                   const MachineTimings& timings);

} // namespace hcart
