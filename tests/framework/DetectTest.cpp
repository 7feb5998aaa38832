// Machine detection (hcart/topology/Detect.hpp) on the real launch: the binding hwloc reads
// is the kernel's affinity mask. (The hierarchy built from such facts: HierarchyTest.cpp.)
#include <hcart/topology/Detect.hpp>

#include <gtest/gtest.h>

#include <sched.h>

// hwloc's reading of the binding against the kernel's (the launcher binds the ranks to one
// core each, or not at all when oversubscribed).
TEST(Detect, BoundProcessingUnitsAreTheAffinityMask) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  ASSERT_EQ(sched_getaffinity(0, sizeof(mask), &mask), 0);
  EXPECT_EQ(hcart::bound_processing_units(), CPU_COUNT(&mask));
}
