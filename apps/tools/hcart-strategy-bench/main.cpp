// hcart-strategy-bench: what the mapping buys on a real machine, measured on the traffic of
// halo exchanges alone.
//
//   hcart-mpiexec -n 8 hcart-strategy-bench [--ratio 1,2,4] [--base 4] [--sizes 10]
//                 [--repetitions 50] [--rounds 5] [--memory-cap 512]
//                 [--machine "node:2 core:4"] [--machine-file FILE] [--json]
//                 [--halo 1] [--dims D0,D1,D2]
//
// For a mesh ratio g0:g1:g2 and global sizes growing 8x in volume from one to the next, it
// times a halo exchange (each rank swaps one layer with its two neighbours in every
// direction: two receives, two sends, wait; send and receive buffers swapped between
// steps) under hcart's strategies side by side:
//   mpi           MPI_Dims_create + MPI_Cart_create(reorder = 1)
//   weighted      weights from the mesh, one level, ranks in world order
//   levelwise     the seed paper's rule: weights from the mesh, level by level
//   hierarchical  the exact optimum of the busiest link, coarse level first (the default;
//                 with --machine-file, the least predicted time)
// or, with --dims (a code that keeps its own dims): the launch order (mpi with those dims, the
// ranks in world order) against hcart's placement of the same dims (manual).
// and reports the halo bytes (in total, per hardware level, and of each level's busiest unit:
// for the node level, what the busiest node's link carries out), the time per exchange
// (each round times `repetitions` exchanges and keeps their median; rounds take the
// strategies in turn, and min / median over the rounds are shown), the bandwidth, and the
// saving against mpi — except where two strategies give the same process grid and
// placement: they are the same decomposition, so "same as ..." is printed instead of a
// difference that could only be noise. Only halo buffers are allocated, never the mesh (so
// meshes far larger than memory can be planned and their traffic timed; hcart's
// HaloExchanger on real fields is bench/ExchangerBench.cpp's); sizes whose buffers exceed
// --memory-cap MiB per rank are skipped and said so. Compare mode's helpers
// (apps/common/Compare.hpp) decide what counts as the same decomposition, the order of the
// rounds, min / median and the savings. With --machine-file (hcart-machine --measure) it
// prints beside each time the time hcart's model predicts from the bytes it counted
// (docs/machine-file.md).
#include "Compare.hpp"
#include "ExchangePrediction.hpp"
#include "MachineFile.hpp"
#include "Table.hpp"
#include "Text.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Main.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>

