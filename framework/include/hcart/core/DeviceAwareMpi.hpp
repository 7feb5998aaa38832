// Whether MPI may be handed device memory: decided once per process at run time.
//
//   const hcart::DeviceMpi mpi = hcart::device_mpi();
//   if (mpi.device_buffers) { /* pass device pointers to MPI */ }
//   std::cout << mpi.reason;     // e.g. "Open MPI reports no CUDA support: staged"
//
// On a host-only build there is nothing to decide (fields are host memory). On a device
// build hcart asks the MPI library (Open MPI's MPIX_Query_cuda_support) unless the
// environment variable HCART_GPU_AWARE_MPI says: "auto" (the default: ask), "1" / "on"
// (trust that MPI takes device memory) or "0" / "off" (always stage through pinned host
// buffers). Any other value is an error that names it.
#pragma once

#include <string>

namespace hcart {

struct DeviceMpi {
  bool device_build = false;   ///< kernels run on a device (fields in device memory)
  bool device_buffers = false; ///< MPI gets device buffers (else pinned host staging)
  std::string reason;          ///< how this was decided, for reports
};

/// \brief The decision for this process (computed on the first call, then cached).
/// \throws hcart::InputError for an unknown HCART_GPU_AWARE_MPI value.
const DeviceMpi& device_mpi();

/// \brief The decision for a given value of HCART_GPU_AWARE_MPI (null: unset) and what the
/// MPI library reports, without caching (for tests).
DeviceMpi decide_device_mpi(const char* setting, bool device_build, int library_support);

} // namespace hcart
