// The reference hcart's device sweep is measured against (hcart-bench-jacobi --roofline on a
// CUDA build): Jacobi's 7-point sweep as a plain CUDA code writes it, raw restrict pointers
// and index arithmetic, one thread per cell, blocks of 128 along k x 2 along j x 1, the grid's
// z the planes along i, launched with <<<>>> on Kokkos' stream. Its update is Jacobi3D's own
// (hcart::jacobi::update), so its result is bitwise hcart's and only the launch and the
// indexing differ. Compiled only where nvcc compiles the unit for a CUDA build.
#pragma once

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#define HCART_BENCH_PLAIN_CUDA 1

#include "PointUpdates.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Box.hpp>
#include <hcart/grid/Field.hpp>

namespace hcart::bench {

__global__ void __launch_bounds__(256)
    plain_cuda_sweep(const double* __restrict__ u, double* __restrict__ v, long si, long sj, int i0,
                     int j0, int k0, int nj, int nk, hcart::jacobi::Stencil s) {
  const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int j = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (k >= nk || j >= nj) return;
  const long c = (i0 + static_cast<long>(blockIdx.z)) * si + (j0 + j) * sj + (k0 + k);
  v[c] =
      hcart::jacobi::update(u[c - si], u[c + si], u[c - sj], u[c + sj], u[c - 1], u[c + 1], 0.0, s);
}

/// \brief v = the sweep of u over `box` (cells along k contiguous), not waited for.
inline void plain_cuda_sweep(const Field<double>& u, const Field<double>& v, const Box& box,
                             const hcart::jacobi::Stencil& s) {
  HCART_CHECK(u.stride(2) == 1 && v.stride(0) == u.stride(0) && v.stride(1) == u.stride(1),
              "plain_cuda_sweep: fields with k contiguous and the same strides");
  const dim3 block(128, 2, 1);
  const dim3 grid(static_cast<unsigned>((box.extent(2) + 127) / 128),
                  static_cast<unsigned>((box.extent(1) + 1) / 2),
                  static_cast<unsigned>(box.extent(0)));
  plain_cuda_sweep<<<grid, block, 0, Kokkos::Cuda().cuda_stream()>>>(
      u.data(), v.data(), static_cast<long>(u.stride(0)), static_cast<long>(u.stride(1)), box.lo[0],
      box.lo[1], box.lo[2], box.extent(1), box.extent(2), s);
  const cudaError_t error = cudaGetLastError();
  HCART_CHECK(error == cudaSuccess, "plain_cuda_sweep: " << cudaGetErrorString(error));
}

} // namespace hcart::bench

#else
#define HCART_BENCH_PLAIN_CUDA 0
#endif
