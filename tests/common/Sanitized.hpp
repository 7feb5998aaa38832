// Tests that skip themselves in a sanitizer build (CI's stage 2): the accuracy and convergence
// studies, whose paths another test of the same program takes on fewer cells. A program's
// CMake sets HCART_TEST_SANITIZED where the sanitizers are on (tests/*/CMakeLists.txt).
#pragma once

#include <gtest/gtest.h>

#ifdef HCART_TEST_SANITIZED
#define HCART_TEST_SKIP_IF_SANITIZED(why) GTEST_SKIP() << why
#else
#define HCART_TEST_SKIP_IF_SANITIZED(why)                                                          \
  do {                                                                                             \
  } while (false)
#endif
