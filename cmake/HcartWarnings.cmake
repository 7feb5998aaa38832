# Warnings that catch real bugs, on hcart's own targets only (never global flags).
include_guard(GLOBAL)
function(hcart_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wnon-virtual-dtor -Wshadow=local
                                             -Wpedantic)
  endif()
endfunction()
