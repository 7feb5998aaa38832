# Runs a program with each of several bad argument lists and checks that every run ends
# with exit code 2 and exactly one line on stderr that starts with "<program>: error:";
# a line "ARGS => TEXT" also wants TEXT in that error line.
#   cmake -DPROGRAM=<exe> -DNAME=<name> -DCASES_FILE=<file with one argument list per line>
#         [-DLAUNCH="mpiexec|-n|2|flags"] -P check_bad_input.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" LAUNCH "${LAUNCH}")
file(STRINGS ${CASES_FILE} cases)
set(failures 0)
foreach(case IN LISTS cases)
  if(case MATCHES "^#" OR case STREQUAL "")
    continue()
  endif()
  set(expect "")
  if(case MATCHES "^(.*) => (.*)$")
    set(case "${CMAKE_MATCH_1}")
    set(expect "${CMAKE_MATCH_2}")
  endif()
  separate_arguments(args UNIX_COMMAND "${case}")
  execute_process(COMMAND ${LAUNCH} ${PROGRAM} ${args} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  # Launchers add their own lines; keep the program's (a ';' in a message would split it).
  string(REPLACE ";" "," err "${err}")
  string(REGEX MATCHALL "${NAME}: error[^\n]*" lines "${err}")
  list(LENGTH lines count)
  string(FIND "${lines}" "${expect}" found)
  if(NOT rc EQUAL 2 OR NOT count EQUAL 1 OR found EQUAL -1)
    message(SEND_ERROR "[${case}]: exit '${rc}', ${count} error lines, expected exit 2 and "
                       "one line\nstderr: ${err}")
    math(EXPR failures "${failures} + 1")
  else()
    message(STATUS "[${case}] -> ${lines}")
  endif()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} bad inputs were not rejected properly")
endif()
