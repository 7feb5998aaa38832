// Internals of the exact search behind the Hierarchical and Manual strategies
// (docs/algorithms.md, 'The search' and 'One search, any chooser'): the spaces of plans,
// one driver that walks them for a chooser (the bottleneck objective, or the predicted time
// from a machine file), and the rule that orders plans of equal cost.
//
// "Node" here names a unit of level 0, the coarsest level (as in Machine's kinds of node):
// the hardware node, or a switch or group where network levels sit above the nodes
// (Machine::node_level() says which level holds those; docs/algorithms.md, "Levels above
// the node"). Node regions, node kinds and node costs are those units'.
#pragma once

#include "mapping/MessageWalk.hpp"
#include "mapping/UnitLoads.hpp"

#include <hcart/mapping/Blocks.hpp>
#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/TimeModel.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace hcart::impl {

/// Nodes of one kind: as many ranks, the same units inside (an even machine has one kind).
struct NodeClass {
  std::int64_t ranks = 0;          ///< ranks on each such node
  std::vector<std::int64_t> nodes; ///< their node indices, ascending
  /// The finer levels' sizes (levels 1 .. L-1) when every combination of them is a rank of
  /// the node (the node is even inside); empty otherwise.
  std::vector<std::int64_t> inner_sizes;
  /// The unit indices at levels 1 .. L-1 of the node's ranks in block order, L-1 per rank.
  std::vector<std::int64_t> inner_units;
};

/// \brief The kinds of node of `machine`, each with its nodes (node indices ascending, the
/// kinds in the order of their first node).
std::vector<NodeClass> node_classes(const Machine& machine);

/// Every block number's unit at every level, each named by its index prefix as a mixed-radix
/// number (node u, then u * N^(1) + its level-1 index, ...): on an even machine from the
/// block number alone, else from the machine's kinds of node, without a table of every rank.
class BlockUnits {
public:
  BlockUnits() = default;
  explicit BlockUnits(const Machine& machine);
  /// \brief Writes the L unit numbers of block b to out[0 .. L-1].
  void units(std::int64_t block, std::int64_t* out) const;

private:
  std::vector<std::int64_t> m_sizes;      ///< N^(l)
  std::vector<std::int64_t> m_below;      ///< even: ranks under one unit of level l
  std::vector<std::int64_t> m_node_first; ///< uneven: node u's first block, N + 1
  std::vector<const int*> m_node_units;   ///< uneven: node u's kind's rows, L-1 per rank
};

/// What every search needs: the load formulas, the machine's levels and the limits on dims.
struct SearchContext {
  LoadProblem problem;
  std::vector<std::int64_t> level_sizes; ///< N^(l), coarse first (the most units per parent)
  std::vector<std::string> level_names;
  std::int64_t ranks = 1;
  /// False when the machine is uneven: level grids do not apply, node regions take each
  /// node kind's ranks, and row-major runs follow block_units.
  bool even = true;
  /// The kinds of node (node regions; on an even machine one kind of ranks / N^(0) ranks).
  std::vector<NodeClass> node_classes;
  /// The units of every block number (row-major runs).
  BlockUnits block_units;
  /// Per direction: the most pieces it may be cut into (its fixed dim where fixed).
  std::vector<std::int64_t> caps;
  /// Per direction: 0 = free, > 0 = the dim must be exactly this.
  std::vector<std::int64_t> fixed;
  /// Per direction: 0 = any dim, > 0 = the dim must divide this (PlanOptions::equal_blocks:
  /// the mesh's cells). Empty: no constraint.
  std::vector<std::int64_t> divides;
  /// Node regions are searched for at most this many nodes, at least 3 on an even machine
  /// (PlanOptions::region_search_nodes).
  std::int64_t region_search_nodes = 64;

  int dims() const { return problem.dims; }
  int levels() const { return static_cast<int>(level_sizes.size()); }
  /// Per direction: the number every factor of a grid's dim must divide (its fixed dim, or
  /// with equal blocks its divisor; 0: any), for ordered_factorizations.
  std::vector<std::int64_t> grid_divisors() const;
  /// True when `d` respects the caps, the fixed dims and the divisors.
  bool admits(const std::vector<std::int64_t>& d) const;
};

