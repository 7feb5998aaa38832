# HCART_ENABLE_SANITIZERS: AddressSanitizer + UndefinedBehaviorSanitizer on hcart's targets.
#
# Tests get their sanitizer options from here (see HcartTesting.cmake):
#   HCART_SANITIZER_ENV_UNIT  pure tests: leak checking on
#   HCART_SANITIZER_ENV_MPI   MPI programs: leak checking off, because MPI libraries keep
#                             allocations in plugins they unload at finalize, whose stacks
#                             can no longer be symbolised or suppressed
include_guard(GLOBAL)

set(HCART_SANITIZER_ENV_UNIT "")
set(HCART_SANITIZER_ENV_MPI "")
if(HCART_ENABLE_SANITIZERS)
  # No AVX2 clones of the host rows in a sanitizer build: they are the same source compiled
  # twice, and the launcher's clones are flattened (every call inlined), which under the
  # sanitizers' instrumentation made one large kernel (the LBM example's) compile for more
  # than ten minutes instead of under one (docs/testing.md, "Sanitizers").
  add_compile_definitions(HCART_NO_HOST_CLONES)
  set(_ubsan "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  set(HCART_SANITIZER_ENV_UNIT "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1" "${_ubsan}")
  set(HCART_SANITIZER_ENV_MPI "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1" "${_ubsan}")
endif()

# UBSan without the checks AddressSanitizer already makes at run time, which cost the most
# compile time (docs/testing.md, "Sanitizers"): null (a null dereference faults, and ASan
# reports it with its stack), object-size (ASan's redzones), pointer-overflow (ASan reports
# the wild access) and vptr (a use after free, its usual cause, is ASan's). Kept: signed
# overflow, shifts, division by zero, bounds of arrays, alignment, invalid bools and enums,
# missing returns, unreachable code.
set(HCART_UBSAN_SKIPPED "null,object-size,pointer-overflow,vptr")

function(hcart_sanitize target)
  if(HCART_ENABLE_SANITIZERS)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined
                                             -fno-sanitize=${HCART_UBSAN_SKIPPED}
                                             -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
