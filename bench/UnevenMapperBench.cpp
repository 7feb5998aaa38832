// hcart-bench-uneven: the default strategy on uneven machines (nodes holding different rank
// counts) against world order and against a general graph mapper, SCOTCH, on the same
// graphs (docs/benchmarks.md, 'Uneven machines').
//
// For every case (node sizes, a mesh, periodic or not; faces, 8 B per cell) the busiest
// node's halo bytes of:
//   world order   on the weighted factorization's dims, and on the best dims for it;
//   SCOTCH        the process graph of every admitted grid (edge weights: the bytes both ways
//                 between two ranks) mapped onto a complete graph of the nodes weighted by
//                 their rank counts (SCOTCH_archCmpltw, a balanced quality strategy), the best
//                 grid's busiest node; mappings that do not fill every node exactly are not
//                 used;
//   hcart         the default (hierarchical) plan.
// Every count is the traffic model's (hcart::traffic_model) for the placement each produced.
//
// Then the planner's time on larger uneven machines.
//
//   hcart-bench-uneven [--quick]
#include <hcart/core/Error.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <scotch.h>
#include <string>
#include <vector>

namespace {

using Factors = std::vector<std::int64_t>;

// Every ordered factorization of n into 3 factors within the bounds.
std::vector<Factors> grids(std::int64_t n, const Factors& bounds) {
  std::vector<Factors> out;
  for (std::int64_t a = 1; a <= n; ++a) {
    if (n % a != 0 || a > bounds[0]) continue;
    for (std::int64_t b = 1; b <= n / a; ++b) {
      if ((n / a) % b != 0 || b > bounds[1]) continue;
      const std::int64_t c = n / a / b;
      if (c <= bounds[2]) out.push_back({a, b, c});
    }
  }
  return out;
}

std::int64_t busiest_node(const hcart::Plan& plan, const hcart::Machine& m,
                          const hcart::Mesh& mesh) {
  return hcart::traffic_model(plan, m, mesh).levels[0].max_unit_bytes;
}

// World order on `dims`: each rank's row-major rank is its world rank.
std::int64_t world_order(const Factors& dims, const hcart::Machine& m, const hcart::Mesh& mesh) {
  return busiest_node(hcart::plan_from_dims(hcart::Strategy::Weighted, dims, m), m, mesh);
}

// SCOTCH's mapping of grid `dims` onto the nodes; -1 when it does not fill them exactly.
std::int64_t scotch_map(const Factors& dims, const hcart::Machine& m, const hcart::Mesh& mesh) {
  const std::int64_t P = m.ranks();
  // The graph: every pair of neighbours once per direction, weighted by both ways' bytes.
  std::vector<std::map<SCOTCH_Num, SCOTCH_Num>> adjacent(P);
  for (std::int64_t q = 0; q < P; ++q) {
    for (const auto& msg : hcart::halo_messages(hcart::row_major_coords(q, dims), dims, mesh, {})) {
      if (msg.to_cart_rank == q) continue;
      adjacent[q][static_cast<SCOTCH_Num>(msg.to_cart_rank)] += static_cast<SCOTCH_Num>(msg.bytes);
      adjacent[msg.to_cart_rank][static_cast<SCOTCH_Num>(q)] += static_cast<SCOTCH_Num>(msg.bytes);
    }
  }
  std::vector<SCOTCH_Num> verttab{0}, edgetab, edlotab;
  for (const auto& row : adjacent) {
    for (const auto& [to, bytes] : row) {
      edgetab.push_back(to);
      edlotab.push_back(bytes / 2); // each direction was added from both ends
    }
    verttab.push_back(static_cast<SCOTCH_Num>(edgetab.size()));
  }
  SCOTCH_Graph graph;
  SCOTCH_Arch arch;
  SCOTCH_Strat strat;
  SCOTCH_graphInit(&graph);
  SCOTCH_archInit(&arch);
  SCOTCH_stratInit(&strat);
  const std::vector<std::int64_t> sizes = m.node_ranks();
  std::vector<SCOTCH_Num> capacity(sizes.begin(), sizes.end());
  std::vector<SCOTCH_Num> part(P, -1);
  const auto nodes = static_cast<SCOTCH_Num>(capacity.size());
  const bool ok = SCOTCH_graphBuild(&graph, 0, static_cast<SCOTCH_Num>(P), verttab.data(), nullptr,
                                    nullptr, nullptr, static_cast<SCOTCH_Num>(edgetab.size()),
                                    edgetab.data(), edlotab.data()) == 0 &&
                  SCOTCH_archCmpltw(&arch, nodes, capacity.data()) == 0 &&
                  SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE,
                                            nodes, 0.0) == 0 &&
                  SCOTCH_graphMap(&graph, &arch, &strat, part.data()) == 0;
  SCOTCH_stratExit(&strat);
  SCOTCH_archExit(&arch);
  SCOTCH_graphExit(&graph);
  if (!ok) return -1;
  // Node u's ranks (block order) on its vertices (ascending): the placement's permutation.
  std::vector<std::vector<std::int64_t>> ranks_of(nodes), vertices_of(nodes);
  std::vector<std::int64_t> by_block(P);
  for (std::int64_t r = 0; r < P; ++r)
    by_block[m.block_number(r)] = r;
  for (std::int64_t b = 0; b < P; ++b)
    ranks_of[m.unit_indices(by_block[b])[0]].push_back(by_block[b]);
  for (std::int64_t v = 0; v < P; ++v)
    vertices_of[part[v]].push_back(v);
  hcart::Plan plan = hcart::plan_from_dims(hcart::Strategy::Weighted, dims, m);
  plan.measured_cart_rank.assign(P, -1);
  for (SCOTCH_Num u = 0; u < nodes; ++u) {
    if (vertices_of[u].size() != ranks_of[u].size()) return -1;
    for (std::size_t k = 0; k < ranks_of[u].size(); ++k)
      plan.measured_cart_rank[ranks_of[u][k]] = vertices_of[u][k];
  }
  return busiest_node(plan, m, mesh);
}

