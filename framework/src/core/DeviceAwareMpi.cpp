#include <hcart/core/DeviceAwareMpi.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/ExecutionModel.hpp>

#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include <cstdlib>

namespace hcart {

namespace {

// What the library says: 1 yes, 0 no, -1 it cannot say.
int library_cuda_support() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() != 0 ? 1 : 0;
#elif defined(MPIX_CUDA_AWARE_SUPPORT)
  return 0; // Open MPI built without CUDA support
#else
  return -1;
#endif
}

} // namespace

DeviceMpi decide_device_mpi(const char* setting, bool device_build, int library_support) {
  DeviceMpi d;
  d.device_build = device_build;
  const std::string value = setting == nullptr ? "auto" : setting;
  const bool on = value == "1" || value == "on", off = value == "0" || value == "off";
  HCART_REQUIRE(value == "auto" || value.empty() || on || off,
                "HCART_GPU_AWARE_MPI=\"" << value << "\": expected auto, on, off, 1 or 0");
  if (!device_build) {
    d.reason = "host execution: MPI reads the fields' host memory";
  } else if (on) {
    d.device_buffers = true;
    d.reason = "HCART_GPU_AWARE_MPI=" + value + ": device buffers";
  } else if (off) {
    d.reason = "HCART_GPU_AWARE_MPI=" + value + ": staged through pinned host buffers";
  } else if (library_support == 1) {
    d.device_buffers = true;
    d.reason = "MPI reports CUDA support: device buffers";
  } else if (library_support == 0) {
    d.reason = "MPI reports no CUDA support: staged through pinned host buffers";
  } else {
    d.reason = "MPI cannot report CUDA support: staged through pinned host buffers";
  }
  return d;
}

const DeviceMpi& device_mpi() {
  static const DeviceMpi decided =
      decide_device_mpi(std::getenv("HCART_GPU_AWARE_MPI"), !host_execution,
                        host_execution ? -1 : library_cuda_support());
  return decided;
}

} // namespace hcart
