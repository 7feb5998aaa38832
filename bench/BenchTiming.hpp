// Timing helpers shared by the benchmarks: wall time, and min / median of repeats.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace hcart::bench {

using Clock = std::chrono::steady_clock;

/// Seconds since t0.
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Stats {
  double min, median;
};

/// Min and median of the repeats.
inline Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2]};
}

} // namespace hcart::bench