/// \brief Every node's ranks, in node order (from context.node_classes).
std::vector<std::int64_t> ranks_per_node(const SearchContext& context);

/// \brief The cost per level (0 .. L-1: the busiest unit, the total) of the box [lo, hi) of
/// process grid `dims` whose nodes, of the kinds `order` (indices into
/// context.node_classes), take consecutive runs of its row-major order over the directions
/// `axes` (slowest first; empty: 0 .. D-1), each holding its ranks in block order. Level 0
/// counts what every node sends to other nodes; the finer levels only with `inner_levels`.
/// Counted message by message (NodeKinds.cpp).
std::vector<LevelCost> runs_cost(const SearchContext& context,
                                 const std::vector<std::int64_t>& dims,
                                 const std::vector<std::int64_t>& lo,
                                 const std::vector<std::int64_t>& hi, const std::vector<int>& order,
                                 std::vector<int> axes, bool inner_levels = true);

/// A plan as the searches produce it: a layout and its cost.
struct Candidate {
  PlanLayout layout = PlanLayout::LevelGrid;
  std::vector<std::int64_t> dims;
  std::vector<std::vector<std::int64_t>> level_factors; ///< LevelGrid
  std::vector<NodeRegion> regions;                      ///< NodeRegions
  std::vector<std::int64_t> block_cart;                 ///< Table: each block's Cartesian rank
  PlanCost cost;
  /// Per level, at most the most messages one rank sends across it (empty: not known), and
  /// whether exactly: with the costs in bytes the predicted time in closed form (Chooser).
  std::vector<std::int64_t> messages;
  bool messages_exact = false;
};

/// -1 when a comes first: lower cost; on a tie a level grid before node regions before
/// row-major runs, then the lexicographically larger dims, then the lexicographically larger
/// level factors (coarse first), so equal weights give non-increasing dims as
/// MPI_Dims_create does.
int compare_candidates(const Candidate& a, const Candidate& b);

/// The most boxes the node-region search may visit over all process grids of one search
/// (either chooser).
inline constexpr std::int64_t region_search_max_boxes = 20000;

/// Node regions are searched on uneven machines of at most this many kinds of node (a box
/// carries how many of each kind it holds, and a cut tries every way to share them).
inline constexpr std::size_t region_search_max_kinds = 4;

/// How far the searches went, for the plan's report and the tests.
struct SearchStats {
  std::int64_t grid_pairs = 0;      ///< (node grid, node box) pairs whose node cost was counted
  std::int64_t region_grids = 0;    ///< process grids whose node regions were searched
  std::int64_t region_boxes = 0;    ///< boxes visited by the region search
  bool regions_complete = true;     ///< false when the box budget stopped the region search
  std::int64_t run_grids = 0;       ///< process grids whose row-major runs were counted
  std::int64_t strip_grids = 0;     ///< process grids whose strips were counted
  std::int64_t stencil_strips = 0;  ///< stencil-strips placements counted
  std::int64_t partition_grids = 0; ///< process grids whose every partition was searched (not
                                    ///< those their bound or a mirror image spared)
};

/// \brief The plan a candidate describes, chosen by the objective (Plan.cpp).
Plan plan_of(const Candidate& c, Strategy strategy, const std::vector<double>& weights);

/// What the search compares plans by (docs/algorithms.md, "One search, any chooser"): the
/// bottleneck objective (ObjectiveChooser), or with a machine file the predicted exchange
/// time, the objective breaking ties (TimeChooser). Every space of the search hands it its
/// plans and asks it how far to go; the driver (search) and the spaces are the same for both,
/// but for the level grids, which each chooser walks its own way (walk_level_grids).
class Chooser {
public:
  virtual ~Chooser() = default;

