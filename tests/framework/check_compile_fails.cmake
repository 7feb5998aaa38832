# Builds TARGET in BUILD and passes when the build fails with at least EXPECT errors that
# name a deleted function (each misuse of tests/framework/compile/Lifetimes.cpp is one):
# GCC's "use of deleted function", Clang's "call to deleted constructor" / "member
# function", nvcc's "it is a deleted function".
#   cmake -DBUILD=<dir> -DTARGET=<target> -DEXPECT=<n> -P check_compile_fails.cmake
# A build carried to another machine without its build system (scripts/gpu-pack.sh leaves out
# CMakeFiles) cannot compile anything: the test says so and is skipped.
cmake_minimum_required(VERSION 3.20)
if(NOT IS_DIRECTORY ${BUILD}/CMakeFiles)
  message("${BUILD} has no build system here (a carried build): skipped")
  return()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} --target ${TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${TARGET} compiled: a temporary was accepted where a reference is kept")
endif()
string(REGEX MATCHALL "(use of|call to|it is a) deleted (function|constructor|member function)" hits
       "${out}${err}")
list(LENGTH hits n)
if(n LESS EXPECT)
  message("${out}${err}")
  message(FATAL_ERROR "${TARGET}: ${n} errors naming a deleted function, expected ${EXPECT}")
endif()
message("${TARGET}: ${n} errors naming a deleted function, as expected")
