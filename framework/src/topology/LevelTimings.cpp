#include <hcart/core/Collective.hpp>
#include <hcart/core/Communicator.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/topology/LevelCommunicators.hpp>
#include <hcart/topology/LevelTimings.hpp>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

namespace hcart {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Half the median round trip of 8 bytes between leaders 0 and 1 of this rank's parent unit;
// 0 on every other rank.
double pingpong(MPI_Comm leaders, int round_trips) {
  if (leaders == MPI_COMM_NULL) return 0;
  int rank = 0, size = 0;
  HCART_MPI_CHECK(MPI_Comm_rank(leaders, &rank));
  HCART_MPI_CHECK(MPI_Comm_size(leaders, &size));
  if (rank > 1 || size < 2) return 0; // a parent of one unit (an uneven level) has no pair
  const int other = 1 - rank;
  double payload = 0;
  std::vector<double> trips;
  for (int k = 0; k <= round_trips; ++k) { // the first round trip is not timed
    const double t0 = MPI_Wtime();
    if (rank == 0) {
      HCART_MPI_CHECK(MPI_Send(&payload, 1, MPI_DOUBLE, other, 0, leaders));
      HCART_MPI_CHECK(MPI_Recv(&payload, 1, MPI_DOUBLE, other, 0, leaders, MPI_STATUS_IGNORE));
    } else {
      HCART_MPI_CHECK(MPI_Recv(&payload, 1, MPI_DOUBLE, other, 0, leaders, MPI_STATUS_IGNORE));
      HCART_MPI_CHECK(MPI_Send(&payload, 1, MPI_DOUBLE, other, 0, leaders));
    }
    if (k > 0) trips.push_back(MPI_Wtime() - t0);
  }
  return median(trips) / 2;
}

// `count` exchanges back to back, each `half` bytes to the next and to the previous unit's
// rank of the same place and the same received from them (with two units, both halves in
// one message to the other). Returns the slowest rank's time per exchange (all of `comm`).
// A rank without partners (MPI_COMM_NULL: a unit left idle) only joins the barrier and the
// reduction, and waits for the latter asleep: on cores that also move the packets (ranks
// sharing cores, an emulated cluster) a polling idle rank slows the pair it waits for.
double exchange(MPI_Comm comm, MPI_Comm partners, std::vector<char>& send, std::vector<char>& recv,
                int half, int count) {
  int rank = 0, size = 0;
  if (partners != MPI_COMM_NULL) {
    HCART_MPI_CHECK(MPI_Comm_rank(partners, &rank));
    HCART_MPI_CHECK(MPI_Comm_size(partners, &size));
  }
  const int next = size > 0 ? (rank + 1) % size : 0;
  const int previous = size > 0 ? (rank + size - 1) % size : 0;
  HCART_MPI_CHECK(MPI_Barrier(comm));
  const double t0 = MPI_Wtime();
  for (int k = 0; k < count && size > 0; ++k) {
    MPI_Request requests[4];
    int posted = 0;
    if (size == 2) {
      HCART_MPI_CHECK(MPI_Irecv(recv.data(), 2 * half, MPI_CHAR, next, 0, partners, &requests[0]));
      HCART_MPI_CHECK(MPI_Isend(send.data(), 2 * half, MPI_CHAR, next, 0, partners, &requests[1]));
      posted = 2;
    } else {
      HCART_MPI_CHECK(MPI_Irecv(recv.data(), half, MPI_CHAR, previous, 0, partners, &requests[0]));
      HCART_MPI_CHECK(
          MPI_Irecv(recv.data() + half, half, MPI_CHAR, next, 1, partners, &requests[1]));
      HCART_MPI_CHECK(MPI_Isend(send.data(), half, MPI_CHAR, next, 0, partners, &requests[2]));
      HCART_MPI_CHECK(
          MPI_Isend(send.data() + half, half, MPI_CHAR, previous, 1, partners, &requests[3]));
      posted = 4;
    }
    HCART_MPI_CHECK(MPI_Waitall(posted, requests, MPI_STATUSES_IGNORE));
  }
  const double mine = size > 0 ? (MPI_Wtime() - t0) / count : 0.0;
  double t = 0;
  MPI_Request reduction = MPI_REQUEST_NULL;
  HCART_MPI_CHECK(MPI_Iallreduce(&mine, &t, 1, MPI_DOUBLE, MPI_MAX, comm, &reduction));
  if (size > 0) {
    HCART_MPI_CHECK(MPI_Wait(&reduction, MPI_STATUS_IGNORE));
  } else {
    for (int done = 0; done == 0;) {
      HCART_MPI_CHECK(MPI_Test(&reduction, &done, MPI_STATUS_IGNORE));
      if (done == 0) std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }
  return t;
}

} // namespace

MachineTimings measure_level_timings(MPI_Comm comm, const Machine& machine,
                                     std::int64_t machine_rank, const LevelTimingOptions& options) {
  agree_on_errors(comm, [&] {
    HCART_REQUIRE(options.min_unit_bytes >= 1, "hcart::measure_level_timings: min_unit_bytes = "
                                                   << options.min_unit_bytes << ", expected >= 1");
    HCART_REQUIRE(options.max_unit_bytes >= options.min_unit_bytes &&
                      options.max_unit_bytes <= (std::int64_t{1} << 31),
                  "hcart::measure_level_timings: max_unit_bytes = "
                      << options.max_unit_bytes << ", expected " << options.min_unit_bytes
                      << " (min_unit_bytes) to 2^31");
    HCART_REQUIRE(options.repetitions >= 1 && options.repetitions <= 10000,
                  "hcart::measure_level_timings: repetitions = " << options.repetitions
                                                                 << ", expected 1 to 10000");
    HCART_REQUIRE(options.passes >= 1 && options.passes <= 100,
                  "hcart::measure_level_timings: passes = " << options.passes
                                                            << ", expected 1 to 100");
    HCART_REQUIRE(options.warmup_unit_bytes >= 0,
                  "hcart::measure_level_timings: warmup_unit_bytes = " << options.warmup_unit_bytes
                                                                       << ", expected >= 0");
    HCART_REQUIRE(options.pingpongs >= 1 && options.pingpongs <= 10000,
                  "hcart::measure_level_timings: pingpongs = " << options.pingpongs
                                                               << ", expected 1 to 10000");
    HCART_REQUIRE(options.batch_exchanges >= 1 && options.batch_exchanges <= 100,
                  "hcart::measure_level_timings: batch_exchanges = " << options.batch_exchanges
                                                                     << ", expected 1 to 100");
    HCART_REQUIRE(options.batch_unit_bytes >= 0,
                  "hcart::measure_level_timings: batch_unit_bytes = " << options.batch_unit_bytes
                                                                      << ", expected >= 0");
  });
  const LevelCommunicators levels(comm, machine, machine_rank);
  MachineTimings timings;
  timings.machine = machine.to_string();
  for (int l = 0; l < levels.level_count(); ++l) {
    if (levels.units(l) < 2) continue;
    LevelTiming level;
    level.name = levels.name(l);
    level.units = levels.units(l);
    level.messages = levels.units(l) == 2 ? 1 : 2;
    double latency = pingpong(levels.leaders(l), options.pingpongs);
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &latency, 1, MPI_DOUBLE, MPI_MAX, comm));
    level.latency = latency;

