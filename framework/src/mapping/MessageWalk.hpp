// The one walk over the halo messages a process sends. The traffic model (exact bytes per
// level), the row-major-runs search and the node regions' run cost (the planner's costs)
// all count a message through it: which offsets have a receiver, where it sits (wrapped in
// periodic directions), and the face the message carries.
#pragma once

#include <hcart/core/Error.hpp>

#include <cstdint>
#include <vector>

namespace hcart::impl {

/// One message offset: the directions it crosses (bit i) and on which side (bit i set: +1).
struct MessageOffset {
  std::uint32_t crossed = 0;
  std::uint32_t plus = 0;
};

/// A message's size times `factor`: in doubles (the planner's costs) or in 64-bit integers
/// (the traffic model's exact bytes: a product past 2^63 is an InputError, never a wrapped
/// count).
inline void scale(double& size, std::int64_t factor) {
  size *= static_cast<double>(factor);
}
inline void scale(std::int64_t& size, std::int64_t factor) {
  if (__builtin_mul_overflow(size, factor, &size))
    throw InputError("hcart::traffic_model: the halo traffic exceeds 2^63 bytes; the mesh is too "
                     "large to count in 64 bits");
}

/// \brief For the process at `coords` of a `dims` grid: calls visit(k, neighbour, size) for
/// every offsets[k] whose receiver exists, in the order of `offsets` (MessageOffsets, or
/// anything with their `crossed` and `plus`: the planner's LoadProblem::Term). `neighbour` (scratch
/// of dims.size()) holds the receiver's coordinates, wrapped where periodic[i] (empty: none);
/// `size` is start(k) (the offset's bytes or cost per cell of its face: a double or a 64-bit
/// integer) times extent(i, coords[i]), the process's block extent, in each direction the
/// offset does not cross, multiplied in direction order.
template <class Offsets, class Start, class Extent, class Visit>
void for_each_message(const std::vector<std::int64_t>& dims, const std::vector<bool>& periodic,
                      const std::int64_t* coords, const Offsets& offsets, const Start& start,
                      const Extent& extent, std::int64_t* neighbour, Visit&& visit) {
  const std::size_t D = dims.size();
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    const auto& o = offsets[k];
    auto size = start(k);
    bool exists = true;
    for (std::size_t i = 0; i < D && exists; ++i) {
      if (o.crossed & (1u << i)) {
        const std::int64_t x = coords[i] + ((o.plus >> i) & 1u ? 1 : -1);
        if (x < 0 || x >= dims[i]) {
          exists = !periodic.empty() && periodic[i];
          neighbour[i] = (x + dims[i]) % dims[i];
        } else {
          neighbour[i] = x;
        }
      } else {
        neighbour[i] = coords[i];
        scale(size, extent(i, coords[i]));
      }
    }
    if (exists) visit(k, neighbour, size);
  }
}

} // namespace hcart::impl
