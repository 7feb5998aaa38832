# Runs a command and passes when it exits with 0 AND its output matches a regular expression
# (CTest's PASS_REGULAR_EXPRESSION alone ignores the exit code).
#   cmake "-DCOMMAND=prog|arg|..." "-DEXPECT=regex" -P HcartRunAndMatch.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit code ${rc}, expected 0")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "the output does not match '${EXPECT}'")
endif()
