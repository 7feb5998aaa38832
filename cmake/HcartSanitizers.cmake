# HCART_ENABLE_SANITIZERS: AddressSanitizer + UndefinedBehaviorSanitizer on hcart's targets.
include_guard(GLOBAL)
function(hcart_sanitize target)
  if(HCART_ENABLE_SANITIZERS)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
