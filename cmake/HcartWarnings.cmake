# Warnings that catch real bugs, on hcart's own targets only (never global flags), and no
# contraction of a * b + c into fused multiply-adds: hcart promises results that are bitwise
# the same for every decomposition, and different code paths (host rows, device policies,
# the tests' serial references) must round the same way whatever the target CPU.
include_guard(GLOBAL)
# In a CUDA build (nvcc through Kokkos' nvcc_wrapper) the device code is compiled without
# fused multiply-adds too (--fmad=false), so the device rounds each product and sum like
# the host does; nvcc_wrapper hands the other flags to the host compiler (and drops
# -Wpedantic, which nvcc's preprocessed output cannot satisfy). nvcc's front end turns some
# host lambdas into local typedefs it never uses; -Wno-unused-local-typedefs keeps that
# artefact of the compiler out of the warnings.
function(hcart_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wnon-virtual-dtor -Wshadow=local
                                             -Wpedantic -ffp-contract=off)
  endif()
  if(HCART_KOKKOS_CUDA)
    target_compile_options(${target} PRIVATE --fmad=false -Wno-unused-local-typedefs)
  endif()
endfunction()

# hcart_host_only(<source>...): in a CUDA build, these sources of the current directory are
# compiled by the host compiler alone (nvcc_wrapper --host-only): they include no Kokkos
# header and hold no kernel, and nvcc's front ends would only spend time on them (about
# half of hcart's translation units; 20-40 s each through nvcc on 2 cores).
function(hcart_host_only)
  if(HCART_KOKKOS_CUDA)
    set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS --host-only)
  endif()
endfunction()
