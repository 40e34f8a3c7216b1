#pragma once
// Helpers shared by the device tests (tests/device): each test binary runs once per device
// configuration (tests/CMakeLists.txt, tide_add_device_test_dir), so every test either works
// with the devices it finds or skips itself saying why.

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "backends/sim/sim_stream.h"
#include "runtime/device_test_util.h"
#include "tide/cuda.h"
#include "tide/tensor.h"
#include "tide/testing/sim_hooks.h"

/// Skips a test that holds stream workers (tide/testing/sim_hooks.h): they exist only on
/// simulated GPUs, and a held stream never runs an op under CUDA_LAUNCH_BLOCKING=1.
#define TIDE_REQUIRE_HOLDABLE_STREAMS()                                                       \
  do {                                                                                        \
    TIDE_REQUIRE_ASYNC();                                                                     \
    if (!::tide::testing::sim_active()) GTEST_SKIP() << "holding streams needs simulated GPUs"; \
  } while (false)

namespace tide::test {

inline Device cuda_device(int index) { return Device(kCUDA, index); }

/// A device other than `index` when the process has one, else `index` itself: tests make it
/// current while running ops on `index` to show ops ignore the current device.
inline int other_device(int index) {
  const int n = cuda::device_count();
  return n > 1 ? (index + 1) % n : index;
}

/// Whether two tensors hold the same values bit for bit (NaN payloads and signed zeros
/// included), in the same dtype and shape; `actual` may live on any device.
inline ::testing::AssertionResult same_bits(const Tensor& expected, const Tensor& actual) {
  if (expected.dtype() != actual.dtype()) {
    return ::testing::AssertionFailure()
           << "dtype " << name(actual.dtype()) << ", expected " << name(expected.dtype());
  }
  if (expected.sizes() != actual.sizes()) {
    return ::testing::AssertionFailure()
           << "shape differs: " << actual.str() << " vs expected " << expected.str();
  }
  const Tensor e = expected.cpu().contiguous();
  const Tensor a = actual.cpu().contiguous();
  if (e.nbytes() != 0 && std::memcmp(e.raw_data(), a.raw_data(), e.nbytes()) != 0) {
    return ::testing::AssertionFailure()
           << "values differ:\n  actual   " << a.str() << "\n  expected " << e.str();
  }
  return ::testing::AssertionSuccess();
}

/// Sequence number of the last task enqueued on a simulated stream (0: none). Lets a test
/// see that another thread has enqueued its work on a held stream, without sleeping.
inline uint64_t sim_last_enqueued(const cuda::Stream& stream) {
  return static_cast<sim::SimStream*>(stream.native_handle())->last_enqueued();
}

}  // namespace tide::test
