// hcart::Plan: a process grid and where every rank goes on it (docs/algorithms.md).
//
// make_plan() plans the strategies that need no MPI:
//   Hierarchical  the exact optimum of the bottleneck objective (hcart/mapping/PlanCost.hpp)
//                 over every hierarchical mapping of the machine's levels onto a process grid,
//                 every guillotine partition of the grid into node boxes (small node
//                 counts), and row-major runs ('The search' in docs/algorithms.md); on an
//                 uneven machine (nodes holding different rank counts) over the node boxes
//                 of each node's size and row-major runs;
//   Manual        the same search for the user's dims;
//   Levelwise     the seed paper's rule (Niethammer and Rabenseifner, EuroMPI 2019): level
//                 by level, w^(l)_i = w_i * prod_{k<l} n^(k)_i and n^(l) =
//                 factorize(N^(l), w^(l)); one weighted factorization in world order on an
//                 uneven machine, as the paper falls back to;
//   Weighted      one weighted factorization, ranks in world order.
// A plan's layout says how a world rank finds its coordinate:
//   LevelGrid    mixed radix of the rank's level coordinates (its unit index at level l,
//                row-major on n^(l)), coarse level most significant;
//   NodeRegions  node u gets the box node_regions[u] of the process grid (as many process
//                coordinates as the node holds ranks), and the finer levels cut that box as
//                a LevelGrid of its own factors, or the node's ranks fill it as a row-major
//                run (a node uneven inside);
//   RowMajorRuns the rank's block number (Machine::block_number: the mixed radix of its unit
//                indices on an even machine) as its row-major rank: every unit holds a run of
//                consecutive row-major ranks, what world order gives a block launch, and the
//                same for any numbering of the ranks;
//   Table        the Cartesian rank of every block number, listed (block_cart_rank): a small
//                grid's best partition into nodes, which no box, run or strip need hold
//                (the exhaustive space of up to 16 ranks), or the nodes' runs through
//                stencil strips (up to 4096 ranks);
//   WorldOrder   the world rank's row-major coordinate.
//
//   auto machine = hcart::Machine::parse("node:8 socket:2 core:16");
//   hcart::Mesh mesh{{2048, 1024, 512}, {1, 1, 1}, {}, {}};
//   hcart::Plan plan = hcart::make_plan(mesh, machine, {});
//   plan.dims; plan.level_factors; plan.cost.levels[0].busiest;
//   plan.coords_of(37, machine);
//
// Pure C++: no MPI. The Mpi strategy needs MPI_Dims_create: hcart::plan_decomposition
// (grid/Planner.hpp) plans every strategy, that one included.
#pragma once

#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Mesh.hpp>
#include <hcart/mapping/PlanCost.hpp>
#include <hcart/mapping/Strategy.hpp>
#include <hcart/mapping/TimeModel.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace hcart {

/// \brief What to plan beyond the mesh and the machine.
struct PlanOptions {
  Strategy strategy = Strategy::Hierarchical;
  /// Per direction: 0 = free, > 0 = fixed (all > 0 for Manual). Empty = all free.
  std::vector<std::int64_t> dims;
  /// Communication weights to use instead of those derived from the mesh (empty = derive).
  /// The objective then weighs a face of direction i as if its cost factor were
  /// w_i / (h_i * prod_{j != i} g_j), so that a whole cut costs w_i.
  std::vector<double> weights;
  /// What an exchange sends: the objective counts edge and corner messages with corners.
  TrafficOptions traffic;
  /// Measured figures (hcart-machine --measure): the least predicted exchange time chooses
  /// among the search's candidates, the objective breaking ties.
  std::optional<MachineTimings> timings;
  /// Further process grids to consider as row-major runs (hcart::plan_decomposition adds
  /// MPI_Dims_create's, so that the default is never worse than the mpi strategy on a block
  /// launch).
  std::vector<std::vector<std::int64_t>> run_dims;
  /// Node regions (guillotine partitions) are searched on machines of at most this many
  /// nodes (an even machine: at least 3), within a budget of boxes (docs/algorithms.md,
  /// 'Where the search stops'); 0 leaves them out.
  std::int64_t region_search_nodes = 64;
  /// Only process grids whose dims divide the mesh (every direction's blocks of one size),
  /// for codes that require it; make_plan throws when no such grid of the ranks exists.
  bool equal_blocks = false;
};

/// \brief How a plan places ranks (see the file comment).
enum class PlanLayout { WorldOrder, LevelGrid, NodeRegions, RowMajorRuns, Table };

/// \brief "world order", "level grid", "node regions", "row-major runs" or "table".
std::string to_string(PlanLayout layout);

