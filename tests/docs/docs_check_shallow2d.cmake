# docs/tutorial/shallow2d.cpp gives the same state, bit for bit (its checksum of the state's
# bit patterns), on 1 to 6 ranks and with two strategies, and sends the bytes and messages
# of a hand-written exchange by direction each time (the program prints "shallow2d: ok" only
# then).
#   cmake -DPROGRAM=<exe> -DLAUNCH="mpiexec|-n|@N@|..." -P docs_check_shallow2d.cmake
cmake_minimum_required(VERSION 3.20)
set(reference "")
foreach(run 1 2 3 4 5 6 4-mpi)
  string(REGEX REPLACE "-.*" "" np ${run})
  set(extra "")
  if(run MATCHES "mpi")
    set(extra --strategy mpi)
  endif()
  string(REPLACE "@N@" ${np} launch "${LAUNCH}")
  string(REPLACE "|" ";" launch "${launch}")
  execute_process(COMMAND ${launch} ${PROGRAM} --nx 48 --nz 36 --steps 24 ${extra}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "shallow2d: ok")
    message(FATAL_ERROR "${run} ranks: exit ${rc}\n${out}\n${err}")
  endif()
  string(REGEX MATCH "state checksum ([0-9a-f]+)" found "${out}")
  if(reference STREQUAL "")
    set(reference ${CMAKE_MATCH_1})
  elseif(NOT CMAKE_MATCH_1 STREQUAL reference)
    message(FATAL_ERROR "${run} ranks: checksum ${CMAKE_MATCH_1}, on 1 rank ${reference}\n${out}")
  endif()
endforeach()
message(STATUS "shallow2d: checksum ${reference} on 1 to 6 ranks and with the mpi strategy")