namespace {

using namespace hcart;

struct Measurement {
  std::string method;
  apps::DecompositionIdentity grid;   // the process grid and every rank's place on it
  std::vector<long long> level_bytes; // per exchange, all ranks; machine levels then self
  std::vector<LevelLoad> loads;       // per machine level: the busiest unit, the busiest rank
  double predicted = 0;               // the time model's seconds per exchange (--machine-file)
  long long bytes = 0;                // per exchange, all ranks, between different ranks
  std::vector<double> rounds;         // per exchange, slowest rank, median of a round
  apps::Spread time;                  // over the rounds
  double bandwidth = 0;               // bytes / median
  std::string same_as;                // an earlier method with the same grid and placement
};

// The halo buffers and partners of one rank in one decomposition.
struct Exchange {
  const Decomposition* d = nullptr;
  std::vector<std::vector<double>> send, recv;
  std::array<int, 6> peers{};
  std::vector<MPI_Request> requests;
};

// Sets up the six faces of this rank in `d` (the halo's layers each), and what the
// measurement knows before timing.
Measurement prepare(const Decomposition& d, Exchange& x) {
  const GridSpec& spec = d.spec();
  Measurement m;
  m.grid = apps::identity_of(d);
  x.d = &d;
  const int levels = d.machine().level_count();
  m.level_bytes.assign(levels + 1, 0);
  std::vector<std::int64_t> messages(levels + 1, 0); // this rank's, per level
  const Block block = d.block(spec.halo_width);
  std::array<long long, 3> face{};
  for (int i = 0; i < 3; ++i) {
    face[i] = spec.halo_width[i]; // the halo's layers (--halo) across each face
    for (int j = 0; j < 3; ++j) {
      if (j != i) face[i] *= block.local_size[j];
    }
  }
  x.send.assign(6, {});
  x.recv.assign(6, {});
  for (int i = 0; i < 3; ++i) {
    for (int side = 0; side < 2; ++side) {
      const Block::Neighbour& across = block.at(Block::face(i, side));
      const int peer = across.across == Across::Boundary ? MPI_PROC_NULL : across.rank;
      x.peers[2 * i + side] = peer;
      if (peer == MPI_PROC_NULL) continue;
      x.send[2 * i + side].assign(static_cast<std::size_t>(face[i]), 1.0);
      x.recv[2 * i + side].assign(static_cast<std::size_t>(face[i]), 0.0);
      const int level = d.separating_level(d.rank(), peer);
      m.level_bytes[level] += face[i] * 8;
      messages[level] += 1;
    }
  }
  // Each level's busiest unit and the most messages of one rank, from these counts
  // (hcart-plan's max_unit_bytes; for the node level, what the node's link carries out).
  m.loads = hcart::measured_loads({m.level_bytes.begin(), m.level_bytes.end()}, messages, d);
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, m.level_bytes.data(), levels + 1, MPI_LONG_LONG,
                                MPI_SUM, d.comm()));
  for (int l = 0; l < levels; ++l)
    m.bytes += m.level_bytes[l];
  return m;
}

void exchange(Exchange& x) {
  x.requests.clear();
  for (int f = 0; f < 6; ++f) {
    if (x.peers[f] == MPI_PROC_NULL) continue;
    x.requests.emplace_back();
    // Receive from the neighbour on side f what it sends towards us (its opposite side).
    HCART_MPI_CHECK(MPI_Irecv(x.recv[f].data(), static_cast<int>(x.recv[f].size()), MPI_DOUBLE,
                              x.peers[f], f ^ 1, x.d->comm(), &x.requests.back()));
  }
  for (int f = 0; f < 6; ++f) {
    if (x.peers[f] == MPI_PROC_NULL) continue;
    x.requests.emplace_back();
    HCART_MPI_CHECK(MPI_Isend(x.send[f].data(), static_cast<int>(x.send[f].size()), MPI_DOUBLE,
                              x.peers[f], f, x.d->comm(), &x.requests.back()));
  }
  HCART_MPI_CHECK(
      MPI_Waitall(static_cast<int>(x.requests.size()), x.requests.data(), MPI_STATUSES_IGNORE));
  std::swap(x.send, x.recv);
}

