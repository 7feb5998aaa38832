// hcart::measure_level_timings: the latency and the exchange curve of every hardware level,
// measured on the machine a communicator runs on (what `hcart-machine --measure` writes to
// a machine file, and hcart's time model reads: mapping/TimeModel.hpp).
//
// For every level l with two or more units per parent, through the level communicators
// (topology/LevelCommunicators.hpp):
//   latency    the leaders of units 0 and 1 of every parent unit ping-pong 8 bytes
//              `pingpongs` times, all parents at once; half the median round trip, the
//              slowest pair's
//   exchange   every rank trades with the rank of the same place in the next and in the
//              previous unit of its parent (half its share to each, received likewise; with
//              two units, all of it in one message to the other), all
//              ranks of all units at once, at unit volumes from `min_unit_bytes` growing 2x
//              up to `max_unit_bytes`, swept `passes` times; per volume the median over
//              passes x `repetitions` samples of the slowest rank's time per exchange,
//              each volume's samples after untimed exchanges until a unit has sent
//              `warmup_unit_bytes` (steady state, as in an application that exchanges every
//              step: TCP windows open, the burst of a shaped link spent), at least one; a
//              sample is `batch_exchanges` exchanges back to back, fewer where they would
//              pass `batch_unit_bytes` per unit (at least one), so that the pause around
//              the timing does not leave a small volume's link idle
//   pair       on levels of 3 units or more, the same at every volume right after the
//              exchange's samples, but with units 0 and 1 of every parent alone (the
//              others idle): what one link carries without the rest of the level's traffic
// On an uneven level (units holding different rank counts) every rank sends the same, and a
// sample's bytes are the fullest unit's. Levels with one unit per parent carry no traffic and
// are left out.
//
//   hcart::MachineTimings t = hcart::measure_level_timings(MPI_COMM_WORLD, machine, rank);
#pragma once

#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/TimeModel.hpp>

#include <mpi.h>

#include <cstdint>

namespace hcart {

struct LevelTimingOptions {
  std::int64_t min_unit_bytes = 4096;       ///< the smallest volume one unit sends
  std::int64_t max_unit_bytes = 4 << 20;    ///< the largest (volumes grow 2x up to it)
  int repetitions = 5;                      ///< timed samples per volume (their median counts)
  std::int64_t warmup_unit_bytes = 1 << 20; ///< untimed volume per unit before timing
  int passes = 3;                           ///< sweeps over all volumes
  int pingpongs = 50;                       ///< round trips for the latency
  int batch_exchanges = 5;                  ///< exchanges back to back in one timed sample
  std::int64_t batch_unit_bytes = 1 << 20;  ///< ... at most this volume per unit (>= 1 exchange)
};

/// \brief Measures every level of `machine` (collective over `comm`; `machine_rank` is this
/// rank's index in the machine). \throws hcart::InputError (on every rank) for options out
/// of range: min_unit_bytes < 1, max_unit_bytes < min or > 2^31, repetitions outside
/// 1..10000, passes or batch_exchanges outside 1..100, pingpongs outside 1..10000, a
/// negative warmup or batch volume.
MachineTimings measure_level_timings(MPI_Comm comm, const Machine& machine,
                                     std::int64_t machine_rank,
                                     const LevelTimingOptions& options = {});

} // namespace hcart
