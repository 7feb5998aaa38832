// The balanced block rule: how a direction of `size` cells is cut into `pieces` blocks.
//
//   std::int64_t n = hcart::block_extent(100, 3, 0);   // 34 (then 33, 33)
//   std::int64_t o = hcart::block_offset(100, 3, 1);   // 34
//   hcart::block_extent(64, 3, 0, 8);                  // 24 (then 24, 16): multiples of 8
//
// Each block gets size / pieces cells and the first size % pieces blocks one more. With a
// multiple m the rule deals out ceil(size / m) units of m cells instead, so every boundary
// between blocks is a multiple of m: a grid hierarchy's levels then halve block by block
// (64^3 in 4 levels on 3 ranks: blocks of 24, 24 and 16 cells, nested down to 3, 3 and 2).
// The first blocks get the extra units; where m does not divide the size, the last unit is
// short and the last blocks get them instead, so the short block is never the smallest (127
// points in units of 16 on 5 ranks: 16, 16, 32, 32, 31). Pure C++: the planner's traffic
// model and the Decomposition's blocks use the same rule.
#pragma once

#include <cstdint>

namespace hcart {

/// \brief Cells of the block at coordinate `coord` of a direction of `size` cells cut into
/// `pieces` blocks.
/// `pieces` blocks, boundaries at multiples of `multiple`.
std::int64_t block_extent(std::int64_t size, std::int64_t pieces, std::int64_t coord,
                          std::int64_t multiple = 1);
/// \brief Global index of the first cell of that block.
std::int64_t block_offset(std::int64_t size, std::int64_t pieces, std::int64_t coord,
                          std::int64_t multiple = 1);

} // namespace hcart
