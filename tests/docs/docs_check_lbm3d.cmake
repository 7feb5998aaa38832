# docs/tutorial/lbm3d.cpp (the LBM example, docs/lbm.md) gives bitwise the same populations
# on 1 rank and on 3 and 4 ranks with three strategies, periodic and with walls, and with
# one row per rank between walls; and a run
# that stops at a checkpoint and restarts from it on another rank count ends with the same
# bits as the straight run. Every run also passes its own check of the viscosity.
#   cmake -DPROGRAM=<lbm3d> -DCOMPARE=<hcart-compare> -DLAUNCH="mpiexec|-n" -DLAUNCH_TAIL="..."
#         -DSCRATCH=<dir> -P docs_check_lbm3d.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" LAUNCH "${LAUNCH}")
string(REPLACE "|" ";" LAUNCH_TAIL "${LAUNCH_TAIL}")
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
set(common --size 20,24,12 --steps 60 --tolerance 0.05)
function(run name ranks)
  execute_process(COMMAND ${LAUNCH} ${ranks} ${LAUNCH_TAIL} ${PROGRAM} ${common} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "lbm3d: ok")
    message(FATAL_ERROR "${name}: exit ${rc}\n${out}\n${err}")
  endif()
endfunction()
function(same first second what)
  execute_process(COMMAND ${COMPARE} --bitwise ${first} ${second}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "the same \\(bitwise")
    message(FATAL_ERROR "${what}: the populations differ:\n${out}\n${err}")
  endif()
endfunction()
foreach(walls "" "--walls")
  set(tag periodic)
  if(walls)
    set(tag walls)
  endif()
  run(${tag}-one 1 ${walls} --output ${SCRATCH}/${tag}-one.h5)
  run(${tag}-mpi 3 ${walls} --strategy mpi --output ${SCRATCH}/${tag}-mpi.h5)
  run(${tag}-weighted 4 ${walls} --strategy weighted --output ${SCRATCH}/${tag}-weighted.h5)
  run(${tag}-hierarchical 4 ${walls} --output ${SCRATCH}/${tag}-hierarchical.h5)
  foreach(other mpi weighted hierarchical)
    same(${SCRATCH}/${tag}-one.h5 ${SCRATCH}/${tag}-${other}.h5 "${tag}: 1 rank against ${other}")
  endforeach()
endforeach()
# One row per rank between the walls (3 ranks stacked in y): the bottom rank's row touches
# the lower wall only, the top rank's the upper one, the middle rank's neither.
set(common --size 8,3,6 --steps 20 --tolerance 10)
run(rows-one 1 --walls --output ${SCRATCH}/rows-one.h5)
run(rows-three 3 --walls --dims 1,3,1 --output ${SCRATCH}/rows-three.h5)
same(${SCRATCH}/rows-one.h5 ${SCRATCH}/rows-three.h5 "one row per rank between walls")
set(common --size 20,24,12 --steps 60 --tolerance 0.05)
# Stop at step 30 on 2 ranks, restart on 3: the straight run's bits.
run(first-half 2 --walls --checkpoint ${SCRATCH}/checkpoint.h5 --checkpoint-at 30
    --output ${SCRATCH}/unused.h5)
run(restarted 3 --walls --restart ${SCRATCH}/checkpoint.h5 --output ${SCRATCH}/restarted.h5)
same(${SCRATCH}/walls-one.h5 ${SCRATCH}/restarted.h5 "a restart on 3 ranks")
message(STATUS "lbm3d: the same populations on 1, 3 and 4 ranks, three strategies, and restarted")