/// \brief The box of the process grid that one node holds (PlanLayout::NodeRegions).
struct NodeRegion {
  std::vector<std::int64_t> origin; ///< first process coordinate per direction
  std::vector<std::int64_t> extent; ///< process coordinates per direction
  /// The factors of the finer levels (1 .. L-1) inside the box; their product is extent.
  /// Empty where the node's ranks are placed as a run: in block order
  /// (Machine::block_number) they take positions run_offset, run_offset + 1, ... of the box's
  /// row-major order (a node uneven inside, or nodes sharing a box).
  std::vector<std::vector<std::int64_t>> level_factors;
  /// The row-major order's directions, slowest first (empty: 0, 1, ..., the last fastest).
  std::vector<int> run_axes;
  /// The node's first position in that order: several nodes may share one box as runs.
  std::int64_t run_offset = 0;
};

struct Plan {
  Strategy strategy = Strategy::Hierarchical;
  /// The process grid d.
  std::vector<std::int64_t> dims;
  PlanLayout layout = PlanLayout::LevelGrid;
  /// LevelGrid: per machine level, coarse first, the factors n^(l) (their product is dims).
  /// WorldOrder and RowMajorRuns: one entry, dims. NodeRegions: empty (see node_regions).
  std::vector<std::vector<std::int64_t>> level_factors;
  /// NodeRegions: the box of every node, by node unit index.
  std::vector<NodeRegion> node_regions;
  /// Table: the Cartesian rank of every block number (Machine::block_number).
  std::vector<std::int64_t> block_cart_rank;
  /// The communication weights (derived from the mesh or given).
  std::vector<double> weights;
  /// The objective this plan reaches (empty for plans that were not searched).
  PlanCost cost;
  /// Which rule chose the plan: "bottleneck objective", "predicted time (machine file)",
  /// "predicted time (machine file), also the bottleneck objective's choice", "seed rule
  /// (levelwise)", "seed rule (levelwise), one level: an uneven machine", "weighted
  /// factorization", "MPI_Dims_create", "given dims".
  std::string chosen_by;
  /// For searched plans, what the search covered: "level grids (N node grid and box pairs
  /// counted); node regions on G grids[, stopped at the box budget]; row-major runs on R
  /// grids".
  std::string searched;
  /// When not empty: the Cartesian rank of every world rank as MPI actually placed it
  /// (the Mpi strategy after MPI_Cart_create with reorder = 1); overrides the layout.
  std::vector<std::int64_t> measured_cart_rank;

  /// \brief True unless the ranks stay in world order.
  bool hierarchical_placement() const noexcept { return layout != PlanLayout::WorldOrder; }
  /// \brief Cartesian coordinates of a world rank.
  std::vector<std::int64_t> coords_of(std::int64_t world_rank, const Machine& machine) const;
  /// \brief Cartesian coordinates of the rank with block number `block`
  /// (Machine::block_number).
  std::vector<std::int64_t> coords_of_block(std::int64_t block, const Machine& machine) const;
  /// \brief Rank in the Cartesian communicator (row-major on dims) of a world rank.
  std::int64_t cart_rank_of(std::int64_t world_rank, const Machine& machine) const;
  /// \brief The world rank at Cartesian rank `cart_rank` (the inverse of cart_rank_of),
  /// found from the layout without a table of every rank (but for measured_cart_rank).
  std::int64_t world_rank_at(std::int64_t cart_rank, const Machine& machine) const;
  /// \brief "4x2x1 | 2x1x1 | 2x4x2", "(world order)", "(row-major runs)", "(a table of 12
  /// ranks)", or the node boxes
  /// "3 node boxes: 1x2x2 at 0,0,0; 2x1x2 at 1,0,0; ..." (grouped when many).
  std::string describe_layout() const;
};

/// \brief Plans for Weighted, Hierarchical, Levelwise or Manual.
/// \throws hcart::InputError for a machine whose rank count the mesh cannot hold (more
/// pieces than floor(g_i / max(h_i, 1)) in some direction), fixed dims that do not divide
/// the rank count or exceed their bound, Manual without all dims, or Strategy::Mpi.
Plan make_plan(const Mesh& mesh, const Machine& machine, const PlanOptions& options);

/// \brief A plan with the given dims and ranks in world order (the Mpi strategy's, from
/// MPI_Dims_create). \throws hcart::InputError when the dims do not multiply to the ranks.
Plan plan_from_dims(Strategy strategy, const std::vector<std::int64_t>& dims,
                    const Machine& machine);

/// \brief The cost factors the objective uses: the mesh's, or those that make a whole cut of
/// direction i cost weights[i] (0 where h_i = 0). \throws hcart::InputError for weights of
/// the wrong length or negative.
std::vector<double> objective_cost_factors(const Mesh& mesh, const std::vector<double>& weights);

/// \brief Row-major coordinates of `rank` on `dims` (last index fastest, as MPI_Cart_coords).
std::vector<std::int64_t> row_major_coords(std::int64_t rank,
                                           const std::vector<std::int64_t>& dims);
/// \brief Row-major rank of `coords` on `dims` (as MPI_Cart_rank).
std::int64_t row_major_rank(const std::vector<std::int64_t>& coords,
                            const std::vector<std::int64_t>& dims);

} // namespace hcart
