# Registering hcart's tests.
#
#   hcart_add_unit_test(<name> SOURCES ... [LIBRARIES ...] [LABELS ...] [TIMEOUT s])
#     A GoogleTest executable without MPI, label "unit".
#   hcart_add_mpi_test(<name> SOURCES ... NP 1 2 4 [LIBRARIES ...] [LABELS ...] [TIMEOUT s]
#                      [ARGS ...])
#     One executable with the shared MPI test main (tests/harness), registered once per
#     rank count as <name>.np<N> through the MPI launcher configuration
#     (cmake/HcartMpiLauncher.cmake), label "mpi". Every MPI test has a timeout (default
#     120 s) so that a deadlock fails instead of hanging CI. The rank counts pass through
#     hcart_test_rank_counts.
#   hcart_test_rank_counts(<out> <count>...)
#     The rank counts a build runs: all of them, but in a sanitizer build not 3 or 5 to 7,
#     nor 4 where 8 is among them (1 reaches the paths without a neighbour, 2 messages
#     between ranks and uneven blocks, 4 the 2-D process grids, 8 the 2x2x2 ones, where
#     every face, edge and corner neighbour is another rank, the 2-D grids' paths among
#     them; the others, under AddressSanitizer on a small machine, crowd its cores for no
#     path those do not take; docs/testing.md, "CI"), unless that would leave none.
#   hcart_mpi_program_test(<name> COMMAND ... [LABELS ...] [TIMEOUT s] [PROCESSORS n]
#                          [EXPECT_OUTPUT regex])
#     A test that runs an MPI program (directly or through a script), with the sanitizer
#     settings of MPI programs. EXPECT_OUTPUT: it passes only when the command exits with 0
#     and its output matches (HcartRunAndMatch.cmake; CTest's PASS_REGULAR_EXPRESSION alone
#     would ignore the exit code).
#
# With an OpenMP build of Kokkos every test runs with OMP_WAIT_POLICY=passive and
# OMP_PROC_BIND=false: the suite starts up to 8 ranks on any machine, each with
# OMP_NUM_THREADS threads, and threads that spin at every barrier of an oversubscribed
# machine made a 10-second test take over 5 minutes (measured on 2 cores, 4 ranks x 2
# threads). OMP_NUM_THREADS stays the caller's.
include_guard(GLOBAL)

set(HCART_TEST_DEFAULT_TIMEOUT 120 CACHE STRING "Timeout of one hcart test in seconds")
# MPICH's ranks poll while they wait, so where ranks outnumber cores its runs take several
# times as long as Open MPI's, which yields when oversubscribed (docs/testing.md, "Backends"):
# every timeout is multiplied by HCART_TEST_TIMEOUT_SCALE, 3 with MPICH, else 1.
if(HCART_MPI_FLAVOUR STREQUAL "MPICH")
  set(HCART_TEST_TIMEOUT_SCALE 3 CACHE STRING "Factor applied to every hcart test timeout")
else()
  set(HCART_TEST_TIMEOUT_SCALE 1 CACHE STRING "Factor applied to every hcart test timeout")
endif()
set(HCART_TEST_THREAD_ENV "")
if("OPENMP" IN_LIST Kokkos_DEVICES)
  set(HCART_TEST_THREAD_ENV "OMP_WAIT_POLICY=passive;OMP_PROC_BIND=false")
endif()

# T_TIMEOUT, as a registration asked for it (else the default), times the scale.
macro(hcart_test_timeout)
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT ${HCART_TEST_DEFAULT_TIMEOUT})
  endif()
  math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${HCART_TEST_TIMEOUT_SCALE}")
endmacro()

function(hcart_add_unit_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBRARIES;LABELS" ${ARGN})
  hcart_test_timeout()
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE GTest::gtest_main ${T_LIBRARIES})
  hcart_set_warnings(${name})
  hcart_sanitize(${name})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "unit;${T_LABELS}" TIMEOUT ${T_TIMEOUT}
                                           ENVIRONMENT "${HCART_SANITIZER_ENV_UNIT};${HCART_TEST_THREAD_ENV}")
endfunction()

function(hcart_test_rank_counts out)
  set(counts ${ARGN})
  if(HCART_ENABLE_SANITIZERS)
    if(8 IN_LIST counts)
      list(REMOVE_ITEM counts 4)
    endif()
    list(REMOVE_ITEM counts 3 5 6 7)
    if(NOT counts)
      set(counts ${ARGN})
    endif()
  endif()
  set(${out} ${counts} PARENT_SCOPE)
endfunction()

function(hcart_add_mpi_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBRARIES;LABELS;NP;ARGS" ${ARGN})
  if(NOT T_NP)
    message(FATAL_ERROR "hcart_add_mpi_test(${name}): NP (the rank counts) is required")
  endif()
  hcart_test_rank_counts(T_NP ${T_NP})
  hcart_test_timeout()
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE hcart_test_mpi_main ${T_LIBRARIES})
  hcart_set_warnings(${name})
  hcart_sanitize(${name})
  # The harness's watchdog ends a hung test a little before CTest would.
  math(EXPR watchdog "${T_TIMEOUT} - 10")
  foreach(np IN LISTS T_NP)
    hcart_mpiexec_command(command ${np} $<TARGET_FILE:${name}> ${T_ARGS})
    add_test(NAME ${name}.np${np} COMMAND ${command})
    set_tests_properties(${name}.np${np} PROPERTIES
      LABELS "mpi;${T_LABELS}" TIMEOUT ${T_TIMEOUT} PROCESSORS ${np}
      ENVIRONMENT "HCART_TEST_WATCHDOG_SECONDS=${watchdog};${HCART_SANITIZER_ENV_MPI};${HCART_TEST_THREAD_ENV}")
  endforeach()
endfunction()

function(hcart_mpi_program_test name)
  cmake_parse_arguments(T "" "TIMEOUT;PROCESSORS;EXPECT_OUTPUT" "COMMAND;LABELS" ${ARGN})
  hcart_test_timeout()
  if(NOT T_PROCESSORS)
    set(T_PROCESSORS 1)
  endif()
  if(DEFINED T_EXPECT_OUTPUT)
    list(JOIN T_COMMAND "|" command_bars)
    set(T_COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command_bars}" "-DEXPECT=${T_EXPECT_OUTPUT}"
                  -P ${PROJECT_SOURCE_DIR}/cmake/HcartRunAndMatch.cmake)
  endif()
  add_test(NAME ${name} COMMAND ${T_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT}
                       PROCESSORS ${T_PROCESSORS}
                       ENVIRONMENT "${HCART_SANITIZER_ENV_MPI};${HCART_TEST_THREAD_ENV}")
endfunction()
