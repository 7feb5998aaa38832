// hcart-compare's comparison of two fields, cell by cell (apps/tools/hcart-compare).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace hcart::apps {

/// \brief What one field's comparison found: cells, how many differ in their bits and how
/// many beyond the tolerance, the largest absolute and relative differences and where (flat
/// global index, -1: none). A NaN against anything but the same NaN counts as an infinite
/// difference.
struct FieldDifference {
  std::string name;
  std::int64_t cells = 0, differing_bits = 0, beyond_tolerance = 0;
  double max_absolute = 0, max_relative = 0;
  std::int64_t at_absolute = -1, at_relative = -1; // flat global index, -1: none
};

inline bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

/// \brief Compares `a` and `b` cell by cell; a cell matches when |a - b| <= max(tolerance,
/// relative * max(|a|, |b|)) or its bits are equal.
inline FieldDifference compare_field(const std::string& name, const std::vector<double>& a,
                                     const std::vector<double>& b, double tolerance,
                                     double relative) {
  FieldDifference d;
  d.name = name;
  d.cells = static_cast<std::int64_t>(a.size());
  for (std::size_t c = 0; c < a.size(); ++c) {
    if (same_bits(a[c], b[c])) continue;
    ++d.differing_bits;
    const double absolute = std::fabs(a[c] - b[c]); // NaN when either is NaN
    const double scale = std::max(std::fabs(a[c]), std::fabs(b[c]));
    const double rel = scale > 0 ? absolute / scale : 0.0;
    const bool nan = !(absolute == absolute);
    if (nan || absolute > d.max_absolute) {
      d.max_absolute = nan ? HUGE_VAL : absolute;
      d.at_absolute = static_cast<std::int64_t>(c);
    }
    if (nan || rel > d.max_relative) {
      d.max_relative = nan ? HUGE_VAL : rel;
      d.at_relative = static_cast<std::int64_t>(c);
    }
    if (nan || !(absolute <= std::max(tolerance, relative * scale))) ++d.beyond_tolerance;
  }
  return d;
}

} // namespace hcart::apps
