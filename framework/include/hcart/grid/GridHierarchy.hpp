// hcart::GridHierarchy: the levels of a geometric multigrid. Each coarser level is derived
// from the one above it, never planned afresh, so that every rank's block of a level nests
// in its block of the level above (a cell-centred restriction needs no message); a level with too
// few cells per rank moves onto fewer ranks, chosen through the machine hierarchy (the cores of a
// node first, nodes only when a node's ranks hold too little), and hcart moves its data there and
// back (docs/api-guide.md, "Grid hierarchies").
//
//   hcart::HierarchyOptions h;                        // cell-centred, halving every direction
//   h.levels = 4;                                     // 0: as many as the mesh halves into
//   const hcart::GridHierarchy levels(MPI_COMM_WORLD, spec, h); // collective; level 0's
//   // decomposition nests (nested_spec) and is levels.decomposition(0); or from your own:
//   //   hcart::Decomposition decomp(MPI_COMM_WORLD, hcart::nested_spec(spec, h), options);
//   //   hcart::GridHierarchy levels(decomp, h);
//   for (int l = 0; l < levels.size(); ++l) {
//     if (!levels.holds(l)) continue;                 // an agglomerated level elsewhere
//     const hcart::Grid& grid = levels.grid(l);       // fields, boxes, exchangers as usual
//   }
//   // the transfers between levels (hcart/grid/LevelTransfers.hpp):
//   hcart::restrict_cells(levels, 1, r0, f1);         // level 0 -> 1
//   hcart::prolong_cells(levels, 1, e1, u0);          // level 1 -> 0, added
//
// Nesting. Level l has global size n_l = n_{l-1} / 2 (cell-centred) or (n_{l-1} - 1) / 2
// (vertex-centred: coarse point i is fine point 2i + 1) in each coarsened direction; each
// boundary between blocks of level l is the level above's divided by 2. That holds for every
// rank count when the fine blocks' boundaries are multiples of 2^(n - 1) for the n levels
// that must nest across ranks: hcart::nested_spec sets GridSpec::block_multiple so (64^3 in
// 4 levels on 3 ranks: blocks of 24, 24 and 16 cells, then 12/12/8, 6/6/4, 3/3/2). Those are
// all levels without agglomeration; with it, the levels down to the first one with fewer
// cells than agglomerate_below in all, which one rank holds, as it holds every level below
// it (nested_levels: 127^3 points in 7 levels, agglomerated below 512, nest in 5, so the
// blocks need multiples of 16 points and the process grid can be 8 x 8 x 8). A
// decomposition that does not nest is an hcart::InputError on every rank naming the level,
// the direction and the sizes. Every rank holds at least one cell in each direction of each
// level that nests across ranks.
//
// Agglomeration. Where level l would hold fewer than HierarchyOptions::agglomerate_below
// cells per rank (default 512 = 8^3), it moves onto fewer ranks: the ranks of level l - 1
// are grouped into boxes of process coordinates, one rank of each box (its owner) holds the
// union of the box's blocks, and the others hold nothing of level l and of the levels below
// (holds() is false there). Which boxes and owners: hcart/mapping/Agglomeration.hpp (the
// fewest bytes across nodes first). pieces(l) is level l as the ranks of level l - 1 hold it
// before the gather; restriction writes there and gathers to the owners, prolongation
// scatters back (halos included) and reads there.
#pragma once

#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/LevelCounters.hpp>
#include <hcart/mapping/Agglomeration.hpp>

#include <mpi.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hcart {

/// \brief Where a level's values sit: at cell centres (n -> n / 2) or at the vertices of a
/// mesh whose boundary vertices are the halo (n -> (n - 1) / 2, Jacobi3D's unknowns).
enum class LevelCentering { Cell, Vertex };

