// One element moved as whole words, in kernels on every backend (internal: the halo packer
// and a grid hierarchy's moves between levels).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace hcart::impl {

// Copies one element of `bytes` bytes (1, 2, 4, 8 or 16; buffers and fields are aligned
// to it), as whole words.
KOKKOS_INLINE_FUNCTION void copy_element(unsigned char* to, const unsigned char* from, int bytes) {
#if defined(__GNUC__) || defined(__clang__)
  using word8 = std::uint64_t __attribute__((__may_alias__));
  using word4 = std::uint32_t __attribute__((__may_alias__));
  using word2 = std::uint16_t __attribute__((__may_alias__));
  switch (bytes) {
  case 8: *reinterpret_cast<word8*>(to) = *reinterpret_cast<const word8*>(from); return;
  case 4: *reinterpret_cast<word4*>(to) = *reinterpret_cast<const word4*>(from); return;
  case 2: *reinterpret_cast<word2*>(to) = *reinterpret_cast<const word2*>(from); return;
  case 16:
    reinterpret_cast<word8*>(to)[0] = reinterpret_cast<const word8*>(from)[0];
    reinterpret_cast<word8*>(to)[1] = reinterpret_cast<const word8*>(from)[1];
    return;
  default: break;
  }
#endif
  for (int b = 0; b < bytes; ++b)
    to[b] = from[b];
}

} // namespace hcart::impl
