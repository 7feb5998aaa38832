// What orders and prunes the node-region search's grids (internal, search/): a lower bound
// of a grid's busiest node, and the directions alike whose mirror images need no search.
#pragma once

#include "mapping/PlanSearch.hpp"

#include <cstdint>
#include <vector>

namespace hcart::impl::regions {

/// \brief The cheapest cost any box of `volume` process coordinates of grid `dims` can have
/// (the fewest cells a box of its extent can own, against the boundary in every direction).
double cheapest_box(const SearchContext& context, const std::vector<std::int64_t>& dims,
                    std::int64_t volume);

/// \brief A lower bound of the busiest node of every partition of grid `dims` into node
/// boxes: per kind of node the cheapest box of its volume, the largest over the kinds;
/// +infinity when some kind fits no box.
double cheapest_node_box(const SearchContext& context, const std::vector<std::int64_t>& dims);

/// \brief Per direction, the first direction it is alike with (itself if none before it):
/// the same cells, wrap, cut limit, fixed dim and divisor, and every message's weight
/// unchanged when the two swap, in the objective's costs and, by time, in `bytes` too.
std::vector<int> alike_directions(const SearchContext& context, const LoadProblem* bytes);

/// \brief Whether grid `d` is the mirror image of one that is searched instead: its dims not
/// non-increasing over some class of directions `alike` (alike_directions) holds.
bool mirrored(const std::vector<int>& alike, const std::vector<std::int64_t>& d);

} // namespace hcart::impl::regions