  /// \brief A plan, its cost the objective's: kept when the chooser prefers it.
  virtual void offer(const Candidate& c) = 0;
  /// \brief A plan for the objective's record alone (by time: one the time search covers).
  virtual void note(const Candidate& c) = 0;
  /// \brief Decides the plans offered since the last call that are still undecided (by time:
  /// those left to count rank by rank).
  virtual void settle() {}
  /// \brief The level-grid space, walked as this chooser compares plans (search_level_grids).
  virtual void walk_level_grids(const SearchContext& context, SearchStats& stats) = 0;

  /// The load formulas in bytes that plans are also compared by (by time: the time is
  /// counted from them), or nullptr (the objective: its costs alone).
  virtual const LoadProblem* timed_bytes() const { return nullptr; }
  /// The plan a grid's partial plan must beat level by level, or nullptr (by time: every
  /// grid's own best reaches offer).
  virtual const Candidate* to_beat() const = 0;
  /// \brief True when no plan whose busiest node costs at least `node_cost` can be chosen.
  virtual bool hopeless(double node_cost) const = 0;
  /// \brief True when a plan whose busiest node costs `node_cost` can neither be chosen nor
  /// change what the chooser records (by time: the objective's best as well), so that a
  /// space may leave it uncounted.
  virtual bool passes_by(double node_cost) const = 0;
  /// \brief The most the busiest node of a plan may cost and still be chosen (+infinity
  /// when unknown). Costs past it are hopeless.
  virtual double node_cost_limit() const = 0;

  /// The chosen plan so far, or nullptr.
  const Candidate* best() const { return m_best ? &*m_best : nullptr; }
  /// The objective's best of every plan offered or noted, or nullptr.
  virtual const Candidate* objective_best() const = 0;

protected:
  std::optional<Candidate> m_best;
};

/// The bottleneck objective: a plan is chosen by its cost alone, the busiest unit of the
/// coarsest level first (compare_candidates).
class ObjectiveChooser final : public Chooser {
public:
  void offer(const Candidate& c) override { note(c); }
  void note(const Candidate& c) override;
  void walk_level_grids(const SearchContext& context, SearchStats& stats) override;
  /// The objective's best so far.
  const Candidate* to_beat() const override { return best(); }
  bool hopeless(double node_cost) const override;
  bool passes_by(double node_cost) const override { return hopeless(node_cost); }
  /// The objective's best busiest node so far.
  double node_cost_limit() const override;
  const Candidate* objective_best() const override { return best(); }
};

/// The predicted exchange time from a machine file (TimeModel.hpp), the objective breaking
/// ties: plans are timed in closed form where that is exact, else counted rank by rank
/// through the traffic model in the order of a lower bound of their time.
class TimeChooser final : public Chooser {
public:
  /// \brief The predicted time from `timings` of plans of `strategy` on `machine` for
  /// `costed` (the mesh with the objective's cost factors), their traffic counted with
  /// `traffic`; `bytes`: the load formulas without cost factors (the level grids' closed
  /// form); `closed_form`: every block is whole cells and holds some, so that the level
  /// grids are timed exactly in closed form and the bytes of the objective bound the time;
  /// `costs_are_bytes`: the objective's costs are bytes (no cost factors), so that a bound
  /// of the busiest node's cost bounds its bytes.
  TimeChooser(const MachineTimings& timings, const Machine& machine, Mesh costed,
              TrafficOptions traffic, Strategy strategy, std::vector<double> weights,
              LoadProblem bytes, bool closed_form, bool costs_are_bytes);

  /// \brief A plan that may beat the best is timed at once where its closed form is exact
  /// (node regions of one node a box, on an even machine), else counted rank by rank
  /// through the traffic model at the next settle(), in the order of a lower bound of its
  /// time.
  void offer(const Candidate& c) override;
  void note(const Candidate& c) override;
  /// \brief Counts the plans offered since the last call, the least lower bound of their
  /// time first, until that bound passes the best time (the rest cannot beat it).
  void settle() override;
  void walk_level_grids(const SearchContext& context, SearchStats& stats) override;
  const LoadProblem* timed_bytes() const override { return &m_bytes; }
  const Candidate* to_beat() const override { return nullptr; }
  /// \brief By the node level's time at those bytes alone, where the costs are bytes.
  bool hopeless(double node_cost) const override;
  /// \brief Hopeless, and its busiest node worse than the objective's best so far.
  bool passes_by(double node_cost) const override;
  /// \brief The most bytes whose node level alone is not slower than the best time.
  double node_cost_limit() const override;
  const Candidate* objective_best() const override {
    return m_objective_best ? &*m_objective_best : nullptr;
  }

