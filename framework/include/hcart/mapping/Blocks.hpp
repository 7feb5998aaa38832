// The balanced block rule: how a direction of `size` cells is cut into `pieces` blocks.
//
//   std::int64_t n = hcart::block_extent(100, 3, 0);   // 34 (then 33, 33)
//   std::int64_t o = hcart::block_offset(100, 3, 1);   // 34
//
// Each block gets size / pieces cells and the first size % pieces blocks one more. Pure
// C++: the planner's traffic model and the Decomposition's blocks use the same rule.
#pragma once

#include <cstdint>

namespace hcart {

/// \brief Cells of the block at coordinate `coord` of a direction of `size` cells cut into
/// `pieces` blocks.
std::int64_t block_extent(std::int64_t size, std::int64_t pieces, std::int64_t coord);
/// \brief Global index of the first cell of that block.
std::int64_t block_offset(std::int64_t size, std::int64_t pieces, std::int64_t coord);

} // namespace hcart
