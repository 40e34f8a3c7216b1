#pragma once
// Shared by the tests that run under mpirun: the devices a rank tests on and small builders.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tide/cuda.h"
#include "tide/distributed/process_group.h"
#include "tide/tensor.h"

namespace tide::test {

/// "cpu", or "cuda": the rank's GPU, cuda:LOCAL_RANK as torch programs choose it (wrapped
/// to the devices present: ctest gives each rank one simulated GPU of its own). Tests
/// parameterized on it skip "cuda" when the process has no cuda device.
inline Device rank_device(const std::string& kind) {
  if (kind == "cpu") return Device(kCPU);
  return Device(kCUDA, distributed::get_local_rank() % cuda::device_count());
}

#define TIDE_SKIP_WITHOUT(kind)                                                         \
  do {                                                                                  \
    if ((kind) == "cuda" && cuda::device_count() == 0)                                  \
      GTEST_SKIP() << "no cuda device in this configuration (cpu-only mpirun run)";     \
  } while (false)

inline std::string device_name(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

}  // namespace tide::test
