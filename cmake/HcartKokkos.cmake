# Provide a working target Kokkos::kokkos whatever Kokkos install is found.
#
# A standalone Kokkos (3.x or 4.x) exports Kokkos::kokkos itself, and it is used as is.
# Debian and Ubuntu ship Kokkos inside Trilinos: the real libraries are the imported
# targets trilinos_kokkoscore / trilinos_kokkoscontainers, the headers sit in
# Kokkos_INCLUDE_DIRS, and the Kokkos::kokkos the package defines (where it defines one at
# all) points at a nonexistent include directory and links a stray -DKOKKOS_DEPENDENCE. For
# that flavour this module creates or repairs Kokkos::kokkos (its include directory and
# libraries; its compile options stay Kokkos') so that hcart's code and its consumers never
# see the difference.
# It is installed with hcart and included by hcartConfig.cmake.
include_guard(GLOBAL)

if(NOT TARGET Kokkos::kokkos AND NOT TARGET trilinos_kokkoscore)
  find_package(Kokkos REQUIRED)
endif()

if(TARGET trilinos_kokkoscore)
  set(_hcart_kokkos_libs trilinos_kokkoscore)
  if(TARGET trilinos_kokkoscontainers)
    list(APPEND _hcart_kokkos_libs trilinos_kokkoscontainers)
  endif()
  if(NOT TARGET Kokkos::kokkos)
    add_library(Kokkos::kokkos INTERFACE IMPORTED)
  endif()
  # The include directory and the libraries are repaired; Kokkos' own compile options and
  # features are left as the package set them.
  set_target_properties(Kokkos::kokkos PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${Kokkos_INCLUDE_DIRS}"
    INTERFACE_LINK_LIBRARIES "${_hcart_kokkos_libs}")
  get_target_property(_hcart_features Kokkos::kokkos INTERFACE_COMPILE_FEATURES)
  if(NOT _hcart_features)
    set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_COMPILE_FEATURES "cxx_std_14")
  endif()
  unset(_hcart_features)
  unset(_hcart_kokkos_libs)
  set(HCART_KOKKOS_FLAVOUR "Trilinos")
elseif(TARGET Kokkos::kokkos)
  set(HCART_KOKKOS_FLAVOUR "standalone")
else()
  message(FATAL_ERROR "Found Kokkos at ${Kokkos_DIR}, but it defines neither Kokkos::kokkos "
                      "nor trilinos_kokkoscore")
endif()
# Whether kernels run on a CUDA device: hcart's targets then compile device code without
# fused multiply-adds (HcartWarnings.cmake).
set(HCART_KOKKOS_CUDA OFF)
if("CUDA" IN_LIST Kokkos_DEVICES)
  set(HCART_KOKKOS_CUDA ON)
endif()
message(STATUS "hcart: Kokkos ${Kokkos_VERSION} (${HCART_KOKKOS_FLAVOUR} package; devices "
               "${Kokkos_DEVICES})")
