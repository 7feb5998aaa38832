// hcart::decide_device_mpi: whether MPI gets device buffers, for every setting of
// HCART_GPU_AWARE_MPI and every answer of the MPI library, and bad settings refused.
#include <hcart/core/DeviceAwareMpi.hpp>
#include <hcart/core/Error.hpp>

#include <gtest/gtest.h>

#include <string>

TEST(DeviceAwareMpi, HostBuildsNeedNoDecision) {
  for (const char* setting : {static_cast<const char*>(nullptr), "auto", "on", "off"}) {
    for (int library : {-1, 0, 1}) {
      const hcart::DeviceMpi d = hcart::decide_device_mpi(setting, false, library);
      EXPECT_FALSE(d.device_build);
      EXPECT_FALSE(d.device_buffers);
      EXPECT_NE(d.reason.find("host execution"), std::string::npos) << d.reason;
    }
  }
}

TEST(DeviceAwareMpi, DeviceBuildsAskTheLibraryUnlessTold) {
  struct Case {
    const char* setting;
    int library;
    bool device_buffers;
    const char* reason;
  };
  const Case cases[] = {
      {nullptr, 1, true, "MPI reports CUDA support"},
      {nullptr, 0, false, "MPI reports no CUDA support"},
      {nullptr, -1, false, "MPI cannot report CUDA support"},
      {"auto", 1, true, "MPI reports CUDA support"},
      {"", 0, false, "MPI reports no CUDA support"},
      {"on", 0, true, "HCART_GPU_AWARE_MPI=on: device buffers"},
      {"1", -1, true, "HCART_GPU_AWARE_MPI=1: device buffers"},
      {"off", 1, false, "HCART_GPU_AWARE_MPI=off: staged"},
      {"0", 1, false, "HCART_GPU_AWARE_MPI=0: staged"},
  };
  for (const Case& c : cases) {
    const hcart::DeviceMpi d = hcart::decide_device_mpi(c.setting, true, c.library);
    const std::string setting = c.setting == nullptr ? "(unset)" : c.setting;
    EXPECT_TRUE(d.device_build);
    EXPECT_EQ(d.device_buffers, c.device_buffers) << setting << " library " << c.library;
    EXPECT_NE(d.reason.find(c.reason), std::string::npos) << setting << ": " << d.reason;
  }
}

TEST(DeviceAwareMpi, AnUnknownSettingIsRefused) {
  try {
    hcart::decide_device_mpi("yes", true, 1);
    FAIL() << "HCART_GPU_AWARE_MPI=yes was accepted";
  } catch (const hcart::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("HCART_GPU_AWARE_MPI=\"yes\": expected auto, on, off"),
              std::string::npos)
        << e.what();
  }
}