  const MachineTimings& timings() const { return *m_timings; }
  bool closed_form() const { return m_closed_form; }
  /// \brief A plan timed already (the level grids' closed form), its cost the objective's.
  void offer(const Candidate& c, double seconds);
  /// \brief A plan to count at the next settle() with a lower bound `least` of its time
  /// known to the caller (its cost the objective's).
  void count_later(const Candidate& c, double least);
  /// \brief The time of a plan's levels at `bytes` (their busiest and total bytes) with
  /// `messages` per level (none where missing): a lower bound of its time where those are its
  /// bytes and at most its messages.
  double bytes_seconds(const PlanCost& bytes, const std::vector<std::int64_t>& messages = {}) const;
  /// The best time so far, +infinity before any (the level grids prune by it).
  double best_seconds() const;

private:
  /// A lower bound of the plan's time where its costs are bytes (0 otherwise): its bytes,
  /// with the latency of the messages the candidate knows per level (none where it knows
  /// none: more messages can only add).
  double least_seconds(const Candidate& c) const;
  /// The best time so far passed by `seconds`.
  bool beyond_best(double seconds) const;

  const MachineTimings* m_timings;
  const Machine* m_machine;
  Mesh m_costed;
  TrafficOptions m_traffic;
  Strategy m_strategy = Strategy::Hierarchical;
  std::vector<double> m_weights;
  LoadProblem m_bytes;
  bool m_closed_form = false;
  bool m_costs_are_bytes = false;
  const LevelTiming* m_node_timing = nullptr;
  double m_best_seconds = 0;
  std::optional<Candidate> m_objective_best;
  std::vector<std::pair<double, Candidate>> m_pending; ///< offered, not counted yet
};

/// \brief The search behind Hierarchical and Manual: every space in turn (level grids on an
/// even machine, node regions, row-major runs on `run_grids`, strips on `strip_grids`,
/// stencil strips on `strip_grids`, every partition of the strip grids on small
/// machines), each
/// handing its plans to `chooser`, which settles them after each space. A new space goes
/// here.
void search(const SearchContext& context, Chooser& chooser,
            const std::vector<std::vector<std::int64_t>>& run_grids,
            const std::vector<std::vector<std::int64_t>>& strip_grids, SearchStats& stats);

/// \brief The level-grid space: every ordered factorization of every level, within the
/// limits, in one walk for every chooser (GridSearch.cpp): for the objective exactly, a chain
/// left at the first level worse than the best so far; by time in closed form
/// (time_level_grids) where the chooser has one, else every grid (all_level_grids) bounded by
/// its bytes and counted in that order. The chooser's walk_level_grids calls the one for its
/// kind.
void search_level_grids(const SearchContext& context, ObjectiveChooser& chooser,
                        SearchStats& stats);
void search_level_grids(const SearchContext& context, TimeChooser& chooser, SearchStats& stats);

/// Every level grid on every admitted process grid, with its cost (a time search without
/// the closed form).
std::vector<Candidate> all_level_grids(const SearchContext& context);

/// The cost of one level grid (level factors coarse first).
PlanCost level_grid_cost(const SearchContext& context,
                         const std::vector<std::vector<std::int64_t>>& level_factors);

/// The level grids by predicted time (`timings`; context.problem in bytes, no cost factors):
/// calls timed(c, seconds) for every level grid whose time may be at or below bound() (the
/// best time so far, +infinity for none), c.cost in bytes. Node grids in the order of a lower
/// bound of the node level's time, and every level pruned as soon as the time so far
/// passes bound(); each level's time in closed form (grid_level_cost, level_grid_messages),
/// exact where every block is whole cells and holds some (GridSearch.cpp).
void time_level_grids(const SearchContext& context, const MachineTimings& timings,
                      const std::function<double()>& bound,
                      const std::function<void(const Candidate&, double)>& timed);

