// HCART_HOST_CLONES: compile a host loop once per instruction set and let the loader pick.
//
// Debian builds for the x86-64 baseline, whose vectors hold two doubles; a stencil row loop
// compiled for AVX2 runs up to 1.4x faster on machines that have it (docs/benchmarks.md).
// Raising the instruction set globally (-march=native) would make binaries that stop on
// older machines and changes every target's flags. Instead, a function marked
// HCART_HOST_CLONES is built twice, for AVX2 and for the baseline, and the dynamic loader
// (GNU ifunc) binds the best one the running machine supports. FMA is not in the AVX2
// clone, so both clones evaluate the same roundings and results stay bitwise equal.
//
// Mark out-of-line functions only (not inline or templates), with raw-pointer loops that
// the compiler can vectorise. Elsewhere the macro expands to nothing, and in files that
// nvcc compiles (a CUDA build runs the portable kernels, not the host rows).
#pragma once

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) &&                              \
    (!defined(__clang__) || __clang_major__ >= 14) && !defined(__CUDACC__) &&                      \
    !defined(HCART_NO_HOST_CLONES)
#define HCART_HOST_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define HCART_HOST_CLONES
#endif
