// Which ranks keep a coarse level that has too few cells per rank (grid hierarchies,
// hcart/grid/GridHierarchy.hpp), and what the data's move to them costs: pure arithmetic on
// the process grid and the machine's unit indices, no MPI.
//
//   hcart::AgglomerationProblem p;      // the level above's process grid, each rank's units
//   p.dims = {2, 2, 2};  p.units = ...; p.piece_bytes = ...;  p.cells = 512;  p.threshold = 512;
//   hcart::Agglomeration a = hcart::choose_agglomeration(p, hcart::AgglomerationRule::Machine);
//   a.group;    // boxes of process coordinates whose blocks one rank gathers: {2, 2, 1}
//   a.owners;   // per box (row-major on dims / group): the rank that holds it
//   a.bytes;    // what the gather sends across each machine level (coarse first)
//
// The group size: the fewest ranks per box that give the level at least `threshold` cells
// per rank (all ranks in one box when the level has fewer cells than that in all), taken
// from the machine where it can: the ranks of a unit of some level (the cores of a socket,
// of a node), then whole nodes merged; otherwise any divisor of the rank count with a box of
// that many process coordinates. The Machine rule then picks, among the boxes of that size,
// the one whose gather sends the fewest bytes across the coarsest level (the busiest unit
// first, then the total), then the next level, ...; each box's owner is its member with the
// fewest bytes to receive across each level. The Stride rule keeps the same boxes but gives
// box b to rank b * k (every k-th rank, k ranks per box), as consolidation by stride does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hcart {

/// \brief The level above an agglomerated level: its process grid and where its ranks sit.
struct AgglomerationProblem {
  std::vector<std::int64_t> dims;               ///< process grid (ranks row-major on it)
  std::vector<std::vector<std::int64_t>> units; ///< per rank: unit index per machine level
  std::vector<std::int64_t> piece_bytes;        ///< per rank: bytes of its cells of the level
  std::int64_t cells = 0;                       ///< the coarse level's cells in all
  std::int64_t threshold = 0;                   ///< cells per rank the level should keep
};

enum class AgglomerationRule {
  Machine, ///< boxes and owners with the fewest bytes across the coarsest level first
  Stride   ///< the same boxes, box b held by rank b * k
};

/// \brief Bytes a gather sends, per machine level (coarse first; the last entry: within a
/// rank, i.e. a rank's own cells): in all, and from or to the busiest unit of the level.
struct AgglomerationBytes {
  std::vector<std::int64_t> total;
  std::vector<std::int64_t> busiest;
};

struct Agglomeration {
  std::vector<std::int64_t> group;  ///< box of process coordinates per direction
  std::vector<std::int64_t> owners; ///< per box, row-major on dims / group: the owner's rank
  AgglomerationBytes bytes;         ///< what the gather (and the scatter, back) move
};

/// \brief The ranks per box the level needs (see above); 1 when it has enough cells per rank.
/// \throws hcart::Error for an empty process grid.
std::int64_t agglomeration_group_size(const AgglomerationProblem& problem);

/// \brief The boxes and owners for the group size agglomeration_group_size() gives (a group
/// of 1: every rank its own box and owner).
/// \throws hcart::Error when the problem's vectors disagree with its process grid.
Agglomeration choose_agglomeration(const AgglomerationProblem& problem, AgglomerationRule rule);

/// \brief The bytes of the gather of boxes `group` to `owners`, counted rank by rank.
AgglomerationBytes gather_bytes(const AgglomerationProblem& problem,
                                const std::vector<std::int64_t>& group,
                                const std::vector<std::int64_t>& owners);

/// \brief "machine" or "stride".
std::string to_string(AgglomerationRule rule);

} // namespace hcart
