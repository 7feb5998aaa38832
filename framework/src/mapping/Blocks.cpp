#include <hcart/mapping/Blocks.hpp>

#include <algorithm>

namespace hcart {

std::int64_t block_extent(std::int64_t size, std::int64_t pieces, std::int64_t coord) {
  return size / pieces + (coord < size % pieces ? 1 : 0);
}

std::int64_t block_offset(std::int64_t size, std::int64_t pieces, std::int64_t coord) {
  const std::int64_t base = size / pieces, extra = size % pieces;
  return coord * base + std::min(coord, extra);
}

} // namespace hcart
