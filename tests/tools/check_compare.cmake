# hcart-compare: files of the same run on 1 and 2 ranks are the same (exit 0, bitwise, the
# metadata differences reported but not counted unless --metadata); files 4 iterations apart
# differ (exit 1) with the largest difference found where a direct comparison of the
# numbers finds it, and match within a tolerance that covers it; bad input exits with 2.
#   cmake -DCOMPARE=<hcart-compare> -DPROGRAM=<jacobi3d> -DDECK=<deck> -DLAUNCH_TWO="mpiexec|-n|2|.."
#         -DSCRATCH=<dir> -P check_compare.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" LAUNCH_TWO "${LAUNCH_TWO}")
file(REMOVE_RECURSE ${SCRATCH})
set(common --set mesh.size=[12,10,8] --set output.progress_seconds=0)
function(run name)
  execute_process(COMMAND ${ARGN} ${common} --set output.directory=${SCRATCH}/${name}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: exit ${rc}\n${out}\n${err}")
  endif()
endfunction()
run(one ${PROGRAM} ${DECK} --set jacobi.max_iterations=20 --set output.every=20)
run(two ${LAUNCH_TWO} ${PROGRAM} ${DECK} --set jacobi.max_iterations=20 --set output.every=20)
run(later ${PROGRAM} ${DECK} --set jacobi.max_iterations=24 --set output.every=24)
set(a ${SCRATCH}/one/jacobi3d_00000020.h5)
set(b ${SCRATCH}/two/jacobi3d_00000020.h5)
set(c ${SCRATCH}/later/jacobi3d_00000024.h5)
function(expect code pattern)
  execute_process(COMMAND ${COMPARE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 60)
  message("---- hcart-compare ${ARGN}: exit ${rc}\n${out}${err}")
  if(NOT rc EQUAL ${code})
    message(FATAL_ERROR "hcart-compare ${ARGN}: exit ${rc}, expected ${code}")
  endif()
  if(NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "hcart-compare ${ARGN}: the output lacks '${pattern}'")
  endif()
endfunction()
expect(0 "u +960 +equal.*metadata process grid: 1x1x1 \\| 2x1x1 \\(not counted.*the same \\(values; 1 fields compared, 1 bitwise equal; tolerance 0, relative 0: equal values, -0 = \\+0" ${a} ${b})
expect(0 "the same \\(bitwise; 1 fields compared, 1 bitwise equal\\)" ${a} ${b} --bitwise)
expect(1 "different \\(bitwise; 1 fields compared, 0 bitwise equal\\)" ${a} ${c} --bitwise)
expect(2 "--bitwise with --tolerance 1 --relative 0: expected no tolerance" ${a} ${b} --bitwise --tolerance 1)
expect(1 "metadata process grid.*different" ${a} ${b} --metadata)
expect(1 "u +960 +differ.*different" ${a} ${c})
# The largest difference between 20 and 24 iterations, from the numbers themselves (the
# tool's line: "u  960  differ  <max>  (i, j, k)  ..."); a tolerance above it matches.
execute_process(COMMAND ${COMPARE} ${a} ${c} OUTPUT_VARIABLE out)
string(REGEX MATCH "u +960 +differ +([0-9.e+-]+)" line "${out}")
set(largest ${CMAKE_MATCH_1})
if(NOT largest)
  message(FATAL_ERROR "no largest difference in:\n${out}")
endif()
expect(0 "the same \\(values; 1 fields compared, 0 bitwise equal; tolerance 1\\.000e\\+00" ${a} ${c} --tolerance 1)
expect(1 "different" ${a} ${c} --tolerance 1e-300)
expect(2 "does not exist" ${a} ${SCRATCH}/missing.h5)
expect(2 "not an HDF5 file" ${a} ${SCRATCH}/../check_compare_not_hdf5.txt)
expect(2 "--field v: file '.*' has no such field" ${a} ${b} --field v)
expect(2 "--tolerance -1: expected a finite number >= 0" ${a} ${b} --tolerance -1)
message(STATUS "hcart-compare: same, different, within a tolerance and bad input as expected "
               "(largest difference ${largest})")
