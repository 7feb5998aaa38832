// Benchmarks of the mapping core (issue targets in docs/benchmarks.md):
//  1. factorize(): median time over random n <= 10^6, d <= 4; worst time over n <= 10^7
//     (highly composite n included), d <= 10.
//  2. The linked MPI library's MPI_Dims_create side by side: its median time, and the share
//     of (n, d) with n <= 5000 where its answer has a larger weighted sum or spread.
//  3. Placing one rank of a 2^20-rank plan; the full traffic model for 2^16 ranks.
// Each timing is repeated; min and median of the repeats are reported.
#include "BenchTiming.hpp"

#include <hcart/core/Main.hpp>
#include <hcart/grid/MpiDims.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Case {
  std::int64_t n;
  std::vector<double> w;
};

volatile std::int64_t sink = 0;

// Per-call times of f over the cases.
template <class F>
std::vector<double> per_call(const std::vector<Case>& cases, F&& f) {
  std::vector<double> t;
  t.reserve(cases.size());
  for (const Case& c : cases) {
    const auto t0 = Clock::now();
    sink = sink + f(c);
    t.push_back(seconds_since(t0));
  }
  return t;
}

void report(const char* what, const std::vector<double>& repeats, double scale, const char* unit) {
  std::vector<double> r = repeats;
  std::sort(r.begin(), r.end());
  std::printf("%-58s min %8.3f %s   median %8.3f %s\n", what, r.front() * scale, unit,
              median(r) * scale, unit);
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-mapping", [&](hcart::Environment&) {
    const int repeats = 5;
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> real(0.1, 10.0);

    // 1. Median over random n <= 10^6, d <= 4 (equal weights and random weights).
    std::vector<Case> random_equal, random_weighted;
    for (int k = 0; k < 200000; ++k) {
      const std::int64_t n = 1 + static_cast<std::int64_t>(rng() % 1000000);
      const std::size_t d = 1 + rng() % 4;
      random_equal.push_back({n, std::vector<double>(d, 1.0)});
      std::vector<double> w(d);
      for (auto& x : w)
        x = real(rng);
      random_weighted.push_back({n, w});
    }
    std::vector<double> med_equal, med_weighted, med_mpi;
    for (int r = 0; r < repeats; ++r) {
      med_equal.push_back(median(
          per_call(random_equal, [](const Case& c) { return hcart::factorize(c.n, c.w)[0]; })));
      med_weighted.push_back(median(
          per_call(random_weighted, [](const Case& c) { return hcart::factorize(c.n, c.w)[0]; })));
      med_mpi.push_back(median(per_call(random_equal, [](const Case& c) {
        int dims[16] = {};
        MPI_Dims_create(static_cast<int>(c.n), static_cast<int>(c.w.size()), dims);
        return static_cast<std::int64_t>(dims[0]);
      })));
    }
    std::printf("== factorize, 200000 random n <= 10^6, d <= 4 (median per call)\n");
    report("hcart::factorize, equal weights", med_equal, 1e6, "us");
    report("hcart::factorize, random weights", med_weighted, 1e6, "us");
    report("MPI_Dims_create (equal weights)", med_mpi, 1e6, "us");

    // 1b. Worst case over n <= 10^7, d <= 10: highly composite n and a random sample.
    std::vector<Case> hard;
    const std::int64_t composite[] = {8648640, 6486480, 7207200, 9979200, 5765760, 4324320,
                                      3603600, 2162160, 1081080, 720720,  9609600, 10000000};
    for (std::int64_t n : composite) {
      for (std::size_t d = 2; d <= 10; ++d) {
        hard.push_back({n, std::vector<double>(d, 1.0)});
        std::vector<double> w(d);
        for (auto& x : w)
          x = real(rng);
        hard.push_back({n, w});
      }
    }
    for (int k = 0; k < 20000; ++k) {
      const std::size_t d = 1 + rng() % 10;
      std::vector<double> w(d);
      for (auto& x : w)
        x = real(rng);
      hard.push_back({1 + static_cast<std::int64_t>(rng() % 10000000), w});
    }
    std::vector<double> worst;
    Case worst_case{};
    for (int r = 0; r < repeats; ++r) {
      const auto t = per_call(hard, [](const Case& c) { return hcart::factorize(c.n, c.w)[0]; });
      const auto it = std::max_element(t.begin(), t.end());
      worst.push_back(*it);
      worst_case = hard[it - t.begin()];
    }
    std::printf("== factorize, worst case over %zu (n <= 10^7, d <= 10) incl. highly composite n\n",
                hard.size());
    report("hcart::factorize, slowest call", worst, 1e3, "ms");
    std::printf("   (slowest in the last repeat: n = %lld, d = %zu)\n",
                static_cast<long long>(worst_case.n), worst_case.w.size());
    std::vector<double> hcn;
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = Clock::now();
      sink = sink + hcart::factorize(8648640, std::vector<double>(10, 1.0))[0];
      hcn.push_back(seconds_since(t0));
    }
    report("hcart::factorize(8648640, d = 10, equal weights)", hcn, 1e3, "ms");

    // 2. MPI_Dims_create's quality against the optimum, n <= 5000, equal weights.
    std::printf("== MPI_Dims_create vs hcart, every n <= 5000 (equal weights)\n");
    for (int d = 2; d <= 4; ++d) {
      int larger_sum = 0, larger_spread = 0, worse = 0;
      for (int n = 1; n <= 5000; ++n) {
        const std::vector<double> w(d, 1.0);
        const auto ours = hcart::factorize(n, w);
        const auto theirs = hcart::mpi_dims_create(n, std::vector<std::int64_t>(d, 0));
        const auto so = hcart::score(ours, w), st = hcart::score(theirs, w);
        const bool sum_worse = st.weighted_sum > so.weighted_sum + 1e-9;
        const bool spread_worse = st.spread > so.spread;
        larger_sum += sum_worse;
        larger_spread += spread_worse;
        worse += sum_worse || spread_worse;
      }
      std::printf("   d = %d: MPI_Dims_create worse for %5.2f%% of n (larger sum %5.2f%%, larger "
                  "spread %5.2f%%)\n",
                  d, 100.0 * worse / 5000, 100.0 * larger_sum / 5000, 100.0 * larger_spread / 5000);
    }

    // 3. Placement and traffic model at scale.
    const hcart::Machine big = hcart::Machine::parse("node:8192 socket:2 core:64");
    const hcart::Mesh mesh{{65536, 32768, 16384}, {1, 1, 1}, {false, false, false}, {}};
    std::vector<double> place;
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = Clock::now();
      const hcart::Plan plan = hcart::make_plan(mesh, big, {});
      sink = sink + plan.cart_rank_of(777777, big);
      place.push_back(seconds_since(t0));
    }
    std::printf("== scale\n");
    report("plan + place one rank, 2^20 ranks (node:8192 socket:2 core:64)", place, 1e3, "ms");
    const hcart::Machine mid = hcart::Machine::parse("node:512 socket:2 core:64");
    const hcart::Plan plan = hcart::make_plan(mesh, mid, {});
    std::vector<double> model, model_corners;
    for (int r = 0; r < repeats; ++r) {
      auto t0 = Clock::now();
      sink = sink + hcart::traffic_model(plan, mid, mesh, {8, false}).total_bytes;
      model.push_back(seconds_since(t0));
      t0 = Clock::now();
      sink = sink + hcart::traffic_model(plan, mid, mesh, {8, true}).total_bytes;
      model_corners.push_back(seconds_since(t0));
    }
    report("traffic model, 2^16 ranks, faces", model, 1e3, "ms");
    report("traffic model, 2^16 ranks, faces + edges + corners", model_corners, 1e3, "ms");
    return 0;
  });
}
