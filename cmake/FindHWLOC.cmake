# FindHWLOC: hwloc 2.x through pkg-config (hwloc installs no CMake package), as the imported
# target HWLOC::hwloc. Installed with hcart, so that hcart's package config finds it with
# find_dependency like every other dependency.
#
#   find_package(HWLOC 2.0)   ->  HWLOC_FOUND, HWLOC_VERSION, target HWLOC::hwloc
include(FindPackageHandleStandardArgs)
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(_HWLOC_PC QUIET hwloc)
endif()
find_path(HWLOC_INCLUDE_DIR hwloc.h HINTS ${_HWLOC_PC_INCLUDE_DIRS})
find_library(HWLOC_LIBRARY NAMES hwloc HINTS ${_HWLOC_PC_LIBRARY_DIRS})
set(HWLOC_VERSION ${_HWLOC_PC_VERSION})
find_package_handle_standard_args(HWLOC REQUIRED_VARS HWLOC_LIBRARY HWLOC_INCLUDE_DIR
                                  VERSION_VAR HWLOC_VERSION)
if(HWLOC_FOUND AND NOT TARGET HWLOC::hwloc)
  add_library(HWLOC::hwloc UNKNOWN IMPORTED)
  set_target_properties(HWLOC::hwloc PROPERTIES IMPORTED_LOCATION "${HWLOC_LIBRARY}"
                                                INTERFACE_INCLUDE_DIRECTORIES "${HWLOC_INCLUDE_DIR}")
endif()
mark_as_advanced(HWLOC_INCLUDE_DIR HWLOC_LIBRARY)