struct HierarchyOptions {
  /// Levels, the fine one included; 0: as many as every coarsened direction halves into
  /// while it keeps at least min_size cells.
  int levels = 0;
  LevelCentering centering = LevelCentering::Cell;
  /// Directions halved from level to level (a direction of one cell never is).
  std::array<bool, 3> coarsen{{true, true, true}};
  /// With levels = 0, the fewest cells a coarsened direction of the coarsest level has.
  std::int64_t min_size = 2;
  /// A level with fewer cells per rank moves onto fewer ranks; 0: never.
  std::int64_t agglomerate_below = 512;
  /// Which ranks keep it (Stride: every k-th rank, for comparison).
  AgglomerationRule agglomeration = AgglomerationRule::Machine;
  /// Halo layers of every level's grids per direction; -1: the spec's. A multigrid reads one
  /// layer: an application whose own stencil is wider (ZEUS's 3) gives 1 here, and its coarse
  /// levels may then hold blocks narrower than its own halo.
  std::array<int, 3> halo_width{{-1, -1, -1}};
};

/// \brief The number of levels `options` give for `spec` (levels = 0 resolved).
/// \throws hcart::InputError naming the direction and sizes when a coarsened direction does
/// not halve that often (cell-centred: its size divides by 2^(levels-1); vertex-centred:
/// its size + 1 is q 2^(levels-1) with q >= 2), or levels < 0.
int hierarchy_levels(const GridSpec& spec, const HierarchyOptions& options);
/// \brief The global size of level `level` (0: the spec's).
std::array<std::int64_t, 3> hierarchy_level_size(const GridSpec& spec,
                                                 const HierarchyOptions& options, int level);
/// \brief The levels that must nest across several ranks: all of them, or (with
/// agglomeration) those down to the first level with fewer cells than agglomerate_below in
/// all, which one rank holds, as it holds the levels below it (a single block nests in any
/// way). \throws hcart::InputError as hierarchy_levels.
int nested_levels(const GridSpec& spec, const HierarchyOptions& options);
/// \brief `spec` with the block multiple that makes every level nest: 2^(nested_levels - 1)
/// in the coarsened directions. \throws hcart::InputError as hierarchy_levels.
GridSpec nested_spec(GridSpec spec, const HierarchyOptions& options);

/// \brief Checks on every rank of fine.comm() that each rank's block of `coarse` is its
/// block of `fine` divided by `ratio` (`centering` as the hierarchy's): the check a
/// hand-made hierarchy calls. Collective over fine.comm(), whose ranks coarse.comm() must
/// have in the same order. \throws hcart::InputError (on every rank) naming the first rank,
/// the direction and the blocks that do not nest.
void require_nested(const Decomposition& fine, const Decomposition& coarse,
                    const std::array<int, 3>& ratio,
                    LevelCentering centering = LevelCentering::Cell);

class GridHierarchy {
public:
  /// \brief The levels of `fine` (which must outlive the hierarchy), collective over
  /// fine.comm(). Grids have the spec's halo widths, or options.halo_width's.
  /// \throws hcart::InputError (on every rank) for options the spec cannot take, or blocks
  /// that do not nest (the message names the level, the direction and the sizes).
  GridHierarchy(const Decomposition& fine, const HierarchyOptions& options = {});
  /// It refers to `fine`: a temporary Decomposition does not compile.
  GridHierarchy(Decomposition&&, const HierarchyOptions& = {}) = delete;
  /// \brief The hierarchy in one step, the options given once: level 0 decomposed over `comm`
  /// from nested_spec(spec, options) with `decomposition`'s options (the hierarchy keeps that
  /// Decomposition: decomposition(0)), then its levels. Collective over `comm`.
  /// \throws hcart::InputError (on every rank) as nested_spec, Decomposition and the
  /// constructor above.
  GridHierarchy(MPI_Comm comm, const GridSpec& spec, const HierarchyOptions& options = {},
                const DecompositionOptions& decomposition = {});
  ~GridHierarchy();
  GridHierarchy(const GridHierarchy&) = delete;
  GridHierarchy& operator=(const GridHierarchy&) = delete;
  GridHierarchy(GridHierarchy&&) = delete;
  GridHierarchy& operator=(GridHierarchy&&) = delete;

