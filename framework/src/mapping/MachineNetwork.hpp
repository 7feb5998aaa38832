// The network's levels of a synthetic machine description (Machine::parse).
#pragma once

#include <hcart/mapping/Machine.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace hcart::impl {

/// \brief "[3,2]", "[8x5]", "[16x3,8]": a list with runs of equal entries.
std::string list_text(const std::vector<std::int64_t>& entries);

/// \brief The machine of `text` whose first `network` levels are above the node (level
/// `network`, named "node"): lists[l] is level l's list of its units' contents, or empty
/// for a count. \throws hcart::InputError naming the text.
Machine network_machine(const std::string& text, const std::vector<MachineLevel>& levels,
                        const std::vector<std::vector<std::int64_t>>& lists, int network,
                        Placement placement);

} // namespace hcart::impl
