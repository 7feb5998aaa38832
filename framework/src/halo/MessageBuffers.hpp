// One phase's message buffers (internal: hcart/halo/HaloExchanger.hpp's engine): where MPI
// sends and receives, where the pack and unpack kernels write and read, and the copies
// between the two when they differ.
//
// On host builds, and on device builds whose MPI takes device memory, both are the same
// memory of the execution space. Otherwise MPI gets pinned host buffers, and
// HCART_HALO_STAGING says how the kernels reach them: `kernel` (the default: they write and
// read the pinned memory directly) or `copy` (device buffers, copied to and from the pinned
// ones by the copy engine: stage_out after packing, stage_in before unpacking).
#pragma once

#include <hcart/core/ExecutionModel.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace hcart::impl {

/// \brief True for HCART_HALO_STAGING=copy, false for `kernel` or unset.
/// \throws hcart::InputError for another value, naming it.
bool staging_by_copy();

class PhaseBuffers {
public:
  /// \brief `device_buffers`: MPI takes the execution space's memory; `by_copy`: staged
  /// through pinned memory by copies (ignored where device_buffers).
  PhaseBuffers(bool device_buffers, bool by_copy)
      : m_device_buffers(device_buffers), m_by_copy(by_copy && !device_buffers) {}
  /// \brief Buffers of at least `bytes` each way (they only grow). Returns true when it
  /// allocated.
  bool reserve(std::size_t bytes);
  unsigned char* send() const noexcept { return m_send; }        ///< MPI's
  unsigned char* recv() const noexcept { return m_recv; }        ///< MPI's
  unsigned char* packed() const noexcept { return m_packed; }    ///< the pack kernel's
  unsigned char* unpacked() const noexcept { return m_unpacked; } ///< the unpack kernel's
  bool by_copy() const noexcept { return m_by_copy; }
  /// \brief The first `bytes` packed, to MPI's buffer (staging by copy; fenced).
  void stage_out(const ExecutionSpace& space, std::size_t bytes) const;
  /// \brief The first `bytes` received, to the unpack kernel's buffer (staging by copy; fenced).
  void stage_in(const ExecutionSpace& space, std::size_t bytes) const;

  std::size_t bytes = 0; ///< of the messages in flight

private:
#if defined(KOKKOS_ENABLE_CUDA)
  using PinnedSpace = Kokkos::CudaHostPinnedSpace;
#elif defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
  using PinnedSpace = Kokkos::HIPHostPinnedSpace;
#else
  using PinnedSpace = Kokkos::HostSpace;
#endif
  bool m_device_buffers, m_by_copy;
  Kokkos::View<unsigned char*, MemorySpace> m_send_device, m_recv_device;
  Kokkos::View<unsigned char*, PinnedSpace> m_send_pinned, m_recv_pinned;
  std::size_t m_capacity = 0;
  unsigned char *m_send = nullptr, *m_recv = nullptr, *m_packed = nullptr, *m_unpacked = nullptr;
};

} // namespace hcart::impl
