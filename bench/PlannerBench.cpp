// The planner at start-up (docs/benchmarks.md, 'The planner's speed'): the time of one plan
// of the default strategy (the exact search) and of the seed's levelwise rule, on machines up
// to 10^6 ranks, min and median of the repeats; and what node regions buy on 9 to 4096
// nodes: the busiest node of level grids and runs alone against the default search's; and
// the default with a machine file (figures of a quiet machine and of one under load, whose
// node latency of 1.8 ms makes the messages' count matter), the time path of make_plan.
//
//   build/bin/hcart-bench-planner [--repeats 7] [--plans | --given | --hierarchy]
#include "BenchTiming.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/Main.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/PlanCost.hpp>
#include <hcart/mapping/TimeModel.hpp>

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;

volatile std::int64_t sink = 0;

hcart::bench::Stats time_plan(const hcart::Mesh& mesh, const hcart::Machine& machine,
                              const hcart::PlanOptions& options, int repeats) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = Clock::now();
    const hcart::Plan plan = hcart::make_plan(mesh, machine, options);
    t.push_back(seconds_since(t0));
    sink = sink + plan.dims[0];
  }
  return hcart::bench::stats(t);
}

// Figures for every level of `machine`, as hcart-machine --measure writes them: the node
// level slow (its latency `node_latency`), the finer ones fast.
hcart::MachineTimings timings_for(const hcart::Machine& machine, double node_latency) {
  hcart::MachineTimings timings;
  timings.machine = machine.to_string();
  for (std::size_t l = 0; l < machine.levels().size(); ++l) {
    hcart::LevelTiming level;
    level.name = machine.levels()[l].name;
    level.units = 2;
    const double scale = l == 0 ? 1.0 : 0.02 / static_cast<double>(l);
    level.latency = l == 0 ? node_latency : 2e-6 * scale;
    level.exchange = {{1024, level.latency + 1e-5 * scale}, {1 << 20, 1.25e-2 * scale}};
    if (l == 0) level.pair = {{1024, level.latency + 8e-6}, {1 << 20, 1.1e-2}};
    timings.levels.push_back(level);
  }
  return timings;
}

// The default's plan on every region case, level by level, so that two builds can be
// compared plan for plan (stdout) and time for time (stderr: min of `repeats`).
void print_plans(int repeats) {
  const hcart::Mesh meshes[] = {{{100, 100, 100}, {1, 1, 1}, {false, false, false}, {}},
                                {{64, 64, 64}, {1, 1, 1}, {true, true, true}, {}},
                                {{96, 192, 480}, {1, 1, 1}, {false, false, false}, {}}};
  for (int nodes : {3, 4, 5, 6, 7, 8, 9, 11, 13, 16, 17, 24, 31, 32, 48, 64}) {
    for (const char* below : {" core:2", " core:4", " socket:2 core:64", " core:128"}) {
      const hcart::Machine machine = hcart::Machine::parse("node:" + std::to_string(nodes) + below);
      for (const auto& mesh : meshes) {
        for (const char* figures : {"none", "quiet", "loaded"}) {
          hcart::PlanOptions options;
          if (figures[0] != 'n')
            options.timings = timings_for(machine, figures[0] == 'q' ? 2.5e-5 : 1.8e-3);
          hcart::Plan plan;
          try {
            plan = hcart::make_plan(mesh, machine, options);
          } catch (const hcart::InputError&) {
            continue; // no process grid fits
          }
          const auto t = time_plan(mesh, machine, options, repeats);
          const std::string name =
              machine.to_string() + " " + std::to_string(mesh.global_size[0]) + " " + figures;
          std::printf("%s | %s |", name.c_str(), plan.describe_layout().c_str());
          for (const auto& level : plan.cost.levels)
            std::printf(" %.0f/%.0f", level.busiest, level.total);
          std::printf(" | %s\n", plan.chosen_by.c_str());
          std::fprintf(stderr, "%s %.3f ms\n", name.c_str(), t.min * 1e3);
        }
      }
    }
  }
}

// Plans of given dims (MPI_Dims_create's), the search the Manual strategy runs, up to the
// strips' 4096 ranks: time (min and median of `repeats`), layout and busiest node.
void print_given_dims(int repeats) {
  const hcart::Mesh meshes[] = {{{4096, 4096, 4096}, {1, 1, 1}, {false, false, false}, {}},
                                {{96, 192, 480}, {2, 2, 2}, {true, true, true}, {}}};
  const char* machines[] = {"node:3 core:4",    "node:6 core:8",   "node:[8,8,4] core:8",
                            "node:8 core:16",   "node:16 core:16", "node:7 socket:2 core:32",
                            "node:8 core:128",  "node:32 core:32", "node:64 core:64",
                            "node:128 core:32", "node:512 core:8"};
  std::printf("%-26s %6s %-10s %-12s %10s %10s  %s\n", "machine", "ranks", "mesh", "dims", "min",
              "median", "busiest node, layout");
  for (const char* text : machines) {
    const hcart::Machine machine = hcart::Machine::parse(text);
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(static_cast<int>(machine.ranks()), 3, dims);
    for (const auto& mesh : meshes) {
      hcart::PlanOptions options;
      options.strategy = hcart::Strategy::Manual;
      options.dims = {dims[0], dims[1], dims[2]};
      const hcart::Plan plan = hcart::make_plan(mesh, machine, options);
      const auto t = time_plan(mesh, machine, options, repeats);
      const std::string d =
          std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]);
      std::printf("%-26s %6lld %-10s %-12s %7.3f ms %7.3f ms  %.0f, %s\n", text,
                  static_cast<long long>(machine.ranks()),
                  mesh.global_size[0] == 4096 ? "4096^3" : "96x192x480", d.c_str(), t.min * 1e3,
                  t.median * 1e3, plan.cost.levels[0].busiest, plan.describe_layout().c_str());
    }
  }
}

