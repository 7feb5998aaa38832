// The node-region programme: the boxes the cuts reach (visit), the stages over them and what
// survives each, and the first surviving partition (RegionProgramme.hpp says why it is exact).
#include "mapping/search/RegionProgramme.hpp"

#include <hcart/mapping/Blocks.hpp>

#include <numeric>

namespace hcart::impl::regions {

RegionProgramme::RegionProgramme(const SearchContext& context, std::vector<std::int64_t> dims,
                                 std::int64_t budget, double limit, ProgrammeStore& store)
    : m_context(context), m_dims(std::move(dims)), m_budget(budget), m_limit(limit),
      m_index(store.index), m_boxes(store.boxes), m_bounds(store.bounds), m_cuts(store.cuts),
      m_cut_ok(store.cut_ok), m_order(store.order), m_values(store.values) {
  store.clear();
  const int D = context.dims();
  // Kinds of node as digits of base (count + 1); every cut's slab holds a multiple of the
  // kinds' common divisor of ranks.
  m_codes = 1;
  m_rank_gcd = 0;
  for (const auto& k : context.node_classes) {
    m_radix.push_back(m_codes);
    m_codes *= static_cast<std::int64_t>(k.nodes.size()) + 1;
    m_rank_gcd = std::gcd(m_rank_gcd, k.ranks);
  }
  // Keys: (lo_i, hi_i) as digits of base d_i + 1, then the kinds, when it fits 64 bits.
  double room = static_cast<double>(m_codes);
  for (std::int64_t x : m_dims)
    room *= static_cast<double>(x + 1) * static_cast<double>(x + 1);
  m_narrow_keys = room < 1.8e19;
  double option_room = static_cast<double>(context.node_classes.size());
  for (std::int64_t x : m_dims)
    option_room *= 2.0 * static_cast<double>(x + 1) * static_cast<double>(x + 1);
  m_option_keys = option_room < 1.8e19;
  // Scratch per recursion depth (both halves of a cut hold fewer nodes than the box).
  std::size_t depth = 2;
  for (const auto& k : context.node_classes)
    depth += k.nodes.size();
  m_scratch.resize(depth);
  for (auto& s : m_scratch)
    s.mid.resize(2 * static_cast<std::size_t>(D));
  m_spans.resize(D);
  const std::vector<std::int64_t> lo(D, 0);
  m_root = visit(lo.data(), m_dims.data(), m_codes - 1, 0);
}

double RegionProgramme::stage(int level, bool busiest) {
  m_values.resize(m_boxes.size());
  for (int b : m_order) {
    Box& box = m_boxes[b];
    double v = infinite;
    if (box.leaf) {
      if (box.ok) {
        if (level == 0) {
          v = box.node_cost;
        } else {
          const std::size_t count = options(b).size();
          for (std::size_t k = 0; k < count; ++k) {
            if (!m_option_ok[box.option_ok + k]) continue;
            const LevelCost& c = option_cost(box.options, k, level);
            v = std::min(v, busiest ? c.busiest : c.total);
          }
        }
      }
    } else {
      for (std::int32_t k = box.cut_begin; k < box.cut_end; ++k) {
        if (!m_cut_ok[k]) continue;
        const double a = m_values[m_cuts[k].first];
        const double b2 = m_values[m_cuts[k].second];
        v = std::min(v, busiest ? std::max(a, b2) : a + b2);
      }
      if (box.shared >= 0) {
        for (auto& o : m_shared[box.shared]) {
          if (!o.ok) continue;
          if (level > 0) inner_costs(box, o);
          v = std::min(v, busiest ? o.costs[level].busiest : o.costs[level].total);
        }
      }
    }
    m_values[b] = v;
  }
  return m_values[m_root];
}

void RegionProgramme::keep_optimal(int level, bool busiest, double optimum) {
  for (int b : m_order) {
    Box& box = m_boxes[b];
    if (box.leaf) {
      if (!box.ok) continue;
      if (level == 0) {
        box.ok = busiest ? within(box.node_cost, optimum) : within(box.node_cost, m_values[b]);
        continue;
      }
      bool any = false;
      const std::size_t count = m_option_sets[box.options].options.size();
      for (std::size_t k = 0; k < count; ++k) {
        char& ok = m_option_ok[box.option_ok + k];
        if (!ok) continue;
        const LevelCost& c = option_cost(box.options, k, level);
        ok = busiest ? within(c.busiest, optimum) : within(c.total, m_values[b]);
        any = any || ok;
      }
      box.ok = any;
    } else {
      for (std::int32_t k = box.cut_begin; k < box.cut_end; ++k) {
        if (!m_cut_ok[k]) continue;
        const double a = m_values[m_cuts[k].first];
        const double b2 = m_values[m_cuts[k].second];
        m_cut_ok[k] =
            busiest ? (within(a, optimum) && within(b2, optimum)) : within(a + b2, m_values[b]);
      }
      if (box.shared >= 0) {
        for (auto& o : m_shared[box.shared]) {
          if (!o.ok) continue;
          o.ok = busiest ? within(o.costs[level].busiest, optimum)
                         : within(o.costs[level].total, m_values[b]);
        }
      }
    }
  }
}

void RegionProgramme::collect(std::vector<NodeRegion>& regions) {
  regions.assign(m_context.level_sizes[0], {});
  std::vector<std::size_t> next(m_context.node_classes.size(), 0);
  collect(m_root, regions, next);
}

NodeRegion RegionProgramme::region_of(const Box& box) const {
  NodeRegion r;
  const int D = m_context.dims();
  r.origin.assign(lo(box), lo(box) + D);
  r.extent.resize(D);
  for (int i = 0; i < D; ++i)
    r.extent[i] = hi(box)[i] - lo(box)[i];
  return r;
}

void RegionProgramme::collect(int b, std::vector<NodeRegion>& regions,
                              std::vector<std::size_t>& next) {
  const Box& box = m_boxes[b];
  if (box.leaf) {
    NodeRegion r = region_of(box);
    const std::vector<LeafOption>& set = options(b);
    for (std::size_t k = 0; k < set.size(); ++k) {
      if (m_option_ok[box.option_ok + k]) {
        r.level_factors = set[k].factors;
        break;
      }
    }
    regions[m_context.node_classes[box.kind].nodes[next[box.kind]++]] = std::move(r);
    return;
  }
  for (std::int32_t k = box.cut_begin; k < box.cut_end; ++k) {
    if (!m_cut_ok[k]) continue;
    const auto [first, second] = m_cuts[k];
    collect(first, regions, next);
    collect(second, regions, next);
    return;
  }
  if (box.shared < 0) return;
  for (const auto& o : m_shared[box.shared]) {
    if (!o.ok) continue;
    std::int64_t offset = 0;
    for (int kind : o.order) {
      NodeRegion r = region_of(box);
      r.run_axes = o.axes;
      r.run_offset = offset;
      offset += m_context.node_classes[kind].ranks;
      regions[m_context.node_classes[kind].nodes[next[kind]++]] = std::move(r);
    }
    return;
  }
}

int RegionProgramme::find(const std::int64_t* lo, const std::int64_t* hi, std::int64_t kinds,
                          std::size_t& slot, std::uint64_t& key, std::vector<std::int64_t>& wide) {
  const std::size_t D = m_dims.size();
  if (m_narrow_keys) {
    key = static_cast<std::uint64_t>(kinds);
    for (std::size_t i = 0; i < D; ++i) {
      const auto base = static_cast<std::uint64_t>(m_dims[i] + 1);
      key = (key * base + static_cast<std::uint64_t>(lo[i])) * base +
            static_cast<std::uint64_t>(hi[i]);
    }
    bool found = false;
    slot = m_index.slot(key, found);
    return found ? m_index.id(slot) : -1;
  }
  wide.assign(lo, lo + D);
  wide.insert(wide.end(), hi, hi + D);
  wide.push_back(kinds);
  const auto found = m_wide_index.find(wide);
  return found == m_wide_index.end() ? -1 : found->second;
}

void RegionProgramme::splits(std::int64_t kinds, std::size_t k, std::int64_t taken,
                             std::int64_t volume, std::vector<std::int64_t>& out) const {
  const auto& classes = m_context.node_classes;
  if (k + 1 == classes.size()) {
    const std::int64_t ranks = classes[k].ranks;
    if (volume % ranks != 0 || volume / ranks > count_of(kinds, k)) return;
    const std::int64_t code = taken + volume / ranks * m_radix[k];
    if (code != 0 && code != kinds) out.push_back(code);
    return;
  }
  for (std::int64_t n = 0; n <= count_of(kinds, k) && n * classes[k].ranks <= volume; ++n)
    splits(kinds, k + 1, taken + n * m_radix[k], volume - n * classes[k].ranks, out);
}

int RegionProgramme::visit(const std::int64_t* lo, const std::int64_t* hi, std::int64_t kinds,
                           std::size_t depth) {
  const int D = m_context.dims();
  std::size_t slot = 0;
  std::uint64_t key = 0;
  Scratch& scratch = m_scratch[depth];
  if (const int known = find(lo, hi, kinds, slot, key, m_wide); known >= 0) return known;
  if (static_cast<std::int64_t>(m_boxes.size()) >= m_budget) {
    m_over_budget = true;
    return -1;
  }
  const int id = static_cast<int>(m_boxes.size());
  if (m_narrow_keys) {
    m_index.insert(slot, key, id);
  } else {
    m_wide_index.emplace(m_wide, id);
  }
  std::int64_t volume = 1;
  for (int i = 0; i < D; ++i)
    volume *= hi[i] - lo[i];
  {
    Box box;
    box.kinds = kinds;
    box.bounds = static_cast<std::int64_t>(m_bounds.size());
    m_bounds.resize(m_bounds.size() + 2 * static_cast<std::size_t>(D));
    std::copy(lo, lo + D, m_bounds.begin() + box.bounds);
    std::copy(hi, hi + D, m_bounds.begin() + box.bounds + D);
    for (std::size_t k = 0; k < m_radix.size(); ++k) {
      if (kinds == m_radix[k]) {
        box.leaf = true;
        box.kind = static_cast<int>(k);
      }
    }
    m_boxes.push_back(box);
  }
  // What the box's nodes send to nodes outside it: a leaf's node cost; a box of k nodes
  // has a node that sends at least a k-th of it (the busiest carries at least the mean),
  // so past k times the limit no partition of the box can be chosen.
  for (int i = 0; i < D; ++i) {
    m_spans[i] = span_of(m_context.problem.cells[i], m_dims[i], m_context.problem.periodic[i],
                         lo[i], hi[i], 0, m_dims[i]);
  }
  const double outside = unit_cost(m_context.problem, m_spans.data());
  if (m_boxes[id].leaf) {
    m_boxes[id].node_cost = outside;
    m_boxes[id].ok = !past_limit(outside);
  } else if (past_limit(outside / static_cast<double>(nodes_in(kinds)))) {
    // Dropped: no cuts, no shared runs, so its value is +infinity at every stage.
  } else {
    // Every cut: a slab of p planes holds whole nodes only where p * slab is a multiple of
    // the kinds' common divisor of ranks, so p steps by the least such p.
    std::int64_t* mid_hi = scratch.mid.data();
    std::int64_t* mid_lo = mid_hi + D;
    scratch.cuts.clear();
    for (int i = 0; i < D && !m_over_budget; ++i) {
      const std::int64_t extent = hi[i] - lo[i], slab = volume / extent;
      const std::int64_t step = m_rank_gcd / std::gcd(slab, m_rank_gcd);
      std::copy(hi, hi + D, mid_hi);
      std::copy(lo, lo + D, mid_lo);
      for (std::int64_t p = step; p < extent && !m_over_budget; p += step) {
        std::int64_t* codes = nullptr;
        std::size_t count = 0;
        std::int64_t one = 0;
        if (m_radix.size() == 1) { // one kind: p * slab ranks are p * slab / ranks nodes
          one = p * slab / m_rank_gcd;
          codes = &one;
          count = 1;
        } else {
          scratch.codes.clear();
          splits(kinds, 0, 0, p * slab, scratch.codes);
          codes = scratch.codes.data();
          count = scratch.codes.size();
        }
        mid_hi[i] = lo[i] + p;
        mid_lo[i] = lo[i] + p;
        for (std::size_t c = 0; c < count; ++c) {
          const std::int64_t code = codes[c];
          const int first = visit(lo, mid_hi, code, depth + 1);
          const int second = first < 0 ? -1 : visit(mid_lo, hi, kinds - code, depth + 1);
          if (first < 0 || second < 0) break;
          scratch.cuts.emplace_back(first, second);
        }
      }
    }
    Box& box = m_boxes[id];
    box.cut_begin = static_cast<std::int32_t>(m_cuts.size());
    m_cuts.insert(m_cuts.end(), scratch.cuts.begin(), scratch.cuts.end());
    box.cut_end = static_cast<std::int32_t>(m_cuts.size());
    m_cut_ok.resize(m_cuts.size(), 1);
    make_shared(id, volume);
  }
  m_order.push_back(id); // children before parents
  return id;
}

} // namespace hcart::impl::regions
