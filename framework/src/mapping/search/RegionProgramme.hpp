// The node-region programme (internal, search/): the node-region space of the exact search: every
// guillotine partition of a process grid into node boxes (recursive axis-aligned cuts, every piece
// holding whole nodes), each box cut into the finer levels by a level grid of its own, or, on a
// node that is uneven inside, holding the node's ranks as a row-major run.
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
//
// The programme is this class (RegionProgramme.cpp: the boxes it visits, the stages and what
// survives them); the leaves' options, counted on first use and shared by leaves alike, and
// the shared runs are in RegionLeaves.cpp; the store and index of boxes in RegionBoxes.hpp;
// the lower bounds and mirror images that order and prune the grids in RegionBounds.hpp; the
// closed-form message count in RegionMessages.cpp; the driver over the grids in
// RegionSearch.cpp.
#pragma once

#include "mapping/FactorSearch.hpp"
#include "mapping/PlanSearch.hpp"
#include "mapping/search/RegionBoxes.hpp"

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace hcart::impl::regions {

class RegionProgramme {
public:
  // `limit`: the most the busiest node may cost (the chooser's node_cost_limit): a box whose
  // nodes must send more than that, on average, to the nodes outside it is dropped uncut.
  RegionProgramme(const SearchContext& context, std::vector<std::int64_t> dims, std::int64_t budget,
                  double limit, ProgrammeStore& store);

  bool complete() const { return !m_over_budget; }
  std::int64_t boxes() const { return static_cast<std::int64_t>(m_boxes.size()); }

  // Stage (level, busiest or total): the boxes' values and the optimum at the root.
  double stage(int level, bool busiest);

  // Strikes out what cannot be part of an optimal partition after a stage.
  void keep_optimal(int level, bool busiest, double optimum);

  // The first surviving partition: node u's box in regions[u], the nodes of a kind taking
  // its leaves in depth-first order.
  void collect(std::vector<NodeRegion>& regions);

private:
  struct Scratch {
    std::vector<std::int64_t> mid; // the cut's first half's hi, then the second's lo
    std::vector<std::int64_t> codes;
    std::vector<std::pair<int, int>> cuts;
  };

  const std::int64_t* lo(const Box& box) const { return &m_bounds[box.bounds]; }
  const std::int64_t* hi(const Box& box) const { return &m_bounds[box.bounds + m_context.dims()]; }

  NodeRegion region_of(const Box& box) const;

  void collect(int b, std::vector<NodeRegion>& regions, std::vector<std::size_t>& next);

  // The box's number, or -1 (then `slot` or, for wide keys, `wide` says where it goes).
  int find(const std::int64_t* lo, const std::int64_t* hi, std::int64_t kinds, std::size_t& slot,
           std::uint64_t& key, std::vector<std::int64_t>& wide);

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
              std::vector<std::int64_t>& out) const;

  int visit(const std::int64_t* lo, const std::int64_t* hi, std::int64_t kinds, std::size_t depth);

  // A leaf's options (made on first use; leaves alike share them, each its own flags).
  const std::vector<LeafOption>& options(int b);

  // Option k's cost at `level` of option set `set`, counted on first use (an option struck
  // out at a coarser level is never counted at the finer ones).
  const LevelCost& option_cost(int set, std::size_t k, int level);

  // Leaves whose options cost the same, named by one number: per direction, the box's
  // length, where in it the blocks of one cell more end (the first cells % d coordinates
  // own one more; clamped to the box), and whether it is the whole of a periodic direction
  // (its own neighbour across the wrap). The finer levels count only messages between units
  // inside the box, so nothing else of where it lies changes their costs. False on an
  // uneven machine (a run's cost depends on the nodes' ranks) or past 64 bits.
  bool option_key(const Box& box, std::uint64_t& key) const;

  OptionSet make_options(const Box& box) const;

  // A node that is uneven inside: its ranks in block order as a row-major run of its box,
  // every message inside the box counted.
  LeafOption run_option(const Box& box) const;

  void inner_costs(const Box& box, SharedOption& o) const;

  // A box of 2 or 3 nodes of more than one kind (an uneven machine) may also hold them as
  // consecutive runs of one of its row-major orders (shapes no guillotine cut makes: an L, a
  // staircase): every order of the nodes, every order of the directions. (Nodes of one kind
  // gain little from it on the measured cases, and it costs the most time.)
  void make_shared(int b, std::int64_t volume);

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

} // namespace hcart::impl::regions
