# Runs the failure probe on 2 ranks and checks that each scenario ends on time with a
# failure, on every rank, and the message of rank 1 shown.
#   cmake -DPROBE=<exe> -DLAUNCH="mpiexec|-n|2|flags" -P check_failure_probe.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" LAUNCH "${LAUNCH}")
function(run_probe filter limit)
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${LAUNCH} ${PROBE} --gtest_filter=${filter}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT ${limit})
  string(TIMESTAMP stop "%s")
  math(EXPR elapsed "${stop} - ${start}")
  message("---- ${filter}: exit '${rc}' after ${elapsed} s\n${out}${err}")
  if(rc MATCHES "timeout")
    message(FATAL_ERROR "${filter}: the job hung (killed after ${limit} s)")
  endif()
  if(rc EQUAL 0)
    message(FATAL_ERROR "${filter}: the job succeeded although rank 1 failed")
  endif()
  foreach(pattern IN LISTS ARGN)
    if(NOT "${out}${err}" MATCHES "${pattern}")
      message(FATAL_ERROR "${filter}: output lacks '${pattern}'")
    endif()
  endforeach()
endfunction()

set(ENV{HCART_TEST_FAILURE_GRACE_SECONDS} 5)
set(ENV{GTEST_COLOR} no)
# Rank 0 passes, rank 1 fails: rank 0 must report the test as failed, the run continues
# to the next test, and the job exits non-zero.
run_probe("FailureProbe.FailsOnRankOneOnly:FailureProbe.PassesAfterwards" 60
          "deliberate failure on rank 1" "failed on 1 of 2 ranks"
          "FAILED[^\n]*FailureProbe.FailsOnRankOneOnly" "OK[^\n]*FailureProbe.PassesAfterwards")
# Rank 0 waits in a barrier rank 1 never enters: the watchdog must end the job.
run_probe("FailureProbe.FatalOnRankOneWhileOthersWait" 60
          "deliberate fatal failure on rank 1" "ending the job")
