#pragma once
// Helpers for device tests, which run once per device configuration (tests/CMakeLists.txt):
// "native." (a real GPU where the machine has one, else no device) and the simulated ones.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tide/cuda.h"
#include "tide/testing/sim_hooks.h"

/// Skips the test unless at least n cuda devices exist in this process.
#define TIDE_REQUIRE_DEVICES(n)                                                         \
  do {                                                                                  \
    if (::tide::cuda::device_count() < (n)) {                                           \
      GTEST_SKIP() << "needs " << (n) << " cuda devices, this process has "             \
                   << ::tide::cuda::device_count();                                     \
    }                                                                                   \
  } while (false)

namespace tide::test {

/// Whether cuda devices in this process are real GPUs (the CUDA backend serves cuda). false
/// without any device, so tests that expect no device still run in the "native." configuration
/// of a machine without a GPU.
inline bool real_gpu() { return cuda::device_count() > 0 && !::tide::testing::sim_active(); }

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

/// Note [Simulation-only device tests]: every device test runs on a real GPU in the "native."
/// configuration of a machine that has one. A test that depends on what only simulated GPUs
/// have (held stream workers, host tasks on stream threads, "simulated" properties, TIDE_SIM_*
/// capacities and exact device memory figures, a device count taken from TIDE_SIM_DEVICES)
/// skips itself there, right after TIDE_REQUIRE_DEVICES, saying what it needs; on simulated
/// GPUs (and without devices) it runs unchanged.
#define TIDE_REQUIRE_SIMULATED(reason)                                                     \
  do {                                                                                     \
    if (::tide::test::real_gpu()) GTEST_SKIP() << "needs simulated GPUs: " << (reason);    \
  } while (false)

/// Why tests of failing host tasks (runtime::launch of a lambda that records a kernel error or
/// throws) need simulated GPUs.
inline constexpr const char* kFailingHostTasks =
    "failing host tasks run on simulated stream workers; on a real GPU a host task runs inline "
    "at launch, so its error raises there";

/// Skips a test that holds stream workers (tide/testing/sim_hooks.h): they exist only on
/// simulated GPUs, and a held stream never runs an op under CUDA_LAUNCH_BLOCKING=1.
#define TIDE_REQUIRE_HOLDABLE_STREAMS()                                                       \
  do {                                                                                        \
    TIDE_REQUIRE_ASYNC();                                                                     \
    if (!::tide::testing::sim_active()) GTEST_SKIP() << "holding streams needs simulated GPUs"; \
  } while (false)

/// Note [Deliberate races]: a few tests race on purpose, to show what a program without
/// synchronization gets (the seeds' hazards, made deterministic by held streams). With the
/// stream sanitizer on (the sim2_sanitizer configuration) the racing call raises
/// StreamRaceError instead of being enqueued. TIDE_DELIBERATE_RACE(statement) checks exactly
/// that and is false then; otherwise it runs the statement and is true. The test goes on with
/// its synchronization either way and skips its checks of the raced values when false.
#define TIDE_DELIBERATE_RACE(...)                                                              \
  [&] {                                                                                        \
    if (::tide::cuda::sanitizer_enabled()) {                                                   \
      EXPECT_THROW(__VA_ARGS__, ::tide::StreamRaceError) << "the stream sanitizer missed it";  \
      return false;                                                                            \
    }                                                                                          \
    __VA_ARGS__;                                                                               \
    return true;                                                                               \
  }()

/// Why a test skips its checks after TIDE_DELIBERATE_RACE was false.
inline constexpr const char* kRaceCaught = "a deliberate race, which the stream sanitizer caught";

}  // namespace tide::test
