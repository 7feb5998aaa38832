// The most messages one rank of node regions sends across each level, in closed form
// (node_region_messages, PlanSearch.hpp).
#include "mapping/FactorSearch.hpp"
#include "mapping/PlanSearch.hpp"

#include <hcart/mapping/Blocks.hpp>

#include <algorithm>
#include <functional>

namespace hcart::impl {

RegionMessages node_region_messages(const LoadProblem& problem,
                                    const std::vector<std::int64_t>& dims,
                                    const std::vector<NodeRegion>& regions, int levels) {
  const int D = problem.dims;
  RegionMessages out;
  out.most.assign(levels, 0);
  // Per direction, the kinds of coordinate a box holds: for each side the level at which its
  // neighbour first lies in another unit (0: another node; `levels`: the coordinate itself,
  // across the wrap of a whole periodic direction of one coordinate; -1: no neighbour).
  using Sides = std::pair<int, int>;
  std::vector<std::vector<Sides>> kinds(D);
  std::vector<std::size_t> pick(D);
  std::vector<std::int64_t> counts(levels);
  for (const NodeRegion& r : regions) {
    if (r.origin.empty() || r.level_factors.empty()) { // a run: not known here
      out.exact = false;
      continue;
    }
    for (int i = 0; i < D; ++i) {
      const std::int64_t lo = r.origin[i], e = r.extent[i], d = dims[i];
      const bool whole = problem.periodic[i] && lo == 0 && e == d;
      // Level l's units are e / width[l] coordinates wide (level 0: the box).
      std::vector<std::int64_t> width(levels, e);
      for (int l = 1; l < levels; ++l)
        width[l] = width[l - 1] / r.level_factors[l - 1][i];
      const auto level_of = [&](std::int64_t o, int step) {
        const std::int64_t x = lo + o + step;
        if (!problem.periodic[i] && (x < 0 || x >= d)) return -1; // no neighbour
        std::int64_t n = o + step;                                // the neighbour's offset
        if (n < 0 || n >= e) {
          if (!whole) return 0; // outside the box: another node
          n = (n + e) % e;
        }
        if (n == o) return levels; // the coordinate itself
        for (int l = 1; l < levels; ++l)
          if (o / width[l] != n / width[l]) return l;
        return levels;
      };
      kinds[i].clear();
      for (std::int64_t o = 0; o < e; ++o) {
        const Sides k{level_of(o, -1), level_of(o, +1)};
        if (std::find(kinds[i].begin(), kinds[i].end(), k) == kinds[i].end()) kinds[i].push_back(k);
      }
    }
    std::fill(pick.begin(), pick.end(), 0);
    for (;;) {
      std::fill(counts.begin(), counts.end(), 0);
      for (const auto& t : problem.terms) {
        int level = levels; // the first level at which the receiver lies in another unit
        for (int i = 0; i < D && level >= 0; ++i) {
          if (!(t.crossed & (1u << i))) continue;
          const Sides& k = kinds[i][pick[i]];
          const int side = (t.plus >> i) & 1u ? k.second : k.first;
          level = side < 0 ? -1 : std::min(level, side);
        }
        if (level >= 0 && level < levels) ++counts[level];
      }
      for (int l = 0; l < levels; ++l)
        out.most[l] = std::max(out.most[l], counts[l]);
      int i = D - 1;
      while (i >= 0 && ++pick[i] == kinds[i].size())
        pick[i--] = 0;
      if (i < 0) break;
    }
  }
  return out;
}

} // namespace hcart::impl
