#pragma once
// Helpers for device tests, which run once per simulated configuration (tests/CMakeLists.txt).

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tide/cuda.h"

/// Skips the test unless at least n cuda devices exist in this process.
#define TIDE_REQUIRE_DEVICES(n)                                                         \
  do {                                                                                  \
    if (::tide::cuda::device_count() < (n)) {                                           \
      GTEST_SKIP() << "needs " << (n) << " cuda devices, this process has "             \
                   << ::tide::cuda::device_count();                                     \
    }                                                                                   \
  } while (false)

namespace tide::test {

inline bool env_is(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v != nullptr && std::string(v) == value;
}

/// Whether ops complete before they return in this process (CUDA_LAUNCH_BLOCKING=1):
/// asynchrony tests skip themselves then.
inline bool launch_blocking() { return env_is("CUDA_LAUNCH_BLOCKING", "1"); }

#define TIDE_REQUIRE_ASYNC()                                                         \
  do {                                                                               \
    if (::tide::test::launch_blocking()) GTEST_SKIP() << "CUDA_LAUNCH_BLOCKING=1";   \
  } while (false)

}  // namespace tide::test
