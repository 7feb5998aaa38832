#include "MessageBuffers.hpp"

#include <hcart/core/Error.hpp>

#include <cstdlib>
#include <string>
#include <utility>

namespace hcart::impl {

bool staging_by_copy() {
  const char* value = std::getenv("HCART_HALO_STAGING");
  if (value == nullptr || *value == '\0' || std::string(value) == "kernel") return false;
  if (std::string(value) == "copy") return true;
  throw InputError(std::string("HCART_HALO_STAGING='") + value +
                   "': expected 'kernel' (the pack and unpack kernels use the pinned host "
                   "buffers) or 'copy' (device buffers, copied to and from pinned ones)");
}

bool PhaseBuffers::reserve(std::size_t bytes) {
  if (bytes <= m_capacity) return false;
  const auto uninitialised = [](const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
  };
  if (m_device_buffers || m_by_copy) {
    m_send_device = Kokkos::View<unsigned char*, MemorySpace>(uninitialised("hcart::halo::send"), bytes);
    m_recv_device = Kokkos::View<unsigned char*, MemorySpace>(uninitialised("hcart::halo::recv"), bytes);
    m_send = m_packed = m_send_device.data();
    m_recv = m_unpacked = m_recv_device.data();
  }
  if (!m_device_buffers) {
    m_send_pinned =
        Kokkos::View<unsigned char*, PinnedSpace>(uninitialised("hcart::halo::send_pinned"), bytes);
    m_recv_pinned =
        Kokkos::View<unsigned char*, PinnedSpace>(uninitialised("hcart::halo::recv_pinned"), bytes);
    m_send = m_send_pinned.data();
    m_recv = m_recv_pinned.data();
    if (!m_by_copy) {
      m_packed = m_send;
      m_unpacked = m_recv;
    }
  }
  m_capacity = bytes;
  return true;
}

void PhaseBuffers::stage_out(const ExecutionSpace& space, std::size_t n) const {
  const std::pair<std::size_t, std::size_t> first(0, n);
  Kokkos::deep_copy(space, Kokkos::subview(m_send_pinned, first),
                    Kokkos::subview(m_send_device, first));
  fence(space, "hcart_halo");
}

void PhaseBuffers::stage_in(const ExecutionSpace& space, std::size_t n) const {
  const std::pair<std::size_t, std::size_t> first(0, n);
  Kokkos::deep_copy(space, Kokkos::subview(m_recv_device, first),
                    Kokkos::subview(m_recv_pinned, first));
  fence(space, "hcart_halo");
}

} // namespace hcart::impl
