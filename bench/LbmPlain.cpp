// The LBM example's D3Q19 step (docs/tutorial/D3Q19.hpp) as a plain loop on raw pointers,
// for hcart-bench-user-kernels. Compiled twice (bench/CMakeLists.txt): with the build's flags
// (LBM_PLAIN = lbm_plain_default) and with -march=native -ffp-contract=off (lbm_plain_native:
// what a user compiles by hand). Both without contraction into fused multiply-adds
// (-ffp-contract=off), so that they compute the same bits as hcart's kernel and the
// benchmark can check them. Only lbm:: inline functions are used here, each object's in an
// inline namespace of its own (LBM_FLAVOUR), and no Kokkos function: the linker cannot take
// code compiled for the host's instruction set for the other objects.
#include "D3Q19.hpp"

#include <cstdint>

#ifndef LBM_PLAIN
#error "define LBM_PLAIN, the function's name"
#endif

// Rows j in [j0, j1), cells k in [k0, k1) of plane i: g = collide(pull(f)). sc, si, sj: the
// strides of a component, of i and of j, in elements.
void LBM_PLAIN(const double* f, double* g, std::int64_t sc, std::int64_t si, std::int64_t sj, int i,
               int j0, int j1, int k0, int k1, const std::int64_t* from, double omega) {
  for (int j = j0; j < j1; ++j) {
    const std::int64_t row = i * si + j * sj;
    for (int k = k0; k < k1; ++k) {
      const std::int64_t x = row + k;
      double p[lbm::kQ];
      lbm::each_q([&](auto q) {
        constexpr int Q = decltype(q)::value;
        p[Q] = f[Q * sc + x + from[Q]];
      });
      lbm::collide(p, omega);
      lbm::each_q([&](auto q) {
        constexpr int Q = decltype(q)::value;
        g[Q * sc + x] = p[Q];
      });
    }
  }
}
