// hcart::Decomposition: the process grid of a GridSpec on a communicator, and where every
// rank sits on it (docs/design.md, 'The flow of one run' and 'Strategies';
// docs/api-guide.md).
//
//   hcart::DecompositionOptions opts;          // Hierarchical, free dims, detected machine
//   hcart::Decomposition decomp(MPI_COMM_WORLD, spec, opts);
//   MPI_Comm cart = decomp.comm();             // reordered Cartesian communicator
//   auto dims = decomp.dims(), coords = decomp.coords();
//   auto factors = decomp.level_factors();     // per machine level, coarse first
//   int right = decomp.neighbour({1, 0, 0});   // MPI_PROC_NULL at a non-periodic boundary
//
// The machine is the synthetic one from the options, else $HCART_MACHINE, else detected.
// The plan comes from hcart::plan_decomposition (grid/Planner.hpp), as hcart-plan's does.
// Strategies: Mpi (MPI_Dims_create + MPI_Cart_create with reorder = 1, the baseline);
// Weighted (weighted factorization, ranks in their given order); Hierarchical (the exact
// optimum of the busiest-link objective: a process grid and a rank permutation, applied by
// MPI_Comm_split with the planned key, then MPI_Cart_create with reorder = 0); Levelwise
// (the seed paper's level-by-level rule); Manual (the user's dims, placed as Hierarchical).
// Every check of the input is agreed on all ranks first, so a bad input throws the same
// hcart::InputError on every rank and nothing hangs.
#pragma once

#include <hcart/core/Communicator.hpp>
#include <hcart/grid/Block.hpp>
#include <hcart/grid/GridSpec.hpp>
#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/Strategy.hpp>
#include <hcart/mapping/TimeModel.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <mpi.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hcart {

struct DecompositionOptions {
  Strategy strategy = Strategy::Hierarchical;
  std::array<int, 3> dims{{0, 0, 0}};     ///< 0 = free; all > 0 for Manual
  std::string machine;                    ///< synthetic machine; empty = $HCART_MACHINE or detect
  Placement placement = Placement::Block; ///< rank numbering of a synthetic machine
  /// Communication weights to use instead of those derived from the spec (empty: derive;
  /// {1, 1, 1}: the classic balanced factorization). Ignored by Strategy::Mpi.
  std::vector<double> weights;
  /// What one exchange sends per halo cell (bytes, all fields together) and whether edges
  /// and corners go too (HaloMode::Full): the objective counts what the run will send.
  TrafficOptions traffic;
  /// Measured figures (hcart-machine --measure): the plan with the least predicted exchange
  /// time wins among the search's candidates, the objective breaking ties.
  std::optional<MachineTimings> timings;
  /// Only process grids whose dims divide the mesh, so that every block of a direction has
  /// one size (codes that require it); an InputError where the ranks have none.
  bool equal_blocks = false;
  /// Plan above the nodes too (switch levels, hcart/topology/Network.hpp). false plans as if
  /// the nodes were the top level, for comparing (the ranks' places then come from a table
  /// of every rank); the report still counts every level.
  bool network = true;
};

/// \brief The planner's options (hcart/grid/Planner.hpp) these stand for: strategy, dims,
/// weights, traffic, timings and equal blocks.
PlanOptions plan_options_of(const DecompositionOptions& options);

/// \brief What a Decomposition decided and why, for logs and timer reports.
struct DecompositionReport {
  Strategy strategy = Strategy::Hierarchical;
  std::string machine;        ///< e.g. "node:2 socket:2 core:4"
  std::string machine_source; ///< "synthetic" or "detected"
  Placement placement = Placement::Block;
  std::vector<std::string> notes; ///< levels left out and why, the machine's origin
};

class Decomposition {
public:
  /// \brief Plans and builds the Cartesian communicator (collective over `comm`).
  /// \throws hcart::InputError (on every rank) for a bad spec, bad options, a machine
  /// whose rank count differs from comm's, fixed dims that do not divide it, or a mesh
  /// too small for the ranks.
  Decomposition(MPI_Comm comm, const GridSpec& spec, const DecompositionOptions& options = {});

  /// \brief The next coarser level of a grid hierarchy (hcart/grid/GridHierarchy.hpp) on the
  /// same ranks, grid and placement: `size` cells per direction, every block boundary of
  /// `fine` divided by `ratio`, so each rank's block nests in its fine block. Collective over
  /// fine.comm() (its own duplicate of it). plan() and machine() are fine's.
  /// \throws hcart::InputError (on every rank) naming the direction, the boundary and the
  /// sizes when a boundary is not a multiple of the ratio, or a block would be empty.
  static std::unique_ptr<Decomposition> coarsened(const Decomposition& fine,
                                                  const std::array<std::int64_t, 3>& size,
                                                  const std::array<int, 3>& ratio);
  /// \brief The same mesh on fewer ranks (a grid hierarchy's agglomerated level): the blocks
  /// of `pieces` in boxes of `group` process coordinates (dividing its dims), box b (row-major
  /// on dims / group) held by the rank owners[b] of pieces.comm(), whose blocks are the unions
  /// of the box's. Collective over pieces.comm(); null on the ranks that hold no box.
  static std::unique_ptr<Decomposition> agglomerated(const Decomposition& pieces,
                                                     const std::array<int, 3>& group,
                                                     const std::vector<int>& owners);

