// The node-region space of the exact search: every guillotine partition of a process grid
// into node boxes (recursive axis-aligned cuts, every piece holding whole nodes), each box
// cut into the finer levels by a level grid of its own, or, on a node that is uneven inside,
// holding the node's ranks as a row-major run.
//
// On an uneven machine the nodes come in kinds (node_classes: as many ranks, the same units
// inside); a box of the programme is then a box of the grid together with how many nodes of
// each kind it holds (its volume their ranks), and a leaf is a box of one node.
//
// A dynamic programme over the boxes the cuts can reach. The objective is lexicographic in
// (busiest, total) per level, and both parts decompose over the boxes of a partition:
//   busiest: the busiest node of a partition is the largest of its boxes' costs, so the best
//            value of a box is the smallest, over its cuts, of the larger of its two halves';
//            the optimal partitions are then exactly those whose every leaf stays within the
//            optimum: leaves and cuts beyond it are struck out;
//   total:   the total is the sum over the boxes, so a partition is optimal exactly when every
//            box in it takes a choice that reaches its own best sum: the others are struck out.
// Running the two stages for the node level and then for every finer level (each leaf's own
// level grids as its options) leaves exactly the partitions optimal for the whole objective;
// the first surviving choice, in a fixed order, is the plan.
#include "mapping/FactorSearch.hpp"
#include "mapping/PlanSearch.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Blocks.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <numeric>
#include <unordered_map>

namespace hcart::impl {

namespace {

constexpr double infinite = std::numeric_limits<double>::infinity();

// value <= optimum within the sums' tolerance (compare_level on one number, inline: the
// stages ask it for every cut of every box).
inline bool within(double value, double optimum) {
  if (value <= optimum) return !std::isinf(value);
  return !std::isinf(value) &&
         value <= optimum + sum_tolerance * std::max(std::fabs(value), std::fabs(optimum));
}

struct LeafOption {
  std::vector<std::vector<std::int64_t>> factors; // levels 1 .. L-1; empty: a row-major run
  std::vector<LevelCost> costs; // levels 1 .. L-1, as far as asked (a run's all at once)
};

// The options of the leaves alike (RegionProgramme::option_key): the box they were made
// for (the others cost the same) and each option's costs.
struct OptionSet {
  std::vector<std::int64_t> frame_lo, frame_hi;
  std::vector<LeafOption> options;
};

// Several nodes sharing a box as consecutive runs of one of its row-major orders.
struct SharedOption {
  std::vector<int> order;       // the nodes' kinds, in run order
  std::vector<int> axes;        // the row-major order's directions, slowest first
  std::vector<LevelCost> costs; // levels 0 .. L-1 over the box's nodes
  bool inner_counted = false;   // costs of levels 1 .. L-1 counted (inner_costs)
  bool ok = true;
};

// The largest boxes, in nodes and in ranks, whose nodes may share them (make_shared).
constexpr std::size_t shared_max_nodes = 3;
constexpr std::int64_t shared_max_volume = 512;

// A box of the programme, its coordinates and cuts in the programme's flat arrays.
struct Box {
  std::int64_t kinds = 0;                  // how many nodes of each kind, as a mixed-radix code
  std::int64_t bounds = 0;                 // lo at m_bounds[bounds], hi D entries later
  std::int32_t cut_begin = 0, cut_end = 0; // its cuts in m_cuts, m_cut_ok
  std::int32_t options = -1;   // leaves: their options in m_option_sets, once made (shared)
  std::int32_t option_ok = -1; // leaves: whether each option is still allowed, in m_option_ok
  std::int32_t shared = -1;    // several nodes as runs of the box (make_shared)
  int kind = 0;                // leaves: the node's kind
  bool leaf = false;
  bool ok = true;       // leaves: still allowed
  double node_cost = 0; // leaves: what the node sends to other nodes
};

// Boxes by their 64-bit key: open addressing, kept across the grids of one search (a slot
// is live only in the generation that wrote it, so a new grid clears nothing).
class BoxIndex {
public:
  explicit BoxIndex(std::int64_t capacity) {
    std::size_t slots = 64;
    while (static_cast<std::int64_t>(slots) < 2 * capacity)
      slots *= 2;
    // Zeroed by the system, page by page as the programme reaches them (generation 0 is
    // never live): no pass over the whole table.
    m_slots.reset(static_cast<Slot*>(std::calloc(slots, sizeof(Slot))));
    if (!m_slots) throw std::bad_alloc();
    m_mask = slots - 1;
    while ((std::size_t{1} << m_bits) < slots)
      ++m_bits;
  }
  void clear() { ++m_generation; }
  // The slot of `key`: its box when live (`found`), else where to insert it.
  std::size_t slot(std::uint64_t key, bool& found) const {
    std::size_t s = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - m_bits));
    while (m_slots[s].generation == m_generation) {
      if (m_slots[s].key == key) {
        found = true;
        return s;
      }
      s = (s + 1) & m_mask;
    }
    found = false;
    return s;
  }
  int id(std::size_t slot) const { return m_slots[slot].id; }
  void insert(std::size_t slot, std::uint64_t key, int id) {
    m_slots[slot] = Slot{key, id, m_generation};
  }

private:
  struct Slot {
    std::uint64_t key;
    int id;
    std::uint32_t generation;
  };
  struct Free {
    void operator()(Slot* p) const { std::free(p); }
  };
  std::unique_ptr<Slot[], Free> m_slots;
  std::uint32_t m_generation = 1;
  std::size_t m_mask = 0;
  int m_bits = 0;
};

