// hcart-plan --draw: a picture of plans (SVG), so that users see what each strategy does.
// Every rank is a square at its place in the process grid (direction 0 down, direction 1
// across; a 3-D grid as its planes along direction 2, one under the other, or, where one
// direction has a single process, as one panel of the other two), coloured by its node; the
// node boxes are outlined in thick black lines, the next level's units (sockets) in thin grey
// ones. One column per strategy, captioned with its dims, how they lie on the page and its
// busiest unit per level down to the node; a legend below says what colours and lines mean.
#pragma once

#include "PlanReport.hpp"

#include <string>

namespace hcart::apps {

/// \brief The most ranks a picture draws per plan (beyond, the picture would not be read).
inline constexpr std::int64_t max_drawn_ranks = 65536;

/// \brief The SVG picture of every feasible plan of `outcomes`. Every square carries its
/// world rank, node and coordinates as data attributes (data-rank, data-node, data-coords),
/// each panel its plane and the direction it is a plane of (data-plane, data-plane-direction:
/// -1 for a single panel), the node boundaries are `class="node-edge"` lines.
/// \throws hcart::InputError for a mesh of more than 3 dimensions or a machine of more than
/// max_drawn_ranks ranks.
std::string plan_svg(const PlanRequest& request, const std::vector<PlanOutcome>& outcomes);

} // namespace hcart::apps
