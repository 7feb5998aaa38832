#include <hcart/mapping/Blocks.hpp>

#include <algorithm>

namespace hcart {

std::int64_t block_offset(std::int64_t size, std::int64_t pieces, std::int64_t coord,
                          std::int64_t multiple) {
  const std::int64_t units = (size + multiple - 1) / multiple;
  const std::int64_t base = units / pieces, extra = units % pieces;
  if (size % multiple == 0)
    return multiple * (coord * base + std::min(coord, extra)); // the extra units first
  // The last unit is short: the extra units go to the last blocks, so that the short block
  // holds as many whole units as any.
  return std::min(size, multiple * (coord * base + std::max<std::int64_t>(0, coord - (pieces - extra))));
}

std::int64_t block_extent(std::int64_t size, std::int64_t pieces, std::int64_t coord,
                          std::int64_t multiple) {
  if (multiple == 1) return size / pieces + (coord < size % pieces ? 1 : 0);
  return block_offset(size, pieces, coord + 1, multiple) -
         block_offset(size, pieces, coord, multiple);
}

} // namespace hcart
