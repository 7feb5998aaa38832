// The node-region search's store of boxes (internal, search/): a box of the programme (a box
// of the process grid with how many nodes of each kind it holds, its cuts and, for a leaf,
// its options), the open-addressing index of boxes by their 64-bit key, the flat arrays the
// programmes of one search reuse grid after grid, and a leaf's options (its finer levels'
// grids, or a row-major run) and several nodes' shared runs. The speed machinery: what the
// programme's exactness does not depend on (RegionProgramme.hpp says what it does).
#pragma once

#include "mapping/PlanSearch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace hcart::impl::regions {

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
  void clear() {
    if (++m_generation == 0) { // after 2^32 clears: every slot dead again, from generation 1
      std::fill(m_slots.get(), m_slots.get() + m_mask + 1, Slot{0, 0, 0});
      m_generation = 1;
    }
  }
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

// What the programmes reuse, grid after grid and plan after plan (no allocation, no fresh
// pages): the index and the flat arrays of boxes, their coordinates and their cuts. One per
// thread (of_this_thread), kept for the thread's life, its room the whole box budget (about
// 5 MB reserved, written only as far as the programmes reach): on a virtual machine a fresh
// page costs microseconds to fault in, and a programme that runs to the budget writes a
// thousand of them (a fifth of a 64-node plan's time, docs/benchmarks.md); a thread pays
// them once. A search never plans inside itself, so one store per thread is never shared.
struct ProgrammeStore {
  static ProgrammeStore& of_this_thread(int dims) {
    thread_local std::unique_ptr<ProgrammeStore> store;
    if (!store || store->dims < dims)
      store = std::make_unique<ProgrammeStore>(region_search_max_boxes, dims);
    return *store;
  }
  // Room for `capacity` boxes from the start (untouched pages cost nothing; growing by
  // copies cost more than the programme on large grids).
  ProgrammeStore(std::int64_t capacity, int dims) : index(capacity), dims(dims) {
    const auto boxes_room = static_cast<std::size_t>(std::max<std::int64_t>(capacity, 0));
    boxes.reserve(boxes_room);
    bounds.reserve(2 * static_cast<std::size_t>(dims) * boxes_room);
    cuts.reserve(8 * boxes_room);
    cut_ok.reserve(8 * boxes_room);
    order.reserve(boxes_room);
  }
  BoxIndex index;
  int dims = 0; // the most directions its room was reserved for
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

} // namespace hcart::impl::regions