/// \brief The node-region space: every guillotine partition of a process grid into node
/// boxes, a box of each node's ranks, each box cut by its own level grid, or on a node that is
/// uneven inside by its ranks as a row-major run, over every admitted process grid. Not
/// searched when the machine has more than context.region_search_nodes nodes, fewer than 3
/// (an even machine: level grids cover those), more than region_search_max_kinds kinds of
/// node, or one level. The grids are taken in the order of their cheapest node box (a lower
/// bound of the busiest node) until the chooser finds that bound hopeless, within one box
/// budget (region_search_max_boxes, counted in `stats`); a grid is given up as soon as a
/// level of its best is worse than the chooser's to_beat(), else its best is offered.
void search_node_regions(const SearchContext& context, Chooser& chooser, SearchStats& stats);

/// The most messages one rank of node regions sends across each level.
struct RegionMessages {
  std::vector<std::int64_t> most; ///< per level 0 .. L-1
  bool exact = true;              ///< false: some boxes hold runs (left out: a lower bound)
};

/// \brief The most messages one rank of node regions `regions` of grid `dims` sends across
/// each of `levels` levels (the traffic model's max_rank_messages, where every block holds
/// cells): per direction the coordinates of a box fall in a few kinds by the unit
/// boundaries of its level grid they sit on, and the maximum is taken over the kinds'
/// combinations. Boxes whose ranks are runs are left out.
RegionMessages node_region_messages(const LoadProblem& problem,
                                    const std::vector<std::int64_t>& dims,
                                    const std::vector<NodeRegion>& regions, int levels);

/// \brief The row-major-run space on `grids` (the ones that are not level grids), each
/// counted rank by rank.
void search_row_major_runs(const SearchContext& context,
                           const std::vector<std::vector<std::int64_t>>& grids, Chooser& chooser,
                           SearchStats& stats);

/// \brief The strips space on `grids`: the nodes, in node order, take consecutive runs of
/// the whole grid in every order of the directions it cuts (StripsSearch.cpp), each counted
/// message by message. Not searched without node kinds (one level, or more nodes than
/// context.region_search_nodes) or beyond strips_max_ranks.
void search_strips(const SearchContext& context,
                   const std::vector<std::vector<std::int64_t>>& grids, Chooser& chooser,
                   SearchStats& stats);

/// \brief The stencil-strips space on `grids` (StripsSearch.cpp): the nodes, in node order,
/// take consecutive runs of a grid's positions in the order of stencil strips (von
/// Kirchbach, Schulz and Träff, 2020): for an order of the directions, each of the first D-1
/// cut into strips nested in the previous one's, the last walked layer by layer, each
/// layer's cells in row-major order, the strips snaking or not. Every count of strips where
/// the family's messages fit the grid's share of stencil_strips_budget, else the counts about
/// the heuristic's (strips as thick as a node's cube root). Each grid's best at the node
/// level is offered as a table. Not searched without node kinds or beyond strips_max_ranks.
void search_stencil_strips(const SearchContext& context,
                           const std::vector<std::vector<std::int64_t>>& grids, Chooser& chooser,
                           SearchStats& stats);

/// The stencil strips' family of a grid is searched whole while its placements times the
/// grid's messages stay within this many over the grids searched; else the heuristic's counts and
/// their neighbours, or the heuristic's alone, whichever fits (StripsSearch.cpp).
inline constexpr std::int64_t stencil_strips_budget = 500'000;

/// One message of a process grid's exchange, sender and receiver by row-major rank.
struct GridMessage {
  std::int64_t from, to;
  double cost;
};

/// \brief Every message of grid `dims` between two positions with a cost (for_each_grid_message).
std::vector<GridMessage> grid_messages(const SearchContext& context,
                                       const std::vector<std::int64_t>& dims);