// What the programmes of one search reuse, grid after grid (no allocation, no fresh pages
// per grid): the index and the flat arrays of boxes, their coordinates and their cuts.
struct ProgrammeStore {
  // Room for `capacity` boxes from the start (untouched pages cost nothing; growing by
  // copies cost more than the programme on large grids).
  ProgrammeStore(std::int64_t capacity, int dims) : index(capacity) {
    const auto boxes_room = static_cast<std::size_t>(std::max<std::int64_t>(capacity, 0));
    boxes.reserve(boxes_room);
    bounds.reserve(2 * static_cast<std::size_t>(dims) * boxes_room);
    cuts.reserve(8 * boxes_room);
    cut_ok.reserve(8 * boxes_room);
    order.reserve(boxes_room);
  }
  BoxIndex index;
  std::vector<Box> boxes;
  std::vector<std::int64_t> bounds; // every box's lo and hi
  std::vector<std::pair<int, int>> cuts;
  std::vector<char> cut_ok;
  std::vector<int> order; // children before parents
  std::vector<double> values;
  void clear() {
    index.clear();
    boxes.clear();
    bounds.clear();
    cuts.clear();
    cut_ok.clear();
    order.clear();
  }
};

class RegionProgramme {
public:
  // `limit`: the most the busiest node may cost (the chooser's node_cost_limit): a box whose
  // nodes must send more than that, on average, to the nodes outside it is dropped uncut.
  RegionProgramme(const SearchContext& context, std::vector<std::int64_t> dims, std::int64_t budget,
                  double limit, ProgrammeStore& store)
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

  bool complete() const { return !m_over_budget; }
  std::int64_t boxes() const { return static_cast<std::int64_t>(m_boxes.size()); }

