// hcart-plan: plan a decomposition for any machine without running on it.
//
//   hcart-plan --mesh 2048,1024,512 --halo 1,1,1 --machine "node:8 socket:2 core:16"
//
// prints, for every strategy side by side, the per-level factors, the process grid and the
// exact halo traffic per hardware level (docs/algorithms.md, 'Traffic model'), and the
// saving against what MPI_Dims_create gives. --json writes the same data as described in
// docs/plan-json.md. With --machine-file (written by `hcart-machine --measure`) it also
// predicts the time of one halo exchange per strategy (docs/machine-file.md). With
// --rankfile / --hostfile and --hosts it writes launcher files that give a code laying out
// the fixed --dims in world order hcart's placement (docs/c-fortran.md, "A rankfile"). With
// --draw FILE it draws the plans (SVG: the process grid coloured by node, the switch and
// node boxes outlined; docs/user-guide.md, "Pictures of plans").
#include "LaunchFile.hpp"
#include "MachineFile.hpp"
#include "PlanPicture.hpp"
#include "PlanReport.hpp"
#include "Text.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/Main.hpp>
#include <hcart/grid/Planner.hpp>
#include <hcart/io/OutputDirectory.hpp>
#include <hcart/mapping/PlanCost.hpp>
#include <hcart/mapping/Strategy.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>

