// The node-region programme's leaves: a leaf's options (every chain of finer-level grids of
// its box, or its node's ranks as a row-major run), made on first use and shared by leaves
// alike, their costs counted level by level as the stages ask; and several nodes sharing a
// box as runs (uneven machines).
#include "mapping/search/RegionProgramme.hpp"

#include <algorithm>
#include <functional>

namespace hcart::impl::regions {

const std::vector<LeafOption>& RegionProgramme::options(int b) {
  Box& box = m_boxes[b];
  if (box.options < 0) {
    std::uint64_t key = 0;
    const bool shared = option_key(box, key);
    const auto known = shared ? m_option_memo.find(key) : m_option_memo.end();
    if (known != m_option_memo.end()) {
      box.options = known->second;
    } else {
      box.options = static_cast<std::int32_t>(m_option_sets.size());
      m_option_sets.push_back(make_options(box));
      if (shared) m_option_memo.emplace(key, box.options);
    }
    box.option_ok = static_cast<std::int32_t>(m_option_ok.size());
    m_option_ok.resize(m_option_ok.size() + m_option_sets[box.options].options.size(), 1);
  }
  return m_option_sets[box.options].options;
}

const LevelCost& RegionProgramme::option_cost(int set, std::size_t k, int level) {
  OptionSet& options = m_option_sets[set];
  LeafOption& o = options.options[k];
  const int D = m_context.dims();
  while (static_cast<int>(o.costs.size()) < level) {
    const int l = static_cast<int>(o.costs.size()) + 1; // the level to count
    GridLevel& g = m_level;                             // scratch: its vectors keep their room
    g.coords = m_dims;
    g.frame_lo = options.frame_lo;
    g.frame_hi = options.frame_hi;
    g.parent_groups.assign(D, 1);
    for (int f = 0; f + 1 < l; ++f)
      for (int i = 0; i < D; ++i)
        g.parent_groups[i] *= o.factors[f][i];
    g.groups = g.parent_groups;
    for (int i = 0; i < D; ++i)
      g.groups[i] *= o.factors[l - 1][i];
    LevelCost c = grid_level_cost(m_context.problem, g);
    c.name = m_context.level_names[l];
    o.costs.push_back(std::move(c));
  }
  return o.costs[level - 1];
}

bool RegionProgramme::option_key(const Box& box, std::uint64_t& key) const {
  if (!m_context.even || !m_option_keys) return false;
  key = static_cast<std::uint64_t>(box.kind);
  for (int i = 0; i < m_context.dims(); ++i) {
    const std::int64_t d = m_dims[i], l = lo(box)[i], h = hi(box)[i];
    const std::int64_t extra = m_context.problem.cells[i] % d;
    const std::int64_t split = std::clamp<std::int64_t>(extra - l, 0, h - l);
    const std::int64_t ends = m_context.problem.periodic[i] && l == 0 && h == d ? 1 : 0;
    const auto base = static_cast<std::uint64_t>(d + 1);
    key = ((key * base + static_cast<std::uint64_t>(h - l)) * base +
           static_cast<std::uint64_t>(split)) *
              2 +
          static_cast<std::uint64_t>(ends);
  }
  return true;
}

OptionSet RegionProgramme::make_options(const Box& box) const {
  const int D = m_context.dims(), L = m_context.levels();
  OptionSet set;
  set.frame_lo.assign(lo(box), lo(box) + D);
  set.frame_hi.assign(hi(box), hi(box) + D);
  std::vector<LeafOption>& out = set.options;
  std::vector<std::int64_t> extent(D);
  for (int i = 0; i < D; ++i)
    extent[i] = hi(box)[i] - lo(box)[i];
  const NodeClass& kind = m_context.node_classes[box.kind];
  // On an uneven machine every node may also hold its ranks as a row-major run, after its
  // level grids (so that the plan is never worse than world order within a node box).
  if (kind.inner_sizes.empty()) {
    out.push_back(run_option(box));
    return set;
  }
  // Every chain of level factors for levels 1 .. L-1 whose product is the extent (their
  // costs counted when asked: option_cost).
  std::vector<std::vector<std::int64_t>> chain;
  std::function<void(int, std::vector<std::int64_t>)> walk = [&](int l,
                                                                 std::vector<std::int64_t> rest) {
    if (l == L - 1) {
      chain.push_back(rest);
      out.push_back({chain, {}});
      chain.pop_back();
      return;
    }
    for (const auto& f : ordered_factorizations(kind.inner_sizes[l - 1], rest, rest)) {
      std::vector<std::int64_t> next(D);
      for (int i = 0; i < D; ++i)
        next[i] = rest[i] / f[i];
      chain.push_back(f);
      walk(l + 1, next);
      chain.pop_back();
    }
  };
  walk(1, extent);
  if (!m_context.even) out.push_back(run_option(box));
  return set;
}

LeafOption RegionProgramme::run_option(const Box& box) const {
  LeafOption o;
  const int D = m_context.dims();
  const std::vector<LevelCost> costs =
      runs_cost(m_context, m_dims, {lo(box), lo(box) + D}, {hi(box), hi(box) + D}, {box.kind}, {});
  o.costs.assign(costs.begin() + 1, costs.end());
  return o;
}

void RegionProgramme::inner_costs(const Box& box, SharedOption& o) const {
  if (o.inner_counted) return;
  const int D = m_context.dims();
  o.costs =
      runs_cost(m_context, m_dims, {lo(box), lo(box) + D}, {hi(box), hi(box) + D}, o.order, o.axes);
  o.inner_counted = true;
}

void RegionProgramme::make_shared(int b, std::int64_t volume) {
  if (m_context.even || volume > shared_max_volume) return;
  const Box& box = m_boxes[b];
  const int D = m_context.dims();
  std::vector<int> kinds;
  for (std::size_t k = 0; k < m_radix.size(); ++k)
    for (std::int64_t n = 0; n < count_of(box.kinds, k); ++n)
      kinds.push_back(static_cast<int>(k));
  if (kinds.size() < 2 || kinds.size() > shared_max_nodes) return;
  if (std::all_of(kinds.begin(), kinds.end(), [&](int k) { return k == kinds[0]; })) return;
  const std::vector<std::int64_t> box_lo(lo(box), lo(box) + D), box_hi(hi(box), hi(box) + D);
  std::vector<int> cut; // directions the box spans more than one coordinate of
  for (int i = 0; i < D; ++i)
    if (box_hi[i] - box_lo[i] > 1) cut.push_back(i);
  std::vector<SharedOption> shared;
  std::sort(kinds.begin(), kinds.end());
  do {
    std::vector<int> axes = cut;
    do {
      std::vector<int> full = axes;
      for (int i = 0; i < D; ++i)
        if (box_hi[i] - box_lo[i] == 1) full.push_back(i);
      SharedOption o;
      o.order = kinds;
      o.axes = full;
      o.costs = runs_cost(m_context, m_dims, box_lo, box_hi, kinds, full,
                          false); // the finer levels when needed
      shared.push_back(std::move(o));
    } while (std::next_permutation(axes.begin(), axes.end()));
  } while (std::next_permutation(kinds.begin(), kinds.end()));
  m_boxes[b].shared = static_cast<std::int32_t>(m_shared.size());
  m_shared.push_back(std::move(shared));
}

} // namespace hcart::impl::regions