  // Stage (level, busiest or total): the boxes' values and the optimum at the root.
  double stage(int level, bool busiest) {
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

  // Strikes out what cannot be part of an optimal partition after a stage.
  void keep_optimal(int level, bool busiest, double optimum) {
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

  // The first surviving partition: node u's box in regions[u], the nodes of a kind taking
  // its leaves in depth-first order.
  void collect(std::vector<NodeRegion>& regions) {
    regions.assign(m_context.level_sizes[0], {});
    std::vector<std::size_t> next(m_context.node_classes.size(), 0);
    collect(m_root, regions, next);
  }

private:
  struct Scratch {
    std::vector<std::int64_t> mid; // the cut's first half's hi, then the second's lo
    std::vector<std::int64_t> codes;
    std::vector<std::pair<int, int>> cuts;
  };

  const std::int64_t* lo(const Box& box) const { return &m_bounds[box.bounds]; }
  const std::int64_t* hi(const Box& box) const { return &m_bounds[box.bounds + m_context.dims()]; }

  NodeRegion region_of(const Box& box) const {
    NodeRegion r;
    const int D = m_context.dims();
    r.origin.assign(lo(box), lo(box) + D);
    r.extent.resize(D);
    for (int i = 0; i < D; ++i)
      r.extent[i] = hi(box)[i] - lo(box)[i];
    return r;
  }

  void collect(int b, std::vector<NodeRegion>& regions, std::vector<std::size_t>& next) {
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

  // The box's number, or -1 (then `slot` or, for wide keys, `wide` says where it goes).
  int find(const std::int64_t* lo, const std::int64_t* hi, std::int64_t kinds, std::size_t& slot,
           std::uint64_t& key, std::vector<std::int64_t>& wide) {
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

  bool past_limit(double cost) const {
    return !std::isinf(m_limit) && compare_sums(cost, m_limit) > 0;
  }

  std::int64_t nodes_in(std::int64_t kinds) const {
    std::int64_t n = 0;
    for (std::size_t k = 0; k < m_radix.size(); ++k)
      n += count_of(kinds, k);
    return n;
  }

  std::int64_t count_of(std::int64_t kinds, std::size_t k) const {
    return kinds / m_radix[k] %
           (static_cast<std::int64_t>(m_context.node_classes[k].nodes.size()) + 1);
  }

  // Every way to take nodes from `kinds` (k < K: chosen so far, `taken` their code) that
  // fills `volume` ranks and leaves some for the other half.
  void splits(std::int64_t kinds, std::size_t k, std::int64_t taken, std::int64_t volume,
              std::vector<std::int64_t>& out) const {
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

  int visit(const std::int64_t* lo, const std::int64_t* hi, std::int64_t kinds, std::size_t depth) {
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

  // A leaf's options (made on first use; leaves alike share them, each its own flags).
  const std::vector<LeafOption>& options(int b) {
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

  // Option k's cost at `level` of option set `set`, counted on first use (an option struck
  // out at a coarser level is never counted at the finer ones).
  const LevelCost& option_cost(int set, std::size_t k, int level) {
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

  // Leaves whose options cost the same, named by one number: per direction, the box's
  // length, where in it the blocks of one cell more end (the first cells % d coordinates
  // own one more; clamped to the box), and whether it is the whole of a periodic direction
  // (its own neighbour across the wrap). The finer levels count only messages between units
  // inside the box, so nothing else of where it lies changes their costs. False on an
  // uneven machine (a run's cost depends on the nodes' ranks) or past 64 bits.
  bool option_key(const Box& box, std::uint64_t& key) const {
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

  OptionSet make_options(const Box& box) const {
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

  // A node that is uneven inside: its ranks in block order as a row-major run of its box,
  // every message inside the box counted.
  LeafOption run_option(const Box& box) const {
    LeafOption o;
    const int D = m_context.dims();
    const std::vector<LevelCost> costs = runs_cost(m_context, m_dims, {lo(box), lo(box) + D},
                                                   {hi(box), hi(box) + D}, {box.kind}, {});
    o.costs.assign(costs.begin() + 1, costs.end());
    return o;
  }

  void inner_costs(const Box& box, SharedOption& o) const {
    if (o.inner_counted) return;
    const int D = m_context.dims();
    o.costs = runs_cost(m_context, m_dims, {lo(box), lo(box) + D}, {hi(box), hi(box) + D}, o.order,
                        o.axes);
    o.inner_counted = true;
  }

  // A box of 2 or 3 nodes of more than one kind (an uneven machine) may also hold them as
  // consecutive runs of one of its row-major orders (shapes no guillotine cut makes: an L, a
  // staircase): every order of the nodes, every order of the directions. (Nodes of one kind
  // gain little from it on the measured cases, and it costs the most time.)
  void make_shared(int b, std::int64_t volume) {
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

  const SearchContext& m_context;
  std::vector<std::int64_t> m_dims;
  std::int64_t m_budget = 0;
  double m_limit = infinite;
  BoxIndex& m_index;                 // boxes by key (when it fits 64 bits)
  std::int64_t m_codes = 1;          // kinds codes: prod of (nodes of a kind + 1)
  std::int64_t m_rank_gcd = 1;       // the kinds' common divisor of ranks per node
  std::vector<std::int64_t> m_radix; // the digit of each kind
  std::vector<Box>& m_boxes;
  std::vector<std::int64_t>& m_bounds; // every box's lo and hi
  std::vector<std::pair<int, int>>& m_cuts;
  std::vector<char>& m_cut_ok;
  std::vector<int>& m_order;     // children before parents
  std::vector<double>& m_values; // every box's value at the last stage (dense: the stages' reads)
  std::vector<OptionSet> m_option_sets;
  std::unordered_map<std::uint64_t, std::int32_t> m_option_memo; // option sets by option_key
  bool m_option_keys = true;
  std::vector<char> m_option_ok;
  std::vector<std::vector<SharedOption>> m_shared;
  std::map<std::vector<std::int64_t>, int> m_wide_index; // keys past 64 bits
  std::vector<std::int64_t> m_wide;
  bool m_narrow_keys = true;
  std::vector<Scratch> m_scratch;
  std::vector<Span> m_spans;
  GridLevel m_level; // option_cost's scratch
  int m_root = -1;
  bool m_over_budget = false;
};

double cheapest_box(const SearchContext& context, const std::vector<std::int64_t>& dims,
                    std::int64_t volume) {
  const int D = context.dims();
  double cheapest = infinite;
  std::vector<Span> spans(D);
  for (const auto& e : ordered_factorizations(volume, dims)) {
    // At the low corner: the messages come in pairs of opposite sides of equal weight, so
    // the other corners (as few neighbours, the same cells) cost the same.
    for (int i = 0; i < D; ++i) {
      spans[i] = span_of(context.problem.cells[i], dims[i], context.problem.periodic[i], 0, e[i], 0,
                         dims[i]);
      spans[i].cells = static_cast<double>(e[i] * (context.problem.cells[i] / dims[i]));
    }
    cheapest = std::min(cheapest, unit_cost(context.problem, spans.data()));
  }
  return cheapest;
}

// A lower bound of the busiest node of every partition of grid `dims` into node boxes: for
// every kind of node, the cheapest cost any box of its volume can have, counted with the
// fewest cells a box of its extent can own and placed against the boundary in every
// direction (the fewest neighbours), over every extent; the largest over the
// kinds (every kind has a node somewhere). +infinity when some kind fits no box.
double cheapest_node_box(const SearchContext& context, const std::vector<std::int64_t>& dims) {
  double bound = 0;
  for (const auto& kind : context.node_classes)
    bound = std::max(bound, cheapest_box(context, dims, kind.ranks));
  return bound;
}

// Per direction, the first direction it is alike with (itself if none before it): the same
// cells, wrap, cut limit, fixed dim and divisor, and every message's weight unchanged when
// the two directions swap, in the objective's costs and, for a chooser by time, in `bytes`
// too (cost factors can make directions of different bytes cost alike).
std::vector<int> alike_directions(const SearchContext& context, const LoadProblem* bytes) {
  const int D = context.dims();
  std::vector<int> alike(D);
  const auto swapped = [](std::uint32_t bits, int i, int j) {
    const std::uint32_t bi = (bits >> i) & 1u, bj = (bits >> j) & 1u;
    bits &= ~((1u << i) | (1u << j));
    return bits | (bi << j) | (bj << i);
  };
  const auto mirrored = [&](const LoadProblem& p, int i, int j) {
    if (p.cells[i] != p.cells[j] || p.periodic[i] != p.periodic[j]) return false;
    for (const auto& t : p.terms) {
      const std::uint32_t crossed = swapped(t.crossed, i, j), plus = swapped(t.plus, i, j);
      const bool found = std::any_of(p.terms.begin(), p.terms.end(), [&](const auto& u) {
        return u.crossed == crossed && u.plus == plus && u.weight == t.weight;
      });
      if (!found) return false;
    }
    return true;
  };
  const auto same = [&](int i, int j) {
    if (context.caps[i] != context.caps[j] || context.fixed[i] != context.fixed[j]) return false;
    if (!context.divides.empty() && context.divides[i] != context.divides[j]) return false;
    return mirrored(context.problem, i, j) && (bytes == nullptr || mirrored(*bytes, i, j));
  };
  for (int i = 0; i < D; ++i) {
    alike[i] = i;
    for (int j = 0; j < i; ++j) {
      if (alike[j] == j && same(i, j)) {
        alike[i] = j;
        break;
      }
    }
  }
  return alike;
}

} // namespace

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

void search_node_regions(const SearchContext& context, Chooser& chooser, SearchStats& stats) {
  const int L = context.levels();
  const std::int64_t nodes = context.level_sizes[0];
  if (L < 2 || nodes > context.region_search_nodes || (context.even && nodes < 3) ||
      context.node_classes.size() > region_search_max_kinds)
    return;
  const std::vector<std::vector<std::int64_t>> grids =
      ordered_factorizations(context.ranks, context.caps, context.grid_divisors());
  // The grids in the order of their cheapest node box (a lower bound on the busiest node),
  // so that the box budget goes to the most promising first and the search stops at the
  // first grid whose bound the chooser finds hopeless.
  // Directions alike (the same cells, wrap, limits and messages both ways) give grids that
  // are each other's mirror images: the same costs, of which the tie rule prefers the
  // largest dims. On an even machine (no runs, which follow one order of the directions)
  // only that one is searched: dims non-increasing over every class of alike directions.
  const std::vector<int> alike =
      context.even ? alike_directions(context, chooser.timings() ? &chooser.bytes() : nullptr)
                   : std::vector<int>{};
  const auto mirrored = [&](const std::vector<std::int64_t>& d) {
    for (std::size_t i = 0; i < alike.size(); ++i)
      for (std::size_t j = i + 1; j < alike.size(); ++j)
        if (alike[i] == alike[j] && d[i] < d[j]) return true;
    return false;
  };
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t i = 0; i < grids.size(); ++i)
    if (context.admits(grids[i]) && !mirrored(grids[i]))
      order.emplace_back(cheapest_node_box(context, grids[i]), i);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ProgrammeStore store(region_search_max_boxes - stats.region_boxes, context.dims());
  for (const auto& [bound, g] : order) {
    if (chooser.hopeless(bound)) break;
    const std::vector<std::int64_t>& d = grids[g];
    const std::int64_t budget = region_search_max_boxes - stats.region_boxes;
    RegionProgramme programme(context, d, budget, chooser.node_cost_limit(), store);
    stats.region_boxes += programme.boxes();
    if (!programme.complete()) {
      stats.regions_complete = false;
      break;
    }
    ++stats.region_grids;
    Candidate c;
    c.layout = PlanLayout::NodeRegions;
    c.dims = d;
    // Given up as soon as a level of this grid's best is worse than the chooser's to_beat.
    const Candidate* to_beat = chooser.to_beat();
    bool worse = false;
    for (int l = 0; l < L && !worse; ++l) {
      LevelCost level{context.level_names[l], 0, 0};
      level.busiest = programme.stage(l, true);
      if (std::isinf(level.busiest)) { // no partition of this grid holds the nodes
        worse = true;
        break;
      }
      if (l == 0 && chooser.hopeless(level.busiest)) { // its busiest node alone loses
        worse = true;
        break;
      }
      programme.keep_optimal(l, true, level.busiest);
      level.total = programme.stage(l, false);
      programme.keep_optimal(l, false, level.total);
      c.cost.levels.push_back(level);
      if (to_beat != nullptr) {
        PlanCost prefix;
        prefix.levels.assign(to_beat->cost.levels.begin(), to_beat->cost.levels.begin() + l + 1);
        const int verdict = compare(c.cost, prefix);
        worse = verdict > 0;
        if (verdict < 0) to_beat = nullptr; // better already: finish it
      }
    }
    if (worse) continue;
    programme.collect(c.regions);
    const RegionMessages messages = node_region_messages(context.problem, d, c.regions, L);
    c.messages = messages.most;
    c.messages_exact = messages.exact;
    chooser.offer(c);
  }
}

} // namespace hcart::impl
