# `h5ls -r` of a Jacobi3D output file and checkpoint shows the structure docs/output.md
# documents: /, /fields, /fields/u {mesh}, and /state in checkpoints.
#   cmake -DPROGRAM=<jacobi3d> -DDECK=<deck> -DSCRATCH=<dir> -P check_h5ls.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${SCRATCH})
execute_process(COMMAND ${PROGRAM} ${DECK} --set mesh.size=[12,10,8] --set jacobi.max_iterations=4
                        --set output.every=4 --set output.checkpoint_every=4
                        --set output.directory=${SCRATCH} --set output.timers_json=""
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "jacobi3d failed: ${err}")
endif()
foreach(pair "jacobi3d_00000004.h5|^/ +Group\n/fields +Group\n/fields/u +Dataset {12, 10, 8}\n$"
             "checkpoint_00000004.h5|^/ +Group\n/fields +Group\n/fields/u +Dataset {12, 10, 8}\n/state +Group\n$")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 pattern)
  execute_process(COMMAND h5ls -r ${SCRATCH}/${name} RESULT_VARIABLE rc OUTPUT_VARIABLE listing)
  if(NOT rc EQUAL 0 OR NOT listing MATCHES "${pattern}")
    message(FATAL_ERROR "h5ls -r ${name} (exit ${rc}):\n${listing}\ndoes not match\n${pattern}")
  endif()
  message(STATUS "h5ls -r ${name}:\n${listing}")
endforeach()
foreach(name jacobi3d_00000004.xmf jacobi3d.xmf)
  if(NOT EXISTS ${SCRATCH}/${name})
    message(FATAL_ERROR "${name} was not written")
  endif()
endforeach()
