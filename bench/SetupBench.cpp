// hcart-bench-setup: what every rank receives, holds and computes to set up a decomposition on
// machines of 10^5 and 10^6 ranks, simulated on one process (docs/benchmarks.md, 'Set-up at
// scale').
//
// Nodes of 128 ranks (2 sockets x 4 NUMA domains x 16 cores, one L3 per NUMA domain, every
// rank bound to a core), the last node partly filled where the rank count asks for it, a block
// launch. Per case, each part in a fresh child process (peak memory is its growth):
//   summary   what detection hands every rank now: every node's kind and one node of each
//             kind's facts, gathered through the node leaders (topology/Detect.cpp); then the
//             hierarchy from it, the default plan, and what Decomposition asks of the plan
//             (this rank's coordinates, the original ranks of its 26 neighbours);
//   all facts what every rank received before: every rank's facts (the allgather of 6 ints
//             per rank) and every rank's original rank, and the hierarchy built from them.
// Bytes received are counted from the messages' sizes (leaders receive more: listed apart).
//
//   hcart-bench-setup [--quick]      (--quick: the 10^5-rank cases only)
#include <hcart/core/Timers.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/topology/Hierarchy.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr int node_cores = 128;

hcart::RankFacts core_facts(int core) {
  hcart::RankFacts f;
  f.bound = true;
  f.object = {core / 64, core / 16, core / 16, core};
  return f;
}

long peak_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

using hcart::seconds_since;

struct Case {
  std::int64_t ranks;
  std::int64_t nodes() const { return (ranks + node_cores - 1) / node_cores; }
  int last() const { return static_cast<int>(ranks - (nodes() - 1) * node_cores); }
};

