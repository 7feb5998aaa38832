# Runs the local-error probe (LocalErrorProbe.cpp) in each mode on 3 ranks and checks how
# the job ends: a failure every rank saw is one line and exit code 2, without MPI_Abort;
# one that some ranks saw, or different failures, end with each failing rank's line and a
# non-zero exit, on time.
#   cmake -DPROBE=<exe> -DLAUNCH="mpiexec|-n|3|flags" -P check_local_errors.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" LAUNCH "${LAUNCH}")
set(ENV{HCART_ERROR_WAIT_SECONDS} 2)
function(run_probe mode)
  execute_process(COMMAND ${LAUNCH} ${PROBE} ${mode} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 60)
  message("---- ${mode}: exit '${rc}'\n${out}${err}")
  if(rc MATCHES "timeout")
    message(FATAL_ERROR "${mode}: the job hung")
  endif()
  set(all "${out}${err}")
  string(REGEX MATCHALL "local-error-probe: error[^\n]*" lines "${all}")
  list(LENGTH lines count)
  set(rc ${rc} PARENT_SCOPE)
  set(all "${all}" PARENT_SCOPE)
  set(lines "${lines}" PARENT_SCOPE)
  set(count ${count} PARENT_SCOPE)
endfunction()

run_probe(every)
if(NOT rc EQUAL 2 OR NOT count EQUAL 1 OR NOT lines MATCHES
   "^local-error-probe: error: hcart::PhysicalBoundaries::apply: field 'v' has extents [0-9x]+, expected the grid's [0-9x]+ \\(on every rank, with rank 0's values\\)$"
   OR all MATCHES "MPI_ABORT")
  message(FATAL_ERROR "every: expected one line of rank 0's misfit and exit code 2, no abort")
endif()
run_probe(same)
if(NOT rc EQUAL 2 OR NOT count EQUAL 1 OR NOT lines STREQUAL
   "local-error-probe: error: the same failure on every rank" OR all MATCHES "MPI_ABORT")
  message(FATAL_ERROR "same: expected one line and exit code 2, no abort")
endif()
run_probe(one)
if(rc EQUAL 0 OR NOT count EQUAL 1 OR NOT lines MATCHES "^local-error-probe: error \\(rank 1\\): hcart::PhysicalBoundaries::apply: field 'v'")
  message(FATAL_ERROR "one: expected rank 1's line and a failed job")
endif()
run_probe(different)
if(rc EQUAL 0 OR NOT all MATCHES "error \\(rank 0\\): a failure of rank 0" OR NOT all MATCHES
   "error \\(rank [12]\\): another kind of failure" OR all MATCHES "on every rank")
  message(FATAL_ERROR "different: expected each rank's line and a failed job")
endif()