/// \brief The table (PlanLayout::Table) of grid `dims` in which node u holds the positions q
/// with node[q] == u, its ranks in block order taking them in row-major order; its cost at
/// every level counted over `messages`.
Candidate table_candidate(const SearchContext& context, const std::vector<std::int64_t>& dims,
                          const std::vector<int>& node, const std::vector<GridMessage>& messages);

/// \brief The exhaustive space on `grids` (PartitionSearch.cpp): every assignment of a
/// grid's ranks to the nodes, by branch and bound on the node level against the best plan so
/// far; the best that beats it offered as a table (PlanLayout::Table). Only for the objective
/// (not by time), on machines of at most partitions_max_ranks ranks with node kinds.
void search_partitions(const SearchContext& context,
                       const std::vector<std::vector<std::int64_t>>& grids, Chooser& chooser,
                       SearchStats& stats);

/// Every partition is searched on machines of at most this many ranks.
inline constexpr std::int64_t partitions_max_ranks = 16;

/// Strips are counted on machines of at most this many ranks (each order of directions
/// costs a walk of every rank's messages).
inline constexpr std::int64_t strips_max_ranks = 4096;

/// \brief visit(from, to, cost) for every message of every process of grid `dims` at
/// context.problem's costs, sender and receiver named by their row-major rank, the senders
/// in row-major order (a periodic direction of one process gives from == to: the visitor
/// decides). The walk the row-major runs and the partitions count through.
template <class Visit>
void for_each_grid_message(const SearchContext& context, const std::vector<std::int64_t>& dims,
                           Visit&& visit) {
  const int D = context.dims();
  std::int64_t ranks = 1;
  for (const std::int64_t d : dims)
    ranks *= d;
  std::vector<std::int64_t> c(D), nb(D);
  const auto weight = [&](std::size_t k) { return context.problem.terms[k].weight; };
  const auto extent = [&](std::size_t i, std::int64_t x) {
    return block_extent(context.problem.cells[i], dims[i], x);
  };
  for (std::int64_t from = 0; from < ranks; ++from) {
    std::int64_t rest = from;
    for (int i = D; i-- > 0;) {
      c[i] = rest % dims[i];
      rest /= dims[i];
    }
    for_each_message(dims, context.problem.periodic, c.data(), context.problem.terms, weight,
                     extent, nb.data(),
                     [&](std::size_t, const std::int64_t* to_coords, double cost) {
                       std::int64_t to = 0;
                       for (int i = 0; i < D; ++i)
                         to = to * dims[i] + to_coords[i];
                       visit(from, to, cost);
                     });
  }
}

/// Row-major runs on `dims` (PlanLayout::RowMajorRuns), its cost counted rank by rank.
Candidate runs_candidate(const SearchContext& context, const std::vector<std::int64_t>& dims);

/// The seed paper's level-by-level factors (strategy levelwise; Levelwise.cpp).
/// `divides` (empty, or per direction 0 or a number the dim must divide): equal blocks.
/// \throws hcart::InputError when no split respects the bounds, fixed dims and divisors.
std::vector<std::vector<std::int64_t>>
levelwise_factors(const std::vector<double>& weights, const std::vector<std::int64_t>& bounds,
                  const std::vector<std::int64_t>& fixed, const Machine& machine,
                  const std::vector<std::int64_t>& divides = {});

/// \brief Row-major runs on `dims` as a level grid, when every unit's run is a box of the
/// grid; empty otherwise.
std::optional<std::vector<std::vector<std::int64_t>>>
runs_as_level_grid(const std::vector<std::int64_t>& dims,
                   const std::vector<std::int64_t>& level_sizes);

/// Row-major runs are counted rank by rank (where they are not a level grid, which the grid
/// search covers) for every admitted process grid up to this many ranks, and up to
/// runs_named_grids_max_ranks for the grids the options name and the weighted
/// factorization's.
inline constexpr std::int64_t runs_all_grids_max_ranks = 256;
inline constexpr std::int64_t runs_named_grids_max_ranks = 16384;

} // namespace hcart::impl