  // Neither copied nor moved: a Grid keeps a pointer to its decomposition, which a move
  // would leave dangling. (A function can still return one: C++17 elides the move of a
  // returned temporary, as hcart::decompose does.)
  Decomposition(Decomposition&&) = delete;
  Decomposition& operator=(Decomposition&&) = delete;
  Decomposition(const Decomposition&) = delete;
  Decomposition& operator=(const Decomposition&) = delete;
  ~Decomposition(); // out of line: a program's unit does not compile it (its members' destructors)

  /// \brief The Cartesian communicator (owned by the Decomposition).
  MPI_Comm comm() const noexcept { return m_cart.get(); }
  int rank() const noexcept { return m_rank; }
  int size() const noexcept { return m_size; }
  std::array<int, 3> dims() const noexcept { return m_dims; }
  std::array<int, 3> coords() const noexcept { return m_coords; }
  const GridSpec& spec() const noexcept { return m_spec; }
  /// \brief Per machine level, coarse first, the factors of dims (one entry, dims, for
  /// strategies that keep ranks in world order; empty for node-region plans, whose boxes
  /// plan().node_regions holds and plan().describe_layout() names).
  std::vector<std::array<int, 3>> level_factors() const;
  /// \brief The neighbour at `offset` (each -1, 0 or +1) in comm(): MPI_PROC_NULL where a
  /// non-periodic boundary is crossed; this rank itself for a periodic direction with one
  /// rank.
  int neighbour(const std::array<int, 3>& offset) const;
  /// \brief The Cartesian rank at `coords` (wrapped in periodic directions), or
  /// MPI_PROC_NULL outside a non-periodic boundary.
  int rank_at(std::array<int, 3> coords) const;
  /// \brief This rank's block (balanced block rule, boundaries at multiples of
  /// spec().block_multiple; a derived level's: its fine level's boundaries) with a halo of
  /// `halo_width` layers, and its 26 neighbours; a Grid allocates it (hcart/grid/Block.hpp).
  /// \throws hcart::InputError (this rank only) when the block and its halo exceed int
  /// local indices.
  Block block(const std::array<int, 3>& halo_width) const;

  const Machine& machine() const noexcept { return m_machine; }
  /// \brief The plan, with the measured placement (plan().coords_of(r, machine()) is the
  /// coordinate of the rank r of the original communicator).
  const Plan& plan() const noexcept { return m_plan; }
  /// \brief This rank's unit index at every machine level.
  std::vector<std::int64_t> unit_indices() const { return unit_indices_of(m_rank); }
  /// \brief The unit indices of the rank `cart_rank` of comm().
  std::vector<std::int64_t> unit_indices_of(int cart_rank) const;
  /// \brief The coarsest machine level at which two ranks of comm() sit in different units,
  /// or machine().level_count() when they are the same rank.
  int separating_level(int cart_rank_a, int cart_rank_b) const;
  /// \brief The rank in the original communicator of `cart_rank`, from the plan's layout
  /// (no table of every rank is gathered, but for the mpi strategy when MPI reordered).
  /// \throws hcart::InputError for a rank outside 0 .. size()-1.
  int original_rank(int cart_rank) const;
  const DecompositionReport& report() const noexcept { return m_report; }
  /// \brief The global index of the first cell of the blocks at process coordinate `coord`
  /// of direction `dir` (0 .. dims()[dir]; dims()[dir] gives the size).
  std::int64_t block_begin(int dir, std::int64_t coord) const;

private:
  // A derived level's blocks: the rule of the mesh the hierarchy began with (block_offset
  // of fine_size over fine_pieces, boundaries at multiples of `multiple`), at coordinate
  // coord * stride, divided by `divisor` and capped at this level's size.
  struct Cuts {
    std::array<std::int64_t, 3> fine_size{{1, 1, 1}}, fine_pieces{{1, 1, 1}}, multiple{{1, 1, 1}},
        stride{{1, 1, 1}}, divisor{{1, 1, 1}};
  };
  Decomposition() = default;
  // The fields a derived level shares with the one it derives from (not the communicator).
  void inherit(const Decomposition& from);
  void read_cart(MPI_Comm cart);

  GridSpec m_spec;
  Machine m_machine = Machine::flat(1);
  Plan m_plan;
  Communicator m_cart;
  int m_rank = 0, m_size = 1;
  std::array<int, 3> m_dims{{1, 1, 1}}, m_coords{{0, 0, 0}};
  std::vector<int> m_original_rank; // cart rank -> original rank (mpi reordered; agglomerated)
  DecompositionReport m_report;
  Cuts m_cuts;
};

} // namespace hcart
