// Internals of the exact search: what a unit of a machine level sends across its level,
// counted in closed form from the unit's extent in every direction (docs/algorithms.md,
// 'Counting without enumerating ranks').
//
// A unit of a grid-like layout is a box of the process grid: the product of one contiguous
// range of process coordinates per direction. Its parent (the unit of the level above, or the
// whole grid at the node level) is a box too. For a halo message of offset o (faces: one
// direction crossed; full: up to all), the ranks of the unit whose target exists and lies in
// the parent, minus those whose target lies in the unit, send across the unit's level; both
// counts are products over directions, so one direction at a time suffices:
//   cost(unit) = sum_o W_o * (prod_{i crossed} in_parent_i - prod_{i crossed} in_self_i)
//                        * prod_{j not crossed} cells_j
// with W_o = elem_bytes * prod_{i crossed} h_i * c_i. Summed over all units of a level the
// products factor into per-direction sums (closed form); the busiest unit is the largest
// value over the product of the per-direction classes of ranges, of which a direction has few
// (uneven block sizes make at most three, and a range's place in its parent three more).
#pragma once

#include <hcart/mapping/Mesh.hpp>
#include <hcart/mapping/PlanCost.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <cstdint>
#include <limits>
#include <vector>

namespace hcart::impl {

/// The mesh, the halo mode and the cost factors as the formulas need them.
struct LoadProblem {
  int dims = 0;
  std::vector<std::int64_t> cells; ///< g_i
  std::vector<bool> periodic;
  /// One halo message offset with a non-zero weight: the directions it crosses (bit i) and
  /// on which side (bit i set: +1).
  struct Term {
    double weight = 0; ///< elem_bytes * prod_{i crossed} h_i * c_i
    std::uint32_t crossed = 0;
    std::uint32_t plus = 0;
  };
  std::vector<Term> terms;
  /// The face terms' weights per direction (for the lower bound of the node total).
  std::vector<double> face_weight;
};

/// \brief The problem for `mesh` (its cost factors) and `options` (elem_bytes, corners).
LoadProblem load_problem(const Mesh& mesh, const std::vector<double>& cost_factors,
                         const TrafficOptions& options);

/// One range of process coordinates in one direction, as the formula sees it.
struct Span {
  double cells = 0;             ///< mesh cells of the range
  double in_parent[2] = {0, 0}; ///< coordinates whose neighbour on side s (0: -1, 1: +1)
                                ///< exists and lies in the parent's range
  double in_self[2] = {0, 0};   ///< ... and lies in the range itself
};

/// \brief The span of process coordinates [lo, hi) inside the parent range [plo, phi) of a
/// direction with `coords` process coordinates, `cells` mesh cells, periodic or not.
Span span_of(std::int64_t cells, std::int64_t coords, bool periodic, std::int64_t lo,
             std::int64_t hi, std::int64_t plo, std::int64_t phi);

/// \brief The cost a unit with these spans (one per direction) sends across its level.
double unit_cost(const LoadProblem& problem, const Span* spans);

/// One level of a grid of boxes inside a frame: per direction, the frame's range of process
/// coordinates, how many groups the frame is cut into at this level and at the level above
/// (1 for the frame itself), on a grid of `coords` process coordinates.
struct GridLevel {
  std::vector<std::int64_t> coords; ///< d_i
  std::vector<std::int64_t> frame_lo, frame_hi;
  std::vector<std::int64_t> parent_groups; ///< groups per direction at the level above
  std::vector<std::int64_t> groups;        ///< groups per direction at this level
};

/// \brief The level's cost: the busiest unit and the total over all its units inside the
/// frame. When the busiest unit is found to exceed `cutoff` (beyond the tolerance), the
/// search stops and busiest is +infinity.
LevelCost grid_level_cost(const LoadProblem& problem, const GridLevel& level,
                          double cutoff = std::numeric_limits<double>::infinity());

/// \brief The most messages one rank of a level grid of process grid `dims` (every unit of a
/// level the same box; level_factors coarse first, all levels or the first ones) sends across
/// each of those levels: entry l counts the messages whose receiver first lies in another
/// unit at level l (the traffic model's max_rank_messages, in closed form: each direction's
/// coordinates fall in a few classes by the group boundaries they sit on, and the maximum is
/// taken over the classes' combinations). Entry l depends on the factors of levels 0..l only.
/// Every message of `problem`'s terms counts; the grid's blocks must all hold cells.
std::vector<std::int64_t>
level_grid_messages(const LoadProblem& problem, const std::vector<std::int64_t>& dims,
                    const std::vector<std::vector<std::int64_t>>& level_factors);

/// \brief Every ordered factorization of n into caps.size() factors with factor_i <=
/// caps[i] and, where divides[i] > 0, factor_i dividing divides[i]; in lexicographically
/// decreasing order.
std::vector<std::vector<std::int64_t>>
ordered_factorizations(std::int64_t n, const std::vector<std::int64_t>& caps,
                       const std::vector<std::int64_t>& divides = {});

/// \brief compare() of two level costs (busiest, then total).
int compare_level(const LevelCost& a, const LevelCost& b) noexcept;

} // namespace hcart::impl
