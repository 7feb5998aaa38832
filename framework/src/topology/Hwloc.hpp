// RAII handles and the checking macro for hwloc, and the facts of a binding (internal: hwloc
// stays out of hcart's public headers).
#pragma once

#include <hcart/core/Error.hpp>
#include <hcart/topology/HardwareFacts.hpp>

#include <hwloc.h>

namespace hcart::impl {

/// Throws hcart::Error naming the call when an hwloc function returns a negative value.
#define HCART_HWLOC_CHECK(call)                                                                    \
  do {                                                                                             \
    if ((call) < 0) {                                                                              \
      ::hcart::impl::throw_error(std::string(#call) + " failed at " + __FILE__ + ":" +             \
                                 std::to_string(__LINE__));                                        \
    }                                                                                              \
  } while (false)

/// An hwloc topology, destroyed with the handle.
class HwlocTopology {
public:
  HwlocTopology() { HCART_HWLOC_CHECK(hwloc_topology_init(&m_topology)); }
  ~HwlocTopology() { hwloc_topology_destroy(m_topology); }
  HwlocTopology(const HwlocTopology&) = delete;
  HwlocTopology& operator=(const HwlocTopology&) = delete;
  hwloc_topology_t get() const noexcept { return m_topology; }

private:
  hwloc_topology_t m_topology = nullptr;
};

/// An hwloc bitmap, freed with the handle.
class HwlocBitmap {
public:
  HwlocBitmap() : m_bitmap(hwloc_bitmap_alloc()) {
    HCART_CHECK(m_bitmap != nullptr, "hwloc_bitmap_alloc failed");
  }
  ~HwlocBitmap() { hwloc_bitmap_free(m_bitmap); }
  HwlocBitmap(const HwlocBitmap&) = delete;
  HwlocBitmap& operator=(const HwlocBitmap&) = delete;
  hwloc_bitmap_t get() const noexcept { return m_bitmap; }

private:
  hwloc_bitmap_t m_bitmap;
};

} // namespace hcart::impl

namespace hcart {

/// \brief Facts for a rank bound to `binding` on `topology` (any loaded hwloc topology).
RankFacts facts_from_binding(hwloc_topology_t topology, hwloc_const_cpuset_t binding, int node);

} // namespace hcart