// One round: the median over `repetitions` exchanges of the slowest rank's time.
double round_of(Exchange& x, int repetitions) {
  exchange(x); // warm-up
  std::vector<double> times;
  for (int r = 0; r < repetitions; ++r) {
    HCART_MPI_CHECK(MPI_Barrier(x.d->comm()));
    const auto t0 = std::chrono::steady_clock::now();
    exchange(x);
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, x.d->comm()));
    times.push_back(t);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-strategy-bench", [&](hcart::Environment& env) {
    using namespace hcart::apps;
    CLI::App app{"hcart-strategy-bench: the halo traffic of growing meshes under the " +
                     hcart::strategy_names(hcart::compared_strategies(false)) +
                     " strategies, timed side by side.",
                 "hcart-strategy-bench"};
    std::string ratio_text = "1,2,4", periodic_text = "0,0,0", machine_text,
                placement_text = "block";
    long long base = 4;
    int sizes = 10, repetitions = 50, rounds = 5;
    double cap_mib = 512;
    bool json = false;
    app.add_option("--ratio", ratio_text, "mesh ratio g0:g1:g2")->capture_default_str();
    app.add_option("--periodic", periodic_text, "periodic directions, 0 or 1 each")
        ->capture_default_str();
    app.add_option("--base", base, "the first mesh is ratio * base")->capture_default_str();
    app.add_option("--sizes", sizes, "number of meshes, each 8x the volume of the last")
        ->capture_default_str();
    app.add_option("--repetitions", repetitions, "timed exchanges per round (their median counts)")
        ->capture_default_str();
    app.add_option("--rounds", rounds,
                   "rounds per mesh, the strategies in turn in each (min and median shown)")
        ->capture_default_str();
    app.add_option("--memory-cap", cap_mib, "MiB of halo buffers per rank at most")
        ->capture_default_str();
    app.add_option("--machine", machine_text,
                   "synthetic machine (default: $HCART_MACHINE, else detect)");
    app.add_option("--placement", placement_text, "rank numbering of a synthetic machine")
        ->capture_default_str();
    std::string dims_text;
    int halo = 1;
    app.add_option("--dims", dims_text,
                   "given dims D0,D1,D2 (all > 0): instead of the strategies, the launch order "
                   "(mpi with those dims) against hcart's placement of them (manual)");
    app.add_option("--halo", halo, "halo width in every direction")->capture_default_str();
    std::string machine_file;
    app.add_option("--machine-file", machine_file,
                   "measured figures (hcart-machine --measure): show the predicted time too");
    app.add_flag("--json", json, "write JSON instead of tables");
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    std::vector<std::int64_t> ratio, periodic;
    std::array<int, 3> dims{0, 0, 0};
    std::optional<hcart::MachineTimings> timings;
    hcart::Placement placement = hcart::Placement::Block;
    hcart::agree_on_errors(MPI_COMM_WORLD, [&] {
      ratio = parse_int_list("--ratio", ratio_text, 3);
      HCART_REQUIRE(ratio.size() == 3, "--ratio '" << ratio_text << "': expected 3 values");
      for (auto r : ratio)
        HCART_REQUIRE(r >= 1 && r <= 1024, "--ratio: " << r << ", expected 1 to 1024");
      periodic = parse_int_list("--periodic", periodic_text, 3);
      HCART_REQUIRE(periodic.size() == 3,
                    "--periodic '" << periodic_text << "': expected 3 values");
      for (auto p : periodic)
        HCART_REQUIRE(p == 0 || p == 1, "--periodic: " << p << ", expected 0 or 1");
      HCART_REQUIRE(base >= 1 && base <= 1 << 20, "--base: " << base << ", expected 1 to 1048576");
      HCART_REQUIRE(sizes >= 1 && sizes <= 20, "--sizes: " << sizes << ", expected 1 to 20");
      HCART_REQUIRE(repetitions >= 1 && repetitions <= 100000,
                    "--repetitions: " << repetitions << ", expected 1 to 100000");
      HCART_REQUIRE(rounds >= 1 && rounds <= 1000,
                    "--rounds: " << rounds << ", expected 1 to 1000");
      HCART_REQUIRE(cap_mib > 0, "--memory-cap: " << cap_mib << ", expected > 0");
      placement = hcart::parse_placement(placement_text);
      HCART_REQUIRE(halo >= 1 && halo <= 8, "--halo: " << halo << ", expected 1 to 8");
      if (!dims_text.empty()) {
        const auto d = parse_int_list("--dims", dims_text, 3);
        HCART_REQUIRE(d.size() == 3, "--dims '" << dims_text << "': expected 3 values");
        for (int i = 0; i < 3; ++i) {
          HCART_REQUIRE(d[i] >= 1, "--dims: " << d[i] << ", expected values >= 1");
          dims[i] = static_cast<int>(d[i]);
        }
        HCART_REQUIRE(static_cast<long long>(dims[0]) * dims[1] * dims[2] == env.size(),
                      "--dims " << dims_text << ": " << dims[0] * dims[1] * dims[2]
                                << " ranks, expected the job's " << env.size());
      }
      if (!machine_file.empty()) timings = hcart::read_machine_file(machine_file);
    });
    // The strategies, and on a machine with levels above the nodes also the default planned
    // for the nodes alone (DecompositionOptions::network = false): what the switch level buys.
    struct Method {
      hcart::Strategy strategy;
      bool network;
      std::string name;
    };
    std::vector<Method> methods;
    if (dims[0] > 0) { // the dims given: the launch order against hcart's placement of them
      methods.push_back({hcart::Strategy::Mpi, true, "launch order"});
      methods.push_back({hcart::Strategy::Manual, true, "manual"});
    } else {
      for (const hcart::Strategy s : hcart::compared_strategies(false))
        methods.push_back({s, true, hcart::to_string(s)});
    }
    nlohmann::json doc;
    doc["schema"] = "hcart-strategy-bench/1";
    doc["ranks"] = env.size();
    doc["ratio"] = ratio;
    doc["periodic"] = periodic;
    doc["repetitions"] = repetitions;
    doc["rounds"] = rounds;
    nlohmann::json results = nlohmann::json::array();
    std::vector<std::string> level_names;
    std::string machine_shown;
    for (int k = 0; k < sizes; ++k) {
      hcart::GridSpec spec;
      const std::int64_t scale = base << k;
      for (int i = 0; i < 3; ++i) {
        spec.global_size[i] = ratio[i] * scale;
        spec.periodic[i] = periodic[i] == 1;
      }
      spec.halo_width = {halo, halo, halo};
      std::vector<Measurement> row;
      std::vector<std::unique_ptr<hcart::Decomposition>> decomps;
      std::string skipped;
      std::vector<Exchange> exchanges;
      for (std::size_t q = 0; q < methods.size(); ++q) {
        const Method method = methods[q]; // a copy: the list may grow below
        hcart::DecompositionOptions options;
        options.strategy = method.strategy;
        options.network = method.network;
        options.machine = machine_text;
        options.placement = placement;
        options.traffic = {8, false}; // the halo of doubles through the six faces
        options.dims = dims;
        options.timings = timings; // with --machine-file the default plans by predicted time
        std::unique_ptr<hcart::Decomposition> d;
        try {
          d = std::make_unique<hcart::Decomposition>(MPI_COMM_WORLD, spec, options);
        } catch (const hcart::InputError& e) {
          if (!e.collective()) throw;
          skipped = e.what(); // a mesh too small for the ranks: agreed everywhere
          break;
        }
        // Halo buffers: send and receive for the six faces (largest block), as doubles.
        double largest = 0;
        for (int i = 0; i < 3; ++i) {
          double f = 1;
          for (int j = 0; j < 3; ++j) {
            if (j != i) f *= static_cast<double>(spec.global_size[j] / d->dims()[j] + 1);
          }
          largest += 2 * 2 * 8 * halo * f;
        }
        if (largest > cap_mib * 1048576) {
          skipped = "halo buffers of " + human_bytes(largest) + " per rank exceed --memory-cap";
          break;
        }
        level_names.clear();
        for (const auto& l : d->machine().levels())
          level_names.push_back(l.name);
        level_names.push_back("self");
        machine_shown = d->report().machine + " (" + d->report().machine_source + ")";
        if (q + 1 == methods.size() && method.network && d->machine().node_level() > 0 &&
            dims[0] == 0)
          methods.push_back({hcart::Strategy::Hierarchical, false, "hierarchical, nodes only"});
        exchanges.resize(methods.size());
        Measurement m = prepare(*d, exchanges[row.size()]);
        m.method = method.name;
        if (timings) {
          hcart::agree_on_errors(d->comm(), [&] {
            m.predicted = hcart::predict_exchange_time(m.loads, *timings).seconds;
          });
        }
        row.push_back(m);
        decomps.push_back(std::move(d));
      }
      if (skipped.empty()) {
        std::vector<apps::DecompositionIdentity> grids;
        for (const Measurement& m : row)
          grids.push_back(m.grid);
        const std::vector<int> same = apps::same_grid_as(grids);
        // Rounds take the strategies in turn, each round starting one further on.
        std::vector<std::size_t> order(row.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        const auto times = apps::run_in_turn<double, std::size_t>(
            order, rounds, [&](std::size_t q, int) { return round_of(exchanges[q], repetitions); });
        for (std::size_t q = 0; q < row.size(); ++q) {
          Measurement& m = row[q];
          m.rounds = times[q];
          m.time = apps::spread(m.rounds);
          m.bandwidth = m.time.median > 0 ? static_cast<double>(m.bytes) / m.time.median : 0.0;
          if (same[q] >= 0) m.same_as = row[static_cast<std::size_t>(same[q])].method;
        }
      }
      const std::string mesh =
          join({spec.global_size[0], spec.global_size[1], spec.global_size[2]});
      nlohmann::json entry;
      entry["mesh"] = spec.global_size;
      if (!skipped.empty()) {
        entry["skipped"] = skipped;
        results.push_back(entry);
        if (env.rank() == 0 && !json)
          std::cout << "mesh " << mesh << ": skipped, " << skipped << "\n\n";
        continue;
      }
      nlohmann::json by_method = nlohmann::json::array();
      for (const auto& m : row) {
        nlohmann::json levels = nlohmann::json::array();
        for (std::size_t l = 0; l < m.level_bytes.size(); ++l) {
          nlohmann::json level = {{"name", level_names[l]}, {"bytes", m.level_bytes[l]}};
          if (l < m.loads.size()) level["max_unit_bytes"] = m.loads[l].max_unit_bytes;
          levels.push_back(level);
        }
        nlohmann::json entry_m = {{"method", m.method},         {"dims", m.grid.dims},
                                  {"levels", levels},           {"bytes", m.bytes},
                                  {"seconds", m.time.median},   {"seconds_min", m.time.min},
                                  {"seconds_rounds", m.rounds}, {"bandwidth", m.bandwidth}};
        if (timings) entry_m["predicted_seconds"] = m.predicted;
        if (m.same_as.empty()) {
          entry_m["saving_vs_mpi"] = 1.0 - m.time.median / row.front().time.median;
        } else {
          entry_m["same_as"] = m.same_as;
        }
        by_method.push_back(entry_m);
      }
      entry["methods"] = by_method;
      results.push_back(entry);
      if (env.rank() == 0 && !json) {
        std::cout << "mesh " << mesh << ", " << env.size() << " ranks, machine " << machine_shown
                  << "\n";
        std::vector<std::string> header = {"strategy",
                                           "dims",
                                           level_names[0] + " bytes",
                                           "busiest " + level_names[0],
                                           "halo bytes",
                                           "time min",
                                           "time median",
                                           "bandwidth",
                                           "saving vs mpi"};
        if (timings) header.insert(header.begin() + 7, "predicted");
        Table table(header);
        for (const auto& m : row) {
          const auto& grid_dims = m.grid.dims;
          std::vector<std::string> cells = {
              m.method,
              join({grid_dims[0], grid_dims[1], grid_dims[2]}),
              human_bytes(static_cast<double>(m.level_bytes[0])),
              human_bytes(static_cast<double>(m.loads[0].max_unit_bytes)),
              human_bytes(static_cast<double>(m.bytes)),
              fixed(m.time.min * 1e3, "%.3f ms"),
              fixed(m.time.median * 1e3, "%.3f ms"),
              fixed(m.bandwidth / 1e9, "%.2f GB/s"),
              m.same_as.empty() ? saving_text(m.time.median, row.front().time.median)
                                : "same as " + m.same_as};
          if (timings) cells.insert(cells.begin() + 7, fixed(m.predicted * 1e3, "%.3f ms"));
          table.add_row(cells);
        }
        table.print(std::cout);
        std::cout << "\n";
      }
    }
    doc["machine"] = machine_shown;
    doc["results"] = results;
    if (env.rank() == 0 && json) std::cout << doc.dump(2) << std::endl;
    return 0;
  });
}
