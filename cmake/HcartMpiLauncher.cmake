# How hcart launches MPI programs: tests, examples and the README's commands.
#
# Everything comes from FindMPI's MPIEXEC_* variables. Two facts about this machine are
# added here, once, and never in a test: Open MPI refuses to run as root unless told so,
# and refuses more ranks than cores unless oversubscription is allowed (CI machines have
# 2 cores; tests run at up to 8 ranks). MPICH's Hydra needs neither. Two more flags spare
# Open MPI's two-second wait after a rank exits with an error and its search of transport
# layers at every start (below). They are for launches on one machine: a cluster's job
# script names its own launcher and flags.
#
# Results:
#   HCART_MPIEXEC_PREFLAGS   MPIEXEC_PREFLAGS plus the flags above (a list)
#   hcart_mpiexec_command(<var> <np> <executable> [args...])
#   ${PROJECT_BINARY_DIR}/bin/hcart-mpiexec   a wrapper: hcart-mpiexec -n 2 prog args
include_guard(GLOBAL)

set(HCART_MPIEXEC_PREFLAGS ${MPIEXEC_PREFLAGS})
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version
                OUTPUT_VARIABLE _hcart_mpiexec_version ERROR_VARIABLE _hcart_mpiexec_version
                RESULT_VARIABLE _hcart_rc TIMEOUT 30)
if(_hcart_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(HCART_MPI_FLAVOUR "OpenMPI")
  # A job whose ranks exit with an error ends at once: by default Open MPI's launcher then
  # "kills" the job's processes, waiting a second after each signal, also when they have
  # all exited (2.0 s of each of the suite's ~100 bad-input runs).
  list(APPEND HCART_MPIEXEC_PREFLAGS --oversubscribe --mca odls_base_sigkill_timeout 0)
  # The point-to-point layer named, not chosen: left to choose, every rank opens and
  # initialises each transport layer Debian's Open MPI carries (UCX, libfabric) before it
  # picks ob1 on one machine, 0.2 s of every launch (0.45 s for an MPI program that only
  # starts and stops, 0.26 s with the flag; the suite makes about 600 launches).
  list(APPEND HCART_MPIEXEC_PREFLAGS --mca pml ob1)
  execute_process(COMMAND id -u OUTPUT_VARIABLE _hcart_uid OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_hcart_uid STREQUAL "0")
    list(APPEND HCART_MPIEXEC_PREFLAGS --allow-run-as-root)
  endif()
elseif(_hcart_mpiexec_version MATCHES "HYDRA|MPICH")
  set(HCART_MPI_FLAVOUR "MPICH")
else()
  set(HCART_MPI_FLAVOUR "unknown")
endif()
message(STATUS "hcart: MPI launcher ${MPIEXEC_EXECUTABLE} (${HCART_MPI_FLAVOUR}), "
               "flags: ${HCART_MPIEXEC_PREFLAGS}")

function(hcart_mpiexec_command var np executable)
  set(${var} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${HCART_MPIEXEC_PREFLAGS}
             ${executable} ${MPIEXEC_POSTFLAGS} ${ARGN} PARENT_SCOPE)
endfunction()

list(JOIN HCART_MPIEXEC_PREFLAGS " " HCART_MPIEXEC_PREFLAGS_STRING)
configure_file(${CMAKE_CURRENT_LIST_DIR}/hcart-mpiexec.in ${PROJECT_BINARY_DIR}/bin/hcart-mpiexec
               @ONLY FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
               GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# Installed beside the tools, so that a project built against an installed hcart launches
# the way the README does.
install(PROGRAMS ${PROJECT_BINARY_DIR}/bin/hcart-mpiexec DESTINATION ${CMAKE_INSTALL_BINDIR})