    // The ranks of the same place in the sibling units, ordered by unit.
    const MPI_Comm parent = l == 0 ? comm : levels.unit(l - 1);
    int place = 0, unit_ranks = 0;
    HCART_MPI_CHECK(MPI_Comm_rank(levels.unit(l), &place));
    HCART_MPI_CHECK(MPI_Comm_size(levels.unit(l), &unit_ranks));
    // On an uneven level every rank sends the same (partners must agree on the sizes), and
    // a sample counts what the busiest unit sends (below).
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &unit_ranks, 1, MPI_INT, MPI_MAX, comm));
    MPI_Comm partners_handle = MPI_COMM_NULL;
    HCART_MPI_CHECK(
        MPI_Comm_split(parent, place, static_cast<int>(levels.unit_index(l)), &partners_handle));
    const Communicator partners(partners_handle);
    // What the busiest unit really sends: its ranks that have a partner. On a level of two
    // unequal units (a switch of 8 ranks and one of 4) the fuller unit's extra places have
    // none; counting them would read the link as twice as fast as it is.
    int partner_count = 1;
    HCART_MPI_CHECK(MPI_Comm_size(partners.get(), &partner_count));
    int active = partner_count >= 2 ? 1 : 0;
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &active, 1, MPI_INT, MPI_SUM, levels.unit(l)));
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &active, 1, MPI_INT, MPI_MAX, comm));
    unit_ranks = std::max(active, 1);
    // The same places in units 0 and 1 alone (levels of 3 units or more): the pair curve.
    MPI_Comm pair_handle = MPI_COMM_NULL;
    const bool pairs = levels.units(l) >= 3;
    if (pairs) {
      const int index = static_cast<int>(levels.unit_index(l));
      HCART_MPI_CHECK(
          MPI_Comm_split(partners.get(), index < 2 ? 0 : MPI_UNDEFINED, index, &pair_handle));
    }
    const Communicator pair(pair_handle);

    // The volumes (each rank sends `half` bytes to each side), then `passes` sweeps over
    // them: a slow drift of the machine spreads over every volume instead of bending the
    // curve at one.
    std::vector<std::int64_t> halves;
    for (std::int64_t volume = options.min_unit_bytes;; volume *= 2) {
      const std::int64_t target = std::min(volume, options.max_unit_bytes);
      const std::int64_t half =
          std::max<std::int64_t>(1, (target + 2 * unit_ranks - 1) / (2 * unit_ranks));
      if (halves.empty() || half > halves.back()) halves.push_back(half);
      if (target >= options.max_unit_bytes) break;
    }
    std::vector<std::vector<double>> times(halves.size()), pair_times(halves.size());
    std::vector<char> send(static_cast<std::size_t>(2 * halves.back()), 1);
    std::vector<char> recv(send.size(), 0);
    for (int pass = 0; pass < options.passes; ++pass) {
      for (std::size_t v = 0; v < halves.size(); ++v) {
        const auto half = static_cast<int>(halves[v]);
        const std::int64_t unit_bytes = 2 * halves[v] * unit_ranks;
        // Steady state first, as in an application that exchanges every step: untimed
        // exchanges until a unit has sent warmup_unit_bytes (TCP windows open, a shaped
        // link's burst is spent), at least one.
        for (std::int64_t sent = 0; sent < std::max(options.warmup_unit_bytes, unit_bytes);
             sent += unit_bytes) {
          exchange(comm, partners.get(), send, recv, half, 1);
        }
        // A timed sample: exchanges back to back, as an application's steps, so that the
        // pause around the timing (a barrier, the reduction of the times) does not count
        // as idle link time for small volumes.
        const auto batch = static_cast<int>(std::clamp<std::int64_t>(
            options.batch_unit_bytes / unit_bytes, 1, options.batch_exchanges));
        for (int r = 0; r < options.repetitions; ++r)
          times[v].push_back(exchange(comm, partners.get(), send, recv, half, batch));
        if (!pairs) continue;
        for (std::int64_t sent = 0; sent < std::max(options.warmup_unit_bytes, unit_bytes);
             sent += unit_bytes) {
          exchange(comm, pair.get(), send, recv, half, 1);
        }
        for (int r = 0; r < options.repetitions; ++r)
          pair_times[v].push_back(exchange(comm, pair.get(), send, recv, half, batch));
      }
    }
    for (std::size_t v = 0; v < halves.size(); ++v) {
      level.exchange.push_back({2 * halves[v] * unit_ranks, median(times[v])});
      if (pairs) level.pair.push_back({2 * halves[v] * unit_ranks, median(pair_times[v])});
    }
    timings.levels.push_back(level);
  }
  return timings;
}

} // namespace hcart
