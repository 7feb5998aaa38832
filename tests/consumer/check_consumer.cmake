# Installs the hcart build tree into a scratch prefix, builds tests/consumer/project
# against it with find_package(hcart), and runs the result on 2 ranks.
#   cmake -DHCART_BUILD=<dir> -DSOURCE=<project> -DSCRATCH=<dir> -DLAUNCH=<list> -P ...
file(REMOVE_RECURSE ${SCRATCH})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()
step(${CMAKE_COMMAND} --install ${HCART_BUILD} --prefix ${SCRATCH}/prefix)
step(${CMAKE_COMMAND} -S ${SOURCE} -B ${SCRATCH}/build -DCMAKE_PREFIX_PATH=${SCRATCH}/prefix)
step(${CMAKE_COMMAND} --build ${SCRATCH}/build)
step(${LAUNCH} ${SCRATCH}/build/consumer)
message("${step_output}")
if(NOT step_output MATCHES "consumer ok")
  message(FATAL_ERROR "the consumer did not report success")
endif()
