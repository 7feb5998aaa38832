// hcart-machine: what hcart sees of the machine it runs on, and the plan it would make.
//
//   hcart-mpiexec -n 4 hcart-machine [--mesh 512,512,512] [--machine "node:2 core:2"]
//                                    [--measure FILE [--max-bytes N] [--warmup-bytes N]
//                                                    [--repetitions N]]
//
// Detects the hierarchy of the ranks it was started on (MPI shared-memory nodes, then
// sockets, NUMA nodes, L3 caches and cores from each rank's hwloc binding; docs/design.md,
// 'The hardware hierarchy'), or takes a synthetic one (--machine or $HCART_MACHINE), prints
// every rank's place in it, then plans a mesh for it with every strategy side by side (as
// hcart-plan does). With --measure it then measures every level's latency, exchange curve
// and, on levels of 3 units or more, pair curve (hcart/topology/LevelTimings.hpp) and writes
// them to a machine file (docs/machine-file.md)
// that hcart-plan, hcart-strategy-bench and the apps' compare mode read with --machine-file
// to predict the time of one halo exchange per strategy.
#include "MachineFile.hpp"
#include "PlanReport.hpp"
#include "Text.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/Main.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/io/OutputDirectory.hpp>
#include <hcart/topology/Detect.hpp>
#include <hcart/topology/LevelTimings.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-machine", [&](hcart::Environment& env) {
    using namespace hcart::apps;
    CLI::App app{"hcart-machine: print the machine hierarchy hcart detects for the ranks it "
                 "runs on, and the decomposition it would plan there.",
                 "hcart-machine"};
    std::string mesh_text = "512,512,512", halo_text, periodic_text, machine_text;
    std::string placement_text = "block";
    bool corners = false;
    app.add_option("--mesh", mesh_text, "global mesh sizes")->capture_default_str();
    app.add_option("--halo", halo_text, "halo widths per direction (default: 1 in each)");
    app.add_option("--periodic", periodic_text,
                   "periodic flags per direction, e.g. 0,0,1 (default: none)");
    app.add_option("--machine", machine_text,
                   "synthetic machine instead of detection, e.g. \"node:2 core:2\" "
                   "(default: $HCART_MACHINE, else detect)");
    app.add_option("--placement", placement_text,
                   "rank numbering of a synthetic machine: block or round-robin")
        ->capture_default_str();
    app.add_flag("--corners", corners, "count edge and corner messages too");
    std::string measure_path;
    hcart::LevelTimingOptions measure;
    app.add_option("--measure", measure_path,
                   "measure every level's latency and exchange times and write them to this "
                   "machine file (JSON)");
    app.add_option("--max-bytes", measure.max_unit_bytes,
                   "with --measure: the largest volume one unit sends (from 4 KiB, 2x each step)")
        ->capture_default_str();
    app.add_option("--warmup-bytes", measure.warmup_unit_bytes,
                   "with --measure: untimed volume per unit before each volume is timed")
        ->capture_default_str();
    app.add_option("--repetitions", measure.repetitions,
                   "with --measure: timed samples per volume, each up to 5 exchanges back to back "
                   "(their median counts)")
        ->capture_default_str();
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;

    PlanRequest request;
    hcart::Placement placement = hcart::Placement::Block;
    hcart::agree_on_errors(MPI_COMM_WORLD, [&] {
      request.mesh.global_size = parse_int_list("--mesh", mesh_text);
      const std::size_t d = request.mesh.global_size.size();
      auto expect_length = [d](const char* option, std::size_t n) {
        HCART_REQUIRE(n == d, option << ": " << n << " values for a " << d
                                     << "-dimensional mesh, expected " << d);
      };
      if (halo_text.empty()) {
        request.mesh.halo_width.assign(d, 1);
      } else {
        for (std::int64_t h : parse_int_list("--halo", halo_text)) {
          HCART_REQUIRE(h >= 0 && h <= 1000000, "--halo: " << h << ", expected 0 to 1000000");
          request.mesh.halo_width.push_back(static_cast<int>(h));
        }
      }
      expect_length("--halo", request.mesh.halo_width.size());
      request.mesh.periodic = periodic_text.empty() ? std::vector<bool>(d, false)
                                                    : parse_bool_list("--periodic", periodic_text);
      expect_length("--periodic", request.mesh.periodic.size());
      hcart::validate(request.mesh);
      placement = hcart::parse_placement(placement_text);
      HCART_REQUIRE(measure.max_unit_bytes >= measure.min_unit_bytes &&
                        measure.max_unit_bytes <= (std::int64_t{1} << 31),
                    "--max-bytes: " << measure.max_unit_bytes << ", expected "
                                    << measure.min_unit_bytes << " to 2147483648");
      HCART_REQUIRE(measure.warmup_unit_bytes >= 0 &&
                        measure.warmup_unit_bytes <= (std::int64_t{1} << 40),
                    "--warmup-bytes: " << measure.warmup_unit_bytes << ", expected 0 to 2^40");
      HCART_REQUIRE(measure.repetitions >= 1 && measure.repetitions <= 10000,
                    "--repetitions: " << measure.repetitions << ", expected 1 to 10000");
      // The file is written at the end, whole or not at all; that it can be is known first.
      if (!measure_path.empty() && env.rank() == 0) {
        hcart::create_parent_directories(measure_path, "--measure");
        std::ofstream probe(measure_path + ".tmp");
        HCART_REQUIRE(probe.good(), "--measure: cannot write '" << measure_path << "'");
        probe.close();
        std::remove((measure_path + ".tmp").c_str());
      }
    });
    const hcart::DetectedHierarchy hierarchy =
        hcart::resolve_machine(MPI_COMM_WORLD, machine_text, placement);
    request.machine = hierarchy.machine;
    request.traffic = {8, corners};
    request.strategies = hcart::compared_strategies(false);
    std::vector<PlanOutcome> outcomes;
    hcart::agree_on_errors(MPI_COMM_WORLD, [&] { outcomes = plan_all(request); });
    if (env.rank() == 0) {
      const hcart::Machine& m = hierarchy.machine;
      std::cout << "hcart-machine: " << env.size() << " ranks, machine " << m.to_string() << " ("
                << m.source() << ")\n";
      for (const auto& note : hierarchy.notes)
        std::cout << "  note: " << note << "\n";
      const std::int64_t shown = std::min<std::int64_t>(m.ranks(), 64);
      for (std::int64_t r = 0; r < shown; ++r) {
        std::cout << "  rank " << r << ":";
        const auto units = m.unit_indices(r);
        for (int l = 0; l < m.level_count(); ++l) {
          std::cout << " " << m.levels()[l].name << " " << units[l];
        }
        std::cout << "\n";
      }
      if (shown < m.ranks()) std::cout << "  ... (" << m.ranks() - shown << " more ranks)\n";
      std::cout << "\n";
      print_table(std::cout, request, outcomes);
    }
    if (measure_path.empty()) return 0;
    const hcart::MachineTimings timings =
        hcart::measure_level_timings(MPI_COMM_WORLD, hierarchy.machine, env.rank(), measure);
    hcart::agree_on_errors(MPI_COMM_WORLD, [&] {
      if (env.rank() == 0)
        hcart::write_machine_file(measure_path, timings, hierarchy.machine.source());
    });
    if (env.rank() == 0) {
      std::cout << "\nmeasured (" << measure.repetitions << " samples per volume, medians), "
                << "written to " << measure_path << ":\n";
      if (timings.levels.empty())
        std::cout << "  no level has two units: nothing to measure\n";
      else
        machine_timings_table(timings).print(std::cout);
    }
    return 0;
  });
}
