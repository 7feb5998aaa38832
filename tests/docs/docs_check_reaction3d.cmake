# docs/tutorial/reaction3d.cpp gives bitwise the same fields on 1 rank and on 4 ranks with
# the mpi strategy and with the hierarchical one on a synthetic 2-node machine.
#   cmake -DPROGRAM=<exe> -DCOMPARE=<hcart-compare> -DLAUNCH_ONE="mpiexec|-n|1|..."
#         -DLAUNCH_MANY="mpiexec|-n|4|..." -DSCRATCH=<dir> -P docs_check_reaction3d.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" LAUNCH_ONE "${LAUNCH_ONE}")
string(REPLACE "|" ";" LAUNCH_MANY "${LAUNCH_MANY}")
file(REMOVE_RECURSE ${SCRATCH})
set(common --set mesh.size=[20,16,12] --set model.steps=16)
function(run name)
  execute_process(COMMAND ${ARGN} ${common} --set output.directory=${SCRATCH}/${name}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "reaction3d: ok")
    message(FATAL_ERROR "${name}: exit ${rc}\n${out}\n${err}")
  endif()
endfunction()
run(one ${LAUNCH_ONE} ${PROGRAM})
run(mpi ${LAUNCH_MANY} ${PROGRAM} --set decomposition.strategy=mpi)
run(hierarchical ${LAUNCH_MANY} ${PROGRAM} "--set" "decomposition.machine=node:2 core:2")
foreach(other mpi hierarchical)
  execute_process(COMMAND ${COMPARE} --bitwise ${SCRATCH}/one/reaction3d.h5 ${SCRATCH}/${other}/reaction3d.h5
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the fields on 1 rank and with ${other} on 4 ranks differ:\n${out}")
  endif()
endforeach()
message(STATUS "reaction3d: the same fields on 1 rank and on 4 ranks with two strategies")
