# Installs the hcart build tree into a scratch prefix, builds tests/consumer/project
# against it with find_package(hcart) — a plan check and the API guide's reaction3d — and
# runs both on 2 ranks, reaction3d through the installed hcart-mpiexec. With OTHER_MPI_CXX
# (another MPI's C++ wrapper), a consumer naming that MPI must fail to configure and be told
# which MPI hcart was built with.
#   cmake -DHCART_BUILD=<dir> -DSOURCE=<project> -DREACTION3D=<reaction3d.cpp> -DSCRATCH=<dir>
#         -DLAUNCH="mpiexec|-n|2" [-DOTHER_MPI_CXX=<wrapper>] -P ...
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

if(OTHER_MPI_CXX)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${SCRATCH}/build-other-mpi
                          -DCMAKE_PREFIX_PATH=${SCRATCH}/prefix -DMPI_CXX_COMPILER=${OTHER_MPI_CXX}
                          -DREACTION3D_SOURCE=${REACTION3D}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "a consumer naming ${OTHER_MPI_CXX} configured against hcart built with "
                        "another MPI")
  endif()
  if(NOT err MATCHES "hcart was built with the MPI of")
    message(FATAL_ERROR "a consumer naming ${OTHER_MPI_CXX} failed without saying which MPI "
                        "hcart needs:\n${out}\n${err}")
  endif()
  message("a consumer naming ${OTHER_MPI_CXX}: refused, as it should be")
endif()