// A grid hierarchy's level 0 (block multiples of 16 cells: nested_spec's for 5 levels) on
// 10^5 and 10^6 ranks, with and without a machine file: the time path's level grids in
// closed form in units of the multiple.
void print_hierarchy_plans(int repeats) {
  struct Case {
    const char* machine;
    std::int64_t n;
  };
  const Case cases[] = {{"node:1024 socket:2 core:48", 4096}, {"node:8192 socket:2 core:64", 8192}};
  std::printf("%-28s %8s %-14s %-8s %10s %10s  %s\n", "machine", "ranks", "mesh", "file", "min",
              "median", "dims, chosen by");
  for (const Case& c : cases) {
    const hcart::Machine machine = hcart::Machine::parse(c.machine);
    const hcart::Mesh mesh{{c.n, c.n, c.n}, {1, 1, 1}, {false, false, false}, {}, {16, 16, 16}};
    for (const bool file : {false, true}) {
      hcart::PlanOptions options;
      if (file) options.timings = timings_for(machine, 1.8e-3);
      const hcart::Plan plan = hcart::make_plan(mesh, machine, options);
      const auto t = time_plan(mesh, machine, options, repeats);
      const std::string size = std::to_string(c.n) + "^3 m16";
      std::printf("%-28s %8lld %-14s %-8s %7.3f ms %7.3f ms  %lldx%lldx%lld, %s\n", c.machine,
                  static_cast<long long>(machine.ranks()), size.c_str(), file ? "loaded" : "none",
                  t.min * 1e3, t.median * 1e3, static_cast<long long>(plan.dims[0]),
                  static_cast<long long>(plan.dims[1]), static_cast<long long>(plan.dims[2]),
                  plan.chosen_by.c_str());
    }
  }
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-planner", [&](hcart::Environment&) {
    CLI::App app{"hcart-bench-planner: time of one plan at start-up, up to 10^6 ranks"};
    int repeats = 7;
    app.add_option("--repeats", repeats, "timings per case (min and median reported)")
        ->check(CLI::Range(1, 1000));
    bool plans = false;
    app.add_flag("--plans", plans,
                 "instead: the default's plan of 576 region cases (3 to 64 nodes of 2, 4, 2x64 "
                 "and 128 ranks, 3 meshes, without a machine file and with quiet and loaded "
                 "figures), one line each, to compare two builds; times on stderr");
    bool given = false;
    app.add_flag("--given", given,
                 "instead: plans of the dims MPI_Dims_create gives (the Manual strategy: an "
                 "MPI_Cart_create replacement) on machines of 12 to 4096 ranks, their time and "
                 "busiest node");
    bool hierarchy = false;
    app.add_flag("--hierarchy", hierarchy,
                 "instead: a grid hierarchy's level 0 (blocks of 16-cell multiples) on 10^5 and "
                 "10^6 ranks, without and with a machine file");
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    if (hierarchy) {
      print_hierarchy_plans(repeats);
      return 0;
    }
    if (plans) {
      print_plans(repeats);
      return 0;
    }
    if (given) {
      print_given_dims(repeats);
      return 0;
    }

    const hcart::Mesh cube{{4096, 4096, 4096}, {1, 1, 1}, {false, false, false}, {}};
    const hcart::Mesh slab{{8192, 2048, 512}, {1, 1, 1}, {true, false, true}, {}};
    const char* machines[] = {"node:4096 socket:2 core:64",
                              "node:10000 core:128",
                              "node:720 socket:2 core:48",
                              "node:5040 core:120",
                              "node:2520 socket:2 core:96",
                              "node:16384 socket:4 core:16",
                              "node:8 core:128",
                              "node:7 socket:2 core:32",
                              "node:6 socket:2 core:64",
                              "node:3 core:4"};
    std::printf("%-30s %9s %-6s %12s %12s %12s %12s\n", "machine", "ranks", "mesh", "search min",
                "search med", "seed min", "seed med");
    for (const char* text : machines) {
      const hcart::Machine machine = hcart::Machine::parse(text);
      for (const auto* mesh : {&cube, &slab}) {
        hcart::PlanOptions search, seed;
        seed.strategy = hcart::Strategy::Levelwise;
        const auto a = time_plan(*mesh, machine, search, repeats);
        const auto b = time_plan(*mesh, machine, seed, repeats);
        std::printf("%-30s %9lld %-6s %9.3f ms %9.3f ms %9.3f ms %9.3f ms\n", text,
                    static_cast<long long>(machine.ranks()), mesh == &cube ? "cube" : "slab",
                    a.min * 1e3, a.median * 1e3, b.min * 1e3, b.median * 1e3);
      }
    }

    // With a machine file: the least predicted time chooses (docs/machine-file.md).
    std::printf("\nwith a machine file: the default's plan, figures of a quiet machine (node "
                "latency 25 us) and of one under load (1.8 ms)\n");
    std::printf("%-30s %9s %-6s %12s %12s %12s %12s\n", "machine", "ranks", "mesh", "quiet min",
                "quiet med", "loaded min", "loaded med");
    const char* file_machines[] = {"node:8 socket:2 core:64", "node:64 socket:2 core:64",
                                   "node:1000 socket:2 core:64"};
    std::vector<const char*> all(std::begin(machines), std::end(machines));
    all.insert(all.end(), std::begin(file_machines), std::end(file_machines));
    for (const char* text : all) {
      const hcart::Machine machine = hcart::Machine::parse(text);
      for (const auto* mesh : {&cube, &slab}) {
        hcart::PlanOptions quiet, loaded;
        quiet.timings = timings_for(machine, 2.5e-5);
        loaded.timings = timings_for(machine, 1.8e-3);
        const auto a = time_plan(*mesh, machine, quiet, repeats);
        const auto b = time_plan(*mesh, machine, loaded, repeats);
        std::printf("%-30s %9lld %-6s %9.3f ms %9.3f ms %9.3f ms %9.3f ms\n", text,
                    static_cast<long long>(machine.ranks()), mesh == &cube ? "cube" : "slab",
                    a.min * 1e3, a.median * 1e3, b.min * 1e3, b.median * 1e3);
      }
    }

    // What node regions buy on 9 to 4096 nodes: level grids and runs alone
    // (region_search_nodes = 0) against the default (regions on any node count, within the
    // box budget), and the time of the default's plan, without and with a machine file
    // (the figures of the loaded machine above), min of `repeats`.
    std::printf("\nnode regions: busiest node of level grids and runs alone / of the default "
                "search; time of the default's plan (min of %d), without and with a machine "
                "file (loaded)\n",
                repeats);
    const hcart::Mesh meshes[] = {{{100, 100, 100}, {1, 1, 1}, {false, false, false}, {}},
                                  {{64, 64, 64}, {1, 1, 1}, {true, true, true}, {}},
                                  {{96, 192, 480}, {1, 1, 1}, {false, false, false}, {}}};
    int cases = 0, gained = 0;
    double best_gain = 1.0, slowest = 0.0, slowest_file = 0.0;
    for (int nodes : {9, 11, 13, 16, 17, 24, 31, 32, 48, 64, 67, 96, 127, 128, 1021, 4096}) {
      for (const char* below : {" core:2", " core:4", " socket:2 core:64"}) {
        const hcart::Machine machine =
            hcart::Machine::parse("node:" + std::to_string(nodes) + below);
        for (const auto& mesh : meshes) {
          hcart::PlanOptions none;
          none.region_search_nodes = 0;
          hcart::Plan a;
          try {
            a = hcart::make_plan(mesh, machine, none);
          } catch (const hcart::InputError&) {
            continue; // a prime node count longer than the mesh: no process grid
          }
          const hcart::Plan b = hcart::make_plan(mesh, machine, hcart::PlanOptions{});
          hcart::PlanOptions file;
          file.timings = timings_for(machine, 1.8e-3);
          const auto plain = time_plan(mesh, machine, hcart::PlanOptions{}, repeats);
          const auto with_file = time_plan(mesh, machine, file, repeats);
          const double gain = a.cost.levels[0].busiest / b.cost.levels[0].busiest;
          ++cases;
          if (hcart::compare(b.cost, a.cost) < 0) ++gained;
          best_gain = std::max(best_gain, gain);
          slowest = std::max(slowest, plain.min);
          slowest_file = std::max(slowest_file, with_file.min);
          std::printf(
              "  %-26s %-12s %9.0f / %9.0f B (%.3fx)  %5.1f ms  %5.1f ms%s\n",
              machine.to_string().c_str(),
              (std::to_string(mesh.global_size[0]) + "x" + std::to_string(mesh.global_size[1]) +
               "x" + std::to_string(mesh.global_size[2]))
                  .c_str(),
              a.cost.levels[0].busiest, b.cost.levels[0].busiest, gain, plain.min * 1e3,
              with_file.min * 1e3,
              b.searched.find("stopped") != std::string::npos ? " (box budget reached)" : "");
        }
      }
    }
    std::printf("node regions: the default beats level grids and runs in %d of %d cases (its "
                "busiest node up to %.3fx lighter; the rest at the same busiest node, lighter "
                "at a level's total or a finer level); the slowest plan %.1f ms, with a machine "
                "file %.1f ms\n",
                gained, cases, best_gain, slowest * 1e3, slowest_file * 1e3);
    return 0;
  });
}