// Runs `work` in a child; it prints its own line. Returns false if the child failed.
template <class Work>
bool in_child(Work work) {
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    const long before = peak_kib();
    const int rc = work(before);
    std::fflush(stdout);
    _exit(rc);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int summary_path(const Case& c, long before) {
  using clock = std::chrono::steady_clock;
  const std::int64_t N = c.nodes();
  // What the node leaders broadcast: N node kinds, then per kind its facts (5 ints a rank).
  hcart::NodeFactsSummary summary;
  summary.order = hcart::LaunchOrder::NodeRuns;
  summary.kinds.resize(c.last() == node_cores ? 1 : 2);
  for (int k = 0; k < node_cores; ++k)
    summary.kinds[0].push_back(core_facts(k));
  for (int k = 0; k < c.last() && summary.kinds.size() == 2; ++k)
    summary.kinds[1].push_back(core_facts(k));
  summary.node_kind.assign(N, 0);
  if (summary.kinds.size() == 2) summary.node_kind.back() = 1;
  std::int64_t kind_ranks = 0;
  for (const auto& kind : summary.kinds)
    kind_ranks += static_cast<std::int64_t>(kind.size());
  const std::int64_t received =
      4 * (3 + N + static_cast<std::int64_t>(summary.kinds.size()) + 5 * kind_ranks);
  // A leader also receives its node's facts and ranks, N fingerprints and counts, and the
  // kinds' facts.
  const std::int64_t leader = received + 4 * 6 * node_cores + 16 * N + 4 * 5 * kind_ranks;

  auto start = clock::now();
  const hcart::DetectedHierarchy h = hcart::build_hierarchy(summary);
  const double t_hierarchy = seconds_since(start);
  const hcart::Machine& m = h.machine;
  const hcart::Mesh mesh{{4096, 4096, 4096}, {1, 1, 1}, {false, false, false}, {}};
  start = clock::now();
  const hcart::Plan plan = hcart::make_plan(mesh, m, {});
  const double t_plan = seconds_since(start);
  // Decomposition's questions for one rank in the middle: its coordinates, its neighbours'
  // original ranks.
  start = clock::now();
  const std::int64_t rank = c.ranks / 2;
  const auto coords = plan.coords_of(rank, m);
  std::int64_t checksum = 0;
  for (int a = -1; a <= 1; ++a)
    for (int b = -1; b <= 1; ++b)
      for (int e = -1; e <= 1; ++e) {
        std::vector<std::int64_t> nb{coords[0] + a, coords[1] + b, coords[2] + e};
        bool inside = true;
        for (int i = 0; i < 3; ++i)
          inside = inside && nb[i] >= 0 && nb[i] < plan.dims[i];
        if (inside) checksum += plan.world_rank_at(hcart::row_major_rank(nb, plan.dims), m);
      }
  const double t_decomposition = seconds_since(start);
  std::printf("%9lld  %-9s  %10.1f  %10.1f  %9.1f  %9.3f  %9.3f  %9.3f  %9ld   %s | %s\n",
              static_cast<long long>(c.ranks), "summary", received / 1024.0, leader / 1024.0,
              m.footprint_bytes() / 1024.0, 1e3 * t_hierarchy, 1e3 * t_plan, 1e3 * t_decomposition,
              peak_kib() - before, m.to_string().c_str(), plan.describe_layout().c_str());
  return checksum >= 0 ? 0 : 1;
}

int all_facts_path(const Case& c, long before) {
  using clock = std::chrono::steady_clock;
  // What the allgathers delivered: 6 ints of facts and 1 original rank per rank.
  std::vector<int> packed(static_cast<std::size_t>(6 * c.ranks));
  std::vector<int> original(static_cast<std::size_t>(c.ranks));
  for (std::int64_t r = 0; r < c.ranks; ++r) {
    const hcart::RankFacts f = core_facts(static_cast<int>(r % node_cores));
    int* p = packed.data() + 6 * r;
    p[0] = static_cast<int>(r / node_cores);
    p[1] = 1;
    for (int l = 0; l < 4; ++l)
      p[2 + l] = f.object[l];
    original[r] = static_cast<int>(r);
  }
  const auto start = clock::now();
  std::vector<hcart::RankFacts> facts(c.ranks);
  for (std::int64_t r = 0; r < c.ranks; ++r) {
    const int* p = packed.data() + 6 * r;
    facts[r].node = p[0];
    facts[r].bound = p[1] != 0;
    for (int l = 0; l < 4; ++l)
      facts[r].object[l] = p[2 + l];
  }
  const hcart::DetectedHierarchy h = hcart::build_hierarchy(facts);
  const double t_hierarchy = seconds_since(start);
  const std::int64_t received = 4 * 7 * c.ranks;
  std::printf("%9lld  %-9s  %10.1f  %10s  %9s  %9.3f  %9s  %9s  %9ld   %s\n",
              static_cast<long long>(c.ranks), "all facts", received / 1024.0, "same", "-",
              1e3 * t_hierarchy, "-", "-", peak_kib() - before, h.machine.to_string().c_str());
  return original.back() == c.ranks - 1 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  if (argc > 2 || (argc == 2 && !quick)) {
    std::fprintf(stderr, "usage: hcart-bench-setup [--quick]\n");
    return 2;
  }
  std::vector<Case> cases{{131072}, {100000}};
  if (!quick) cases.insert(cases.end(), {{1048576}, {1000000}});
  std::printf("Set-up per rank, simulated: nodes of %d ranks (socket:2 numa:4 core:16), a block "
              "launch, mesh 4096^3, default strategy\n",
              node_cores);
  std::printf("%9s  %-9s  %10s  %10s  %9s  %9s  %9s  %9s  %9s   %s\n", "ranks", "path", "recv KiB",
              "leader KiB", "kept KiB", "hier. ms", "plan ms", "decomp ms", "peak KiB",
              "machine | layout");
  bool ok = true;
  for (const Case& c : cases) {
    ok = in_child([&](long before) { return summary_path(c, before); }) && ok;
    ok = in_child([&](long before) { return all_facts_path(c, before); }) && ok;
  }
  return ok ? 0 : 1;
}
