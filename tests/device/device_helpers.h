#pragma once
// Helpers shared by the device tests (tests/device): each test binary runs once per device
// configuration (tests/CMakeLists.txt, tide_add_device_test_dir), so every test either works
// with the devices it finds or skips itself saying why.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backends/sim/sim_stream.h"
#include "runtime/device_test_util.h"
#include "tide/cuda.h"
#include "tide/tensor.h"
#include "tide/testing/sim_hooks.h"

namespace tide::test {

inline Device cuda_device(int index) { return Device(kCUDA, index); }

/// The cpu and every cuda device of this configuration: what an op test runs on, comparing each
/// device's result with torch's (or the cpu's).
inline std::vector<Device> devices() {
  std::vector<Device> d{Device(kCPU)};
  for (int i = 0; i < cuda::device_count(); ++i) d.push_back(cuda_device(i));
  return d;
}

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

/// What a cuda result must satisfy against the cpu's (ggml's test-backend-ops rule): on
/// simulated GPUs, which run the cpu loops, the same bits; on real GPUs the same bits for
/// integer and bool results and Philox draws, and for floating results closeness within the
/// dtype's tolerance (GPU sums and products associate differently), NaN where the cpu has NaN
/// and the same infinities.
inline ::testing::AssertionResult matches_cpu(const Tensor& expected, const Tensor& actual) {
  if (::tide::testing::sim_active() || !is_floating_point(expected.dtype())) {
    return same_bits(expected, actual);
  }
  if (expected.dtype() != actual.dtype() || expected.sizes() != actual.sizes()) {
    return same_bits(expected, actual);  // reports the dtype or shape difference
  }
  const Dtype dt = expected.dtype();
  const double rtol = dt == kFloat64 ? 1e-10 : dt == kFloat32 ? 1e-4 : dt == kFloat16 ? 2e-3 : 2e-2;
  const double atol = dt == kFloat64 ? 1e-12 : dt == kFloat32 ? 1e-5 : 1e-3;
  const std::vector<double> e = expected.cpu().to(kFloat64).contiguous().tolist<double>();
  const std::vector<double> a = actual.cpu().to(kFloat64).contiguous().tolist<double>();
  for (size_t i = 0; i < e.size(); ++i) {
    const bool ok = std::isnan(e[i]) ? std::isnan(a[i])
                    : std::isinf(e[i]) ? a[i] == e[i]
                                       : std::abs(a[i] - e[i]) <= atol + rtol * std::abs(e[i]);
    if (!ok) {
      return ::testing::AssertionFailure() << "element " << i << " is " << a[i] << ", expected "
                                           << e[i] << " (rtol " << rtol << ", atol " << atol
                                           << ")\n  actual   " << actual.cpu().str()
                                           << "\n  expected " << expected.str();
    }
  }
  return ::testing::AssertionSuccess();
}

/// Sequence number of the last task enqueued on a simulated stream (0: none). Lets a test
/// see that another thread has enqueued its work on a held stream, without sleeping.
inline uint64_t sim_last_enqueued(const cuda::Stream& stream) {
  return static_cast<sim::SimStream*>(stream.native_handle())->last_enqueued();
}

}  // namespace tide::test