  /// \brief The number of levels (level 0: the fine one).
  int size() const noexcept { return static_cast<int>(m_levels.size()); }
  const HierarchyOptions& options() const noexcept { return m_options; }
  /// \brief True when this rank holds cells of `level`.
  bool holds(int level) const;
  /// \brief Level `level`'s decomposition. \throws hcart::Error where !holds(level).
  const Decomposition& decomposition(int level) const;
  /// \brief Level `level`'s grid. \throws hcart::Error where !holds(level).
  const Grid& grid(int level) const;
  std::array<std::int64_t, 3> global_size(int level) const;
  /// \brief Level `level`'s cells per direction against the level above's: 2 or 1.
  std::array<int, 3> ratio() const noexcept { return m_ratio; }
  /// \brief Ranks holding `level`.
  int ranks(int level) const;
  /// \brief True when `level` holds fewer ranks than the level above.
  bool agglomerated(int level) const;
  /// \brief An agglomerated level as the ranks of the level above hold it before the gather
  /// (their blocks of the level above, halved). \throws hcart::Error unless agglomerated and
  /// this rank holds the level above.
  const Grid& pieces(int level) const;
  /// \brief An agglomerated level's boxes and the bytes its gather moves per machine level
  /// (known on every rank), and its owners (on the ranks of the level above).
  const Agglomeration& agglomeration(int level) const;
  /// \brief One line per level: sizes, ranks, blocks, agglomeration and its bytes.
  std::vector<std::string> describe() const;
  /// \brief This rank's traffic of the gathers and scatters so far (restrict_cells and
  /// prolong_cells into and out of agglomerated levels), each message counted at the
  /// coarsest machine level that separates its two ranks: the count to hold against a
  /// network's byte counters, with the exchangers' HaloCounters.
  const TransferCounters& transfer_counters() const noexcept { return m_traffic; }

  /// \brief Gathers `pieces` (a field of pieces(level)) into `coarse` (of grid(level)) on
  /// the owners: their owned cells. Fields or ComponentFields (of as many components); an
  /// empty `coarse` where this rank does not hold the level. Collective over the ranks of
  /// the level above.
  template <class PiecesView, class CoarseView>
  void gather(int level, const PiecesView& pieces, const CoarseView& coarse) const;
  /// \brief Scatters `coarse` (owners; halos filled) into `pieces`, halos included.
  /// Collective over the ranks of the level above.
  template <class CoarseView, class PiecesView>
  void scatter(int level, const CoarseView& coarse, const PiecesView& pieces) const;
  /// \brief Internal (hcart/grid/LevelTransfers.hpp): a buffer of at least `bytes` bytes in
  /// the execution space's memory for `level`, reused by every call.
  void* impl_scratch(int level, std::size_t bytes) const;

private:
  struct Level;
  // The byte moves of a gather (pieces -> owners, owned cells) or a scatter (owners ->
  // pieces, halos included) of `level`, one element of `bytes` bytes per cell and component.
  void transfer(int level, bool gather, int components, std::size_t bytes,
                const unsigned char* from, std::array<int, 3> from_extent, unsigned char* to,
                std::array<int, 3> to_extent) const;
  GridHierarchy(std::unique_ptr<Decomposition> fine, const HierarchyOptions& options);
  void build(int level);
  std::unique_ptr<Grid> make_grid(const Decomposition& decomp) const;

  std::unique_ptr<Decomposition> m_owned_fine; // the one-step constructor's level 0
  const Decomposition* m_fine;
  HierarchyOptions m_options;
  std::array<int, 3> m_ratio{{1, 1, 1}};
  std::vector<std::unique_ptr<Level>> m_levels;
  mutable TransferCounters m_traffic;
};

} // namespace hcart

#include <hcart/impl/grid/GridHierarchy_impl.hpp>
