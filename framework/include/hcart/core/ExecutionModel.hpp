// hcart's execution model: where kernels run, where fields live, and the few Kokkos calls
// whose spelling differs between Kokkos 3.4 and 4.x.
//
//   hcart::ExecutionSpace    Kokkos' default execution space (Serial, OpenMP, Cuda, ...)
//   hcart::MemorySpace       its memory space: fields and halo buffers live there
//   hcart::runs_on_host<S>   true when kernels of S run on the host CPU; host-only fast
//                            paths (row loops on raw pointers, AVX2 clones, the in-cache
//                            wavefront) are chosen on it with `if constexpr` inside a template
//   hcart::fence(label)      waits for the execution space (a label from Kokkos 3.6 on)
//   hcart::math::sqrt ...    math usable in kernels on every backend: sqrt, cbrt, pow, exp,
//                            log, hypot, sin, cos, tan, atan2, fabs, fmin, fmax, floor,
//                            ceil, isfinite
//
// The choice of a code path is made on the EXECUTION space, never on whether memory is
// host-accessible: CUDA's unified memory is host-accessible while kernels run on the device.
#pragma once

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <string>

namespace hcart {

/// \brief Where hcart's kernels run: Kokkos' default execution space.
using ExecutionSpace = Kokkos::DefaultExecutionSpace;
/// \brief Where fields and halo buffers live: the execution space's memory.
using MemorySpace = ExecutionSpace::memory_space;

/// \brief True when kernels of `Space` run on the host CPU (Serial, OpenMP, Threads).
template <class Space>
inline constexpr bool runs_on_host =
    Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible;

/// \brief True when hcart's kernels run on the host CPU.
inline constexpr bool host_execution = runs_on_host<ExecutionSpace>;

/// \brief How a kernel walks its cells (hcart/grid/Loops.hpp). Every kernel of hcart with a
/// hand-written host pattern has the portable one too, with results that are bitwise the
/// same (the tests compare them).
enum class LoopPattern {
  HostRows, ///< the host pattern: rows (i, j) in parallel, a vectorisable loop along k each
            ///< (hcart's own kernels: raw pointers, memcpy, AVX2 clones; host builds only)
  Portable  ///< the device pattern: Kokkos' 3D policy, one cell per work item (any backend)
};

/// \brief The pattern hcart's kernels use in this build: HostRows where kernels run on the
/// host, Portable elsewhere.
inline constexpr LoopPattern default_loop_pattern =
    host_execution ? LoopPattern::HostRows : LoopPattern::Portable;

/// \brief Waits until all kernels of every execution space have completed. The label
/// (shown by Kokkos Tools) should be at most 15 characters, so that naming it allocates
/// nothing.
inline void fence([[maybe_unused]] const char* label) {
#if KOKKOS_VERSION >= 30600
  Kokkos::fence(label);
#else
  Kokkos::fence();
#endif
}

/// \brief Waits until the kernels launched on the instance `space` have completed.
template <class Space>
void fence(const Space& space, [[maybe_unused]] const char* label) {
#if KOKKOS_VERSION >= 30600
  space.fence(label);
#else
  space.fence();
#endif
}

/// \brief Threads of the execution space available to one rank (1 for Serial; the
/// thread count for OpenMP; the device's concurrency for a GPU).
inline int execution_concurrency() {
  return static_cast<int>(ExecutionSpace().concurrency());
}

/// \brief Host threads per rank: the concurrency of Kokkos' default host execution space.
inline int host_threads() {
  return static_cast<int>(Kokkos::DefaultHostExecutionSpace().concurrency());
}

/// \brief The execution space's name, e.g. "Serial", "OpenMP", "Cuda".
inline std::string execution_space_name() {
  return ExecutionSpace::name();
}

/// \brief A 1D range policy on the execution space instance `space` over [begin, end) that
/// allocates nothing: the chunk size is set here (power of two, about 40 chunks per thread,
/// at most 128 items) instead of by Kokkos 4's automatic choice, whose call to a static
/// concurrency() default-constructs an execution space instance (a heap allocation) on
/// every policy.
template <class Space, class Index = std::int64_t>
Kokkos::RangePolicy<Space, Kokkos::IndexType<Index>> range_policy(const Space& space, Index begin,
                                                                  Index end, int threads) {
  std::int64_t chunk = 1;
  const std::int64_t items = end > begin ? static_cast<std::int64_t>(end - begin) : 0;
  while (chunk < 128 && chunk * 40 * (threads > 0 ? threads : 1) < items)
    chunk *= 2;
  return Kokkos::RangePolicy<Space, Kokkos::IndexType<Index>>(
      space, begin, end, Kokkos::ChunkSize(static_cast<int>(chunk)));
}

/// Math for kernels: Kokkos' functions, which every backend can call (std:: math is host
/// code to nvcc). Kokkos 3.7 moved them from Kokkos::Experimental into Kokkos.
/// Host builds call the C library through them, bit for bit std::'s; a device computes them
/// with its own library, within the few units in the last place that CUDA documents.
namespace math {
#if KOKKOS_VERSION >= 30700
namespace from = Kokkos;
#else
namespace from = Kokkos::Experimental;
#endif
// Roots, powers, exponentials and logarithms.
using from::cbrt;
using from::exp;
using from::hypot;
using from::log;
using from::pow;
using from::sqrt;
// Trigonometry.
using from::atan2;
using from::cos;
using from::sin;
using from::tan;
// Magnitudes, extremes and rounding.
using from::ceil;
using from::fabs;
using from::floor;
using from::fmax;
using from::fmin;
using from::isfinite;

/// \brief +infinity in a kernel (std::numeric_limits is host code to nvcc unless relaxed
/// constexpr is on).
KOKKOS_INLINE_FUNCTION constexpr double infinity() {
  return HUGE_VAL;
}
} // namespace math

} // namespace hcart
