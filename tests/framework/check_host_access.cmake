# The host-access check stops host code that touches a field, lets mirrors and kernels
# pass, and rejects a bad setting; without it the same host code runs (host builds only).
#   cmake -DPROBE=<exe> -DLAUNCH="mpiexec|-n|1|flags" -P check_host_access.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" LAUNCH "${LAUNCH}")
function(run_probe setting mode expect_success)
  set(ENV{HCART_CHECK_HOST_ACCESS} "${setting}")
  execute_process(COMMAND ${LAUNCH} ${PROBE} ${mode} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 60)
  message("---- HCART_CHECK_HOST_ACCESS=${setting} ${mode}: exit '${rc}'\n${out}${err}")
  if(expect_success AND NOT rc EQUAL 0)
    message(FATAL_ERROR "HCART_CHECK_HOST_ACCESS=${setting} ${mode}: failed, expected success")
  endif()
  if(NOT expect_success AND (rc EQUAL 0 OR rc MATCHES "timeout"))
    message(FATAL_ERROR "HCART_CHECK_HOST_ACCESS=${setting} ${mode}: exit '${rc}', expected a failure")
  endif()
  foreach(pattern IN LISTS ARGN)
    if(NOT "${out}${err}" MATCHES "${pattern}")
      message(FATAL_ERROR "HCART_CHECK_HOST_ACCESS=${setting} ${mode}: output lacks '${pattern}'")
    endif()
  endforeach()
endfunction()

run_probe(1 read FALSE "host code touched field 'probe_field' outside a Kokkos kernel")
run_probe(on write FALSE "host code touched field 'probe_field' outside a Kokkos kernel")
run_probe(1 mirror TRUE "probe: ok")
run_probe(0 read TRUE "probe: read 0 on the host")
run_probe(off write TRUE "probe: wrote on the host")
run_probe(yes mirror FALSE "HCART_CHECK_HOST_ACCESS=\"yes\": expected 1, on, 0 or off")
