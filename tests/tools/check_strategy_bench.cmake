# hcart-strategy-bench on a synthetic 2-node machine: its per-level bytes, and the bytes of
# each level's busiest unit, equal hcart-plan's
# for every mesh and strategy (mpi, weighted, levelwise, hierarchical: hcart-plan's names),
# and strategies that print "same as" another have its grid. With a machine file measured
# first by hcart-machine --measure on the same launch, the time the bench predicts from its
# own counts (busiest unit, most messages of a rank) is the time hcart-plan predicts from its
# traffic model, to the bit (the same loads through the same model).
#   cmake -DBENCH=<exe> -DPLAN=<exe> -DMEASURE=<hcart-machine> -DSCRATCH=<dir>
#         -DLAUNCH="mpiexec|-n|8|flags" -DMACHINE="node:2 core:4" -P ...
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" LAUNCH "${LAUNCH}")
file(MAKE_DIRECTORY ${SCRATCH})
set(machine_file ${SCRATCH}/machine.json)
file(REMOVE ${machine_file})
execute_process(COMMAND ${LAUNCH} ${MEASURE} --machine ${MACHINE} --measure ${machine_file}
                        --max-bytes 16384 --warmup-bytes 0 --repetitions 2
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0 OR NOT EXISTS ${machine_file})
  message(FATAL_ERROR "hcart-machine --measure failed (${rc}): ${out}${err}")
endif()
execute_process(COMMAND ${LAUNCH} ${BENCH} --machine ${MACHINE} --sizes 3 --base 4 --repetitions 3 --rounds 2 --json
                        --machine-file ${machine_file}
                RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hcart-strategy-bench failed (${rc}): ${err}")
endif()
string(JSON nresults LENGTH "${json}" results)
math(EXPR last "${nresults} - 1")
set(compared 0)
foreach(r RANGE ${last})
  string(JSON mesh GET "${json}" results ${r} mesh)
  string(REGEX REPLACE "[][ \n]" "" mesh "${mesh}")
  string(JSON nmethods ERROR_VARIABLE none LENGTH "${json}" results ${r} methods)
  if(none)
    continue() # skipped size
  endif()
  math(EXPR mlast "${nmethods} - 1")
  foreach(m RANGE ${mlast})
    string(JSON method GET "${json}" results ${r} methods ${m} method)
    set(args --mesh ${mesh} --halo 1,1,1 --machine ${MACHINE} --machine-file ${machine_file} --json)
    if(NOT method MATCHES "^(mpi|weighted|levelwise|hierarchical)$")
      message(FATAL_ERROR "hcart-strategy-bench names a strategy '${method}'")
    endif()
    list(APPEND args --strategy ${method})
    string(JSON same ERROR_VARIABLE no_same GET "${json}" results ${r} methods ${m} same_as)
    if(NOT no_same)
      string(JSON saving ERROR_VARIABLE no_saving GET "${json}" results ${r} methods ${m} saving_vs_mpi)
      if(NOT no_saving)
        message(FATAL_ERROR "mesh ${mesh}, ${method}: the same grid as ${same}, yet a saving is given")
      endif()
    endif()
    execute_process(COMMAND ${PLAN} ${args} RESULT_VARIABLE prc OUTPUT_VARIABLE plan ERROR_VARIABLE perr)
    if(NOT prc EQUAL 0)
      message(FATAL_ERROR "hcart-plan ${args} failed: ${perr}")
    endif()
    string(JSON predicted GET "${json}" results ${r} methods ${m} predicted_seconds)
    string(JSON planned_time GET "${plan}" plans 0 predicted_time seconds)
    # The same loads through the same model: the same double, so the same JSON text.
    if(NOT predicted STREQUAL planned_time OR predicted STREQUAL "0.0")
      message(FATAL_ERROR "mesh ${mesh}, ${method}: hcart-strategy-bench predicts ${predicted} s, "
                          "hcart-plan ${planned_time} s")
    endif()
    string(JSON nlevels LENGTH "${json}" results ${r} methods ${m} levels)
    math(EXPR llast "${nlevels} - 1")
    foreach(l RANGE ${llast})
      string(JSON name GET "${json}" results ${r} methods ${m} levels ${l} name)
      string(JSON measured GET "${json}" results ${r} methods ${m} levels ${l} bytes)
      string(JSON planned GET "${plan}" plans 0 traffic levels ${l} bytes)
      if(NOT measured EQUAL planned)
        message(FATAL_ERROR "mesh ${mesh}, ${method}, level ${name}: hcart-strategy-bench ${measured} bytes, "
                            "hcart-plan ${planned}")
      endif()
      if(NOT name STREQUAL "self")
        string(JSON busiest GET "${json}" results ${r} methods ${m} levels ${l} max_unit_bytes)
        string(JSON planned_busiest GET "${plan}" plans 0 traffic levels ${l} max_unit_bytes)
        if(NOT busiest EQUAL planned_busiest)
          message(FATAL_ERROR "mesh ${mesh}, ${method}, level ${name}: busiest unit ${busiest} bytes, "
                              "hcart-plan ${planned_busiest}")
        endif()
      endif()
    endforeach()
    math(EXPR compared "${compared} + 1")
  endforeach()
endforeach()
if(compared LESS 6)
  message(FATAL_ERROR "only ${compared} mesh/method pairs compared")
endif()
message(STATUS "${compared} mesh/method pairs agree with hcart-plan")
