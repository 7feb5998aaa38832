// Timing helpers shared by the benchmarks: wall time, and min / median of repeats.
#pragma once

#include <hcart/core/Timers.hpp>

#include <algorithm>
#include <chrono>
#include <vector>

namespace hcart::bench {

using Clock = std::chrono::steady_clock;

/// Seconds since t0 (the library's).
using hcart::seconds_since;

struct Stats {
  double min, median;
};

/// Min and median of the repeats.
inline Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2]};
}

} // namespace hcart::bench