namespace {

// The launcher files for a code on the fixed dims in world order, and what they save: the
// node level's traffic of hcart's placement of those dims against the launch order's.
void write_launch_files(const hcart::apps::PlanRequest& request,
                        const std::vector<std::string>& hosts, const std::string& rankfile,
                        const std::string& hostfile, std::ostream& report, bool root) {
  hcart::PlanOptions placed;
  placed.strategy = hcart::Strategy::Manual;
  placed.dims = request.dims;
  placed.weights = request.weights;
  placed.traffic = request.traffic;
  const hcart::Plan plan = hcart::plan_decomposition(request.mesh, request.machine, placed);
  hcart::PlanOptions launched = placed; // the same dims, ranks as launched
  launched.strategy = hcart::Strategy::Weighted;
  const hcart::Plan as_launched =
      hcart::plan_decomposition(request.mesh, request.machine, launched);
  const auto t = hcart::traffic_model(plan, request.machine, request.mesh, request.traffic);
  const auto w = hcart::traffic_model(as_launched, request.machine, request.mesh, request.traffic);
  // Never worse than the launch order: where hcart's placement of these dims does not send
  // less by the objective (the busiest unit, then the total, level by level from the nodes
  // down), the files keep the launch order.
  const bool placed_better = hcart::compare(hcart::plan_cost(t), hcart::plan_cost(w)) < 0;
  const auto slots = hcart::apps::launch_slots(placed_better ? plan : as_launched, request.machine);
  auto write = [&](const std::string& path, const std::string& text) {
    if (path.empty() || !root) return;
    hcart::create_parent_directories(path, "hcart-plan");
    std::ofstream out(path);
    out << text;
    out.close();
    HCART_REQUIRE(out.good(), "cannot write '" << path << "'");
  };
  write(rankfile, hcart::apps::openmpi_rankfile(slots, hosts));
  write(hostfile, hcart::apps::host_per_rank_file(slots, hosts));
  if (!root) return;
  // Open MPI refuses a slot a host does not have, and exits 1 without a word: say which.
  std::int64_t slots_used = 0;
  for (const auto& s : slots)
    slots_used = std::max(slots_used, s.slot + 1);
  if (!rankfile.empty())
    report << "the rankfile names slots 0 to " << slots_used - 1
           << ": each host needs a core for every rank it runs (Open MPI exits without a "
              "message where a slot is missing)\n";
  // The coarsest level's figures: the nodes', or the busiest switch's above them.
  const auto& top = w.levels[0].name;
  const std::string tops = top + (top.back() == 'h' ? "es" : "s"); // nodes, switches
  if (!placed_better) {
    report << "launch files for a code on dims " << hcart::apps::join(request.dims, "x")
           << " in world order: no placement of these dims sends less than the launch order "
              "(across "
           << tops << " " << w.levels[0].bytes << " B per exchange, busiest " << top << " "
           << w.levels[0].max_unit_bytes << " B), so the files keep it: they change nothing\n";
    return;
  }
  report << "launch files for a code on dims " << hcart::apps::join(request.dims, "x")
         << " in world order: across " << tops << " " << t.levels[0].bytes
         << " B per exchange (busiest " << top << " " << t.levels[0].max_unit_bytes
         << " B) with them, " << w.levels[0].bytes << " B (busiest " << top << " "
         << w.levels[0].max_unit_bytes << " B) as launched\n";
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-plan", [&](hcart::Environment& env) {
    using namespace hcart::apps;
    CLI::App app{"hcart-plan: plan a hierarchical Cartesian decomposition for any machine, "
                 "and compare strategies by their exact halo traffic per hardware level.",
                 "hcart-plan"};
    std::string mesh_text, halo_text, cost_text, weights_text, periodic_text, machine_text;
    std::string machine_file;
    std::string placement_text = "block", strategy_text = "all", dims_text;
    int elem_bytes = 8;
    bool corners = false, json = false, equal_blocks = false;
    // --mesh and --machine are required, checked after the values given were read: a value
    // that cannot be read is the first thing to say, not another option's absence.
    app.add_option("--mesh", mesh_text, "global mesh sizes, e.g. 2048,1024,512 (required)");
    app.add_option("--halo", halo_text, "halo widths per direction (default 1 each)");
    auto* cost = app.add_option("--cost", cost_text, "cost factors c_i (default 1 each)");
    auto* weights = app.add_option("--weights", weights_text,
                                   "communication weights given directly instead of derived");
    cost->excludes(weights);
    app.add_option("--periodic", periodic_text, "periodic flags per direction, e.g. 0,0,1");
    app.add_option("--machine", machine_text,
                   "machine levels, coarse first, e.g. \"node:8 socket:2 core:16\", with "
                   "switches \"switch:2 node:4 core:16\" (required unless --machine-file "
                   "gives it)");
    app.add_option("--machine-file", machine_file,
                   "measured figures (hcart-machine --measure): predict each strategy's "
                   "exchange time; its machine unless --machine is given");
    app.add_option("--placement", placement_text, "rank numbering: block or round-robin")
        ->capture_default_str();
    app.add_option("--strategy", strategy_text,
                   "all, " + hcart::strategy_names(", ", " or ") +
                       " (all: manual too when --dims fixes every direction)")
        ->capture_default_str();
    app.add_option("--dims", dims_text, "fixed dims per direction, 0 = free");
    app.add_option("--elem-bytes", elem_bytes, "bytes per cell")->capture_default_str();
    app.add_flag("--corners", corners, "count edge and corner messages too (HaloMode::Full)");
    app.add_flag("--equal-blocks", equal_blocks,
                 "only process grids whose dims divide the mesh (blocks of one size)");
    app.add_flag("--json", json, "write JSON (docs/plan-json.md) instead of the table");
    std::string draw;
    app.add_option("--draw", draw,
                   "draw the plans to this SVG file (named *.svg): the process grid coloured by "
                   "node, switch and node boxes outlined (meshes of 1 to 3 dimensions, at most "
                   "65536 ranks)");
    std::string rankfile, hostfile, hosts_text;
    app.add_option("--rankfile", rankfile,
                   "write an Open MPI rankfile that gives a code using the fixed --dims in "
                   "world order hcart's placement (needs --hosts)");
    app.add_option("--hostfile", hostfile,
                   "the same as one host per line in rank order, for MPICH's Hydra (-f) and "
                   "Slurm (SLURM_HOSTFILE, --distribution=arbitrary)");
    app.add_option("--hosts", hosts_text, "the machine's nodes' host names, comma-separated");
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;

    PlanRequest request;
    std::vector<std::string> launch_hosts;
    hcart::agree_on_errors(MPI_COMM_WORLD, [&] {
      // The values given first, in the order of the command line's help; then what is missing.
      if (!mesh_text.empty()) parse_int_list("--mesh", mesh_text);
      if (!machine_text.empty()) hcart::Machine::parse(machine_text);
      if (!machine_file.empty()) {
        request.timings = hcart::read_machine_file(machine_file);
        if (machine_text.empty()) machine_text = request.timings->machine;
      }
      HCART_REQUIRE(!mesh_text.empty(), "--mesh is required, e.g. --mesh 2048,1024,512");
      HCART_REQUIRE(!machine_text.empty(),
                    "--machine is required, e.g. --machine \"node:8 socket:2 core:16\"");
      hcart::Mesh& mesh = request.mesh;
      mesh.global_size = parse_int_list("--mesh", mesh_text);
      const std::size_t d = mesh.global_size.size();
      auto expect_length = [d](const char* option, std::size_t n) {
        HCART_REQUIRE(n == d, option << ": " << n << " values for a " << d
                                     << "-dimensional mesh, expected " << d);
      };
      if (halo_text.empty()) {
        mesh.halo_width.assign(d, 1);
      } else {
        for (std::int64_t h : parse_int_list("--halo", halo_text)) {
          HCART_REQUIRE(h >= 0 && h <= 1000000, "--halo: " << h << ", expected 0 to 1000000");
          mesh.halo_width.push_back(static_cast<int>(h));
        }
      }
      expect_length("--halo", mesh.halo_width.size());
      mesh.periodic = periodic_text.empty() ? std::vector<bool>(d, false)
                                            : parse_bool_list("--periodic", periodic_text);
      expect_length("--periodic", mesh.periodic.size());
      if (!cost_text.empty()) {
        mesh.cost_factor = parse_real_list("--cost", cost_text);
        expect_length("--cost", mesh.cost_factor.size());
      }
      hcart::validate(mesh);
      if (!weights_text.empty()) {
        request.weights = parse_real_list("--weights", weights_text);
        expect_length("--weights", request.weights.size());
        for (double w : request.weights) {
          HCART_REQUIRE(w >= 0, "--weights: " << w << ", expected a value >= 0");
        }
      }
      HCART_REQUIRE(elem_bytes >= 1, "--elem-bytes: " << elem_bytes << ", expected >= 1");
      request.traffic = {elem_bytes, corners};
      request.equal_blocks = equal_blocks;
      request.machine = hcart::Machine::parse(machine_text, hcart::parse_placement(placement_text));
      if (!dims_text.empty()) {
        request.dims = parse_int_list("--dims", dims_text);
        expect_length("--dims", request.dims.size());
      }
      bool all_dims_fixed = !request.dims.empty();
      for (std::int64_t x : request.dims)
        all_dims_fixed = all_dims_fixed && x > 0;
      if (!rankfile.empty() || !hostfile.empty()) {
        HCART_REQUIRE(all_dims_fixed,
                      "--rankfile/--hostfile: give the dims the code uses, every direction "
                      "fixed, e.g. --dims 4,2,2 (the mpi row of hcart-plan shows "
                      "MPI_Dims_create's)");
        HCART_REQUIRE(!hosts_text.empty(), "--rankfile/--hostfile need --hosts, one host per "
                                           "node, e.g. --hosts node1,node2");
        launch_hosts = hcart::apps::parse_hosts(hosts_text, request.machine);
      }
      // The picture is SVG: a file named otherwise would hold SVG under a name that says
      // something else, so it is refused before anything is written.
      const auto ends_with_svg = [](const std::string& name) {
        if (name.size() < 4) return false;
        std::string tail = name.substr(name.size() - 4);
        for (char& ch : tail)
          ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return tail == ".svg";
      };
      HCART_REQUIRE(draw.empty() || ends_with_svg(draw),
                    "--draw '" << draw << "': hcart-plan draws SVG, expected a file name ending "
                               << "in .svg (convert it afterwards for another format, e.g. "
                               << "rsvg-convert -o plan.png plan.svg)");
      if (strategy_text == "all") {
        request.strategies = hcart::compared_strategies(all_dims_fixed);
      } else {
        request.strategies = {hcart::parse_strategy(strategy_text)};
      }
    });
    std::vector<PlanOutcome> outcomes;
    hcart::agree_on_errors(MPI_COMM_WORLD, [&] { outcomes = plan_all(request); });
    if (!draw.empty()) {
      hcart::agree_on_errors(MPI_COMM_WORLD, [&] {
        const std::string picture = plan_svg(request, outcomes);
        if (env.rank() != 0) return;
        hcart::create_parent_directories(draw, "hcart-plan --draw");
        std::ofstream out(draw);
        out << picture;
        out.close();
        HCART_REQUIRE(out.good(), "--draw: cannot write '" << draw << "'");
      });
    }
    if (env.rank() == 0) {
      if (json)
        std::cout << to_json(request, outcomes).dump(2) << std::endl;
      else
        print_table(std::cout, request, outcomes);
    }
    if (!rankfile.empty() || !hostfile.empty()) {
      hcart::agree_on_errors(MPI_COMM_WORLD, [&] {
        write_launch_files(request, launch_hosts, rankfile, hostfile, json ? std::cerr : std::cout,
                           env.rank() == 0);
      });
    }
    return 0;
  });
}