std::string node_list(const std::vector<std::int64_t>& sizes) {
  std::string s;
  for (auto n : sizes)
    s += (s.empty() ? "" : ",") + std::to_string(n);
  return s;
}

std::string kib(std::int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(bytes) / 1024.0);
  return buf;
}

} // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const std::vector<std::string> machines =
      quick ? std::vector<std::string>{"node:[4,4,2] core:4", "node:[8,8,4] core:8"}
            : std::vector<std::string>{
                  "node:[4,4,2] core:4",       "node:[4,4,4,2] core:4", "node:[2,2,2,2,2,1] core:2",
                  "node:[6,6,4] core:6",       "node:[8,8,4] core:8",   "node:[8,8,8,6] core:8",
                  "node:[16,16,16,8] core:16", "node:[3,3,3,1] core:3", "node:[12,12,8] core:12"};
  const std::vector<Factors> meshes = {
      {128, 256, 512}, {96, 192, 480}, {100, 100, 100}, {40, 120, 280}};
  std::cout << "busiest node's halo bytes (KiB; faces, 8 B per cell); hcart/SCOTCH < 1: hcart "
               "better\n";
  std::printf("%-12s %-13s %-3s %11s %11s %11s %11s %8s %10s\n", "nodes", "mesh", "per",
              "world(wdims)", "world(best)", "SCOTCH", "hcart", "h/SCOTCH", "plan ms");
  std::vector<double> ratios, vs_world;
  int worse_than_world = 0, cases = 0;
  for (const auto& text : machines) {
    const hcart::Machine m = hcart::Machine::parse(text);
    for (const auto& size : meshes) {
      for (bool periodic : {false, true}) {
        const hcart::Mesh mesh{size, {1, 1, 1}, {periodic, periodic, periodic}, {}};
        const Factors bounds = hcart::cut_bounds(mesh);
        hcart::FactorizeOptions fo;
        const Factors wdims = hcart::factorize(m.ranks(), hcart::communication_weights(mesh), fo);
        const std::int64_t world_w = world_order(wdims, m, mesh);
        std::int64_t world_best = -1, scotch = -1;
        for (const Factors& d : grids(m.ranks(), bounds)) {
          const std::int64_t w = world_order(d, m, mesh);
          if (world_best < 0 || w < world_best) world_best = w;
          const std::int64_t s = scotch_map(d, m, mesh);
          if (s >= 0 && (scotch < 0 || s < scotch)) scotch = s;
        }
        const auto start = std::chrono::steady_clock::now();
        const hcart::Plan plan = hcart::make_plan(mesh, m, {});
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        const std::int64_t ours = busiest_node(plan, m, mesh);
        const double ratio =
            scotch > 0 ? static_cast<double>(ours) / static_cast<double>(scotch) : 0;
        if (scotch > 0) ratios.push_back(ratio);
        vs_world.push_back(static_cast<double>(ours) / static_cast<double>(world_w));
        worse_than_world += ours > std::min(world_w, world_best) ? 1 : 0;
        ++cases;
        std::printf("%-12s %-13s %-3s %11s %11s %11s %11s %8.3f %10.1f\n",
                    node_list(m.node_ranks()).c_str(),
                    (std::to_string(size[0]) + "x" + std::to_string(size[1]) + "x" +
                     std::to_string(size[2]))
                        .c_str(),
                    periodic ? "yes" : "no", kib(world_w).c_str(), kib(world_best).c_str(),
                    scotch < 0 ? "-" : kib(scotch).c_str(), kib(ours).c_str(), ratio, ms);
      }
    }
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  std::sort(ratios.begin(), ratios.end());
  const auto within =
      std::count_if(ratios.begin(), ratios.end(), [](double r) { return r <= 1.05; });
  std::cout << cases << " cases: hcart/SCOTCH median " << median(ratios) << ", best "
            << (ratios.empty() ? 0 : ratios.front()) << ", worst "
            << (ratios.empty() ? 0 : ratios.back()) << "; within 5% of SCOTCH or better in "
            << within << " of " << ratios.size() << "; hcart/world order (weighted dims) median "
            << median(vs_world) << "; worse than world order in " << worse_than_world << " cases\n";
  // The planner's time on larger uneven machines (every rank computes the plan at start-up).
  std::cout << "\nplan time on larger uneven machines (mesh 1024x1024x1024, faces; min and "
               "median of 5):\n";
  const std::vector<std::string> large =
      quick ? std::vector<std::string>{"node:[128x2,64] core:128"}
            : std::vector<std::string>{"node:[128x2,64] core:128", "node:[64x9,32] core:64",
                                       "node:[128x15,100] socket:2 core:64",
                                       "node:[48x63,24] socket:2 core:24",
                                       "node:[128x500,64] core:128"};
  for (const auto& text : large) {
    const hcart::Machine m = hcart::Machine::parse(text);
    const hcart::Mesh mesh{{1024, 1024, 1024}, {1, 1, 1}, {false, false, false}, {}};
    std::vector<double> times;
    hcart::Plan plan;
    for (int k = 0; k < 5; ++k) {
      const auto start = std::chrono::steady_clock::now();
      plan = hcart::make_plan(mesh, m, {});
      times.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
    }
    std::sort(times.begin(), times.end());
    std::printf("  %-36s %7lld ranks: %9.1f ms min, %9.1f ms median; %s\n", text.c_str(),
                static_cast<long long>(m.ranks()), times.front(), times[2], plan.searched.c_str());
  }
  return worse_than_world == 0 ? 0 : 1;
}
