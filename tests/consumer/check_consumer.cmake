# Installs the hcart build tree into a scratch prefix, builds tests/consumer/project
# against it with find_package(hcart) — a plan check and the API guide's reaction3d — and
# runs both on 2 ranks, reaction3d through the installed hcart-mpiexec.
#   cmake -DHCART_BUILD=<dir> -DSOURCE=<project> -DREACTION3D=<reaction3d.cpp> -DSCRATCH=<dir>
#         -DLAUNCH="mpiexec|-n|2" -P ...
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" LAUNCH "${LAUNCH}")
file(REMOVE_RECURSE ${SCRATCH})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()
step(${CMAKE_COMMAND} --install ${HCART_BUILD} --prefix ${SCRATCH}/prefix)
step(${CMAKE_COMMAND} -S ${SOURCE} -B ${SCRATCH}/build -DCMAKE_PREFIX_PATH=${SCRATCH}/prefix
     -DREACTION3D_SOURCE=${REACTION3D})
step(${CMAKE_COMMAND} --build ${SCRATCH}/build)
step(${LAUNCH} ${SCRATCH}/build/consumer)
message("${step_output}")
if(NOT step_output MATCHES "consumer ok")
  message(FATAL_ERROR "the consumer did not report success")
endif()
if(NOT EXISTS ${SCRATCH}/prefix/bin/hcart-mpiexec)
  message(FATAL_ERROR "hcart-mpiexec was not installed")
endif()
step(${SCRATCH}/prefix/bin/hcart-mpiexec -n 2 ${SCRATCH}/build/reaction3d
     --set mesh.size=[16,12,12] --set model.steps=8 --set output.directory=${SCRATCH}/out)
message("${step_output}")
if(NOT step_output MATCHES "reaction3d: ok")
  message(FATAL_ERROR "the installed reaction3d did not report success")
endif()
