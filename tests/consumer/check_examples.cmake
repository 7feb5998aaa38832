# Installs the hcart build tree into a scratch prefix and builds the C and Fortran examples
# (examples/) against it twice: with CMake (find_package(hcart COMPONENTS cart)) and with
# their Makefiles (MPI's wrappers and pkg-config hcart-cart). Runs every build on the
# launcher's ranks, each with hcart's grid and with MPI_Dims_create's: every run must print
# the same last change and centre value (the same bits: the answer depends neither on the
# grid nor on the language). FORTRAN: ON when hcart built its Fortran module.
# With OTHER_MPI_C (and OTHER_MPI_FORTRAN), the other MPI's wrappers: configuring the
# examples with them must fail, saying which MPI hcart was built with.
#   cmake -DHCART_BUILD=<dir> -DEXAMPLES=<examples dir> -DSCRATCH=<dir> -DMPICC=<wrapper>
#         -DMPIFC=<wrapper> -DFORTRAN=ON|OFF -DLAUNCH="mpiexec|-n|4"
#         [-DOTHER_MPI_C=<wrapper> -DOTHER_MPI_FORTRAN=<wrapper>] -P ...
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
if(NOT EXISTS ${SCRATCH}/prefix/lib/pkgconfig/hcart-cart.pc)
  message(FATAL_ERROR "hcart-cart.pc was not installed")
endif()

# CMake.
step(${CMAKE_COMMAND} -S ${EXAMPLES} -B ${SCRATCH}/cmake -DCMAKE_PREFIX_PATH=${SCRATCH}/prefix
     -DMPI_C_COMPILER=${MPICC} -DMPI_Fortran_COMPILER=${MPIFC})
step(${CMAKE_COMMAND} --build ${SCRATCH}/cmake)
set(programs ${SCRATCH}/cmake/jacobi_c ${SCRATCH}/cmake/jacobi_c_mpi)
if(FORTRAN)
  list(APPEND programs ${SCRATCH}/cmake/jacobi_f ${SCRATCH}/cmake/jacobi_f_mpi)
endif()

# Make and pkg-config, in copies of the example folders.
set(languages c)
if(FORTRAN)
  list(APPEND languages fortran)
endif()
foreach(language IN LISTS languages)
  file(COPY ${EXAMPLES}/${language} DESTINATION ${SCRATCH}/make)
  step(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${SCRATCH}/prefix/lib/pkgconfig
       make -C ${SCRATCH}/make/${language} MPICC=${MPICC} MPIFC=${MPIFC})
  list(APPEND programs ${SCRATCH}/make/${language}/jacobi ${SCRATCH}/make/${language}/jacobi-mpi)
endforeach()

set(expected "")
foreach(program IN LISTS programs)
  # A mesh on which hcart's grid (1x2x2) and MPI_Dims_create's (2x2x1) differ on 4 ranks.
  step(${LAUNCH} ${program} 12 20 40 40)
  string(REGEX MATCH "last change *([-+0-9.eE]+), centre *([-+0-9.eE]+)" found "${step_output}")
  if(NOT found)
    message(FATAL_ERROR "${program} printed no result:\n${step_output}")
  endif()
  string(TOUPPER "${CMAKE_MATCH_1} ${CMAKE_MATCH_2}" result)
  string(REGEX MATCH "grid [0-9x]+" grid "${step_output}")
  message(STATUS "${program}: ${grid}: ${result}")
  # By hand, for 12x20x40 cells on 4 ranks of one node: MPI_Dims_create gives 2x2x1; hcart's
  # busiest rank sends 12*20 + 12*10 = 360 cells a step on 1x2x2 (blocks of 12x10x20),
  # against 480 on 1x1x4, 520 on 2x1x2, 640 on 2x2x1 and 960 on 1x4x1: 1x2x2.
  if(program MATCHES "mpi$")
    set(want "grid 2x2x1")
  else()
    set(want "grid 1x2x2")
  endif()
  if(NOT grid STREQUAL want)
    message(FATAL_ERROR "${program} ran on ${grid}, expected ${want}")
  endif()
  if(expected STREQUAL "")
    set(expected "${result}")
  elseif(NOT result STREQUAL expected)
    message(FATAL_ERROR "${program} printed ${result}, the first program ${expected}")
  endif()
endforeach()
list(LENGTH programs count)
message("examples: ${count} builds, one answer: ${expected}")

# The other MPI's C (and Fortran) wrapper named: refused with one message naming hcart's.
if(OTHER_MPI_C)
  set(other -DMPI_C_COMPILER=${OTHER_MPI_C})
  foreach(language C Fortran)
    if(language STREQUAL "Fortran")
      if(NOT FORTRAN OR NOT OTHER_MPI_FORTRAN)
        continue()
      endif()
      # hcart's C wrapper, the other MPI's Fortran one: the Fortran check must refuse.
      set(other -DMPI_C_COMPILER=${MPICC} -DMPI_Fortran_COMPILER=${OTHER_MPI_FORTRAN})
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -S ${EXAMPLES} -B ${SCRATCH}/other-${language}
                            -DCMAKE_PREFIX_PATH=${SCRATCH}/prefix ${other}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(rc EQUAL 0)
      message(FATAL_ERROR "the examples configured with another MPI's ${language} wrapper (${other})")
    endif()
    if(NOT err MATCHES "hcart was built with the MPI of")
      message(FATAL_ERROR "another MPI's ${language} wrapper was refused without saying which MPI "
                          "hcart needs:\n${out}\n${err}")
    endif()
    message("the examples with another MPI's ${language} wrapper: refused, as they should be")
  endforeach()
endif()
