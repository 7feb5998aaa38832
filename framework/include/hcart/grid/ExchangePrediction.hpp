// The time model applied to a decomposition: the seconds of one halo exchange predicted
// from a machine's measured figures (hcart/io/MachineFile.hpp, hcart/mapping/TimeModel.hpp),
// and the loads a run's measured halo counters put on each machine level, to set beside it.
//
//   const hcart::MachineTimings timings = hcart::read_machine_file("machine.json", comm);
//   const hcart::ExchangeTime t =
//       hcart::predict_exchange_time(decomp, timings, {sizeof(double), /*corners=*/false});
//   t.seconds;                         // one exchange of one double field, Faces
//   t.level_seconds[t.slowest_level];  // the level that sets it
#pragma once

#include <hcart/grid/Decomposition.hpp>
#include <hcart/mapping/TimeModel.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <cstdint>
#include <vector>

namespace hcart {

/// \brief Per machine level, the load of one halo exchange of `decomp` (the traffic model
/// of its plan): the busiest unit's bytes, the most messages of a rank, all units' bytes.
/// Local: every rank computes the same.
std::vector<LevelLoad> planned_loads(const Decomposition& decomp, const TrafficOptions& traffic);

/// \brief The predicted seconds of one halo exchange of `decomp` on the machine `timings`
/// describes (local; the same on every rank).
/// \throws hcart::InputError naming the level when a level that carries bytes has no
/// figures of its name in `timings`.
ExchangeTime predict_exchange_time(const Decomposition& decomp, const MachineTimings& timings,
                                   const TrafficOptions& traffic = {});

/// \brief Per machine level, the load of one exchange as counted: from every rank's own
/// `bytes` and `messages` sent across each level in one exchange (machine levels coarse
/// first, as hcart::HaloCounters gives them; entries after them, e.g. "self", ignored).
/// Collective over decomp.comm().
std::vector<LevelLoad> measured_loads(const std::vector<std::int64_t>& bytes,
                                      const std::vector<std::int64_t>& messages,
                                      const Decomposition& decomp);

} // namespace hcart
