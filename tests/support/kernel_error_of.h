#pragma once
// kernel_error_of: the message of the tide::KernelError a call raises (from the op itself
// under CUDA_LAUNCH_BLOCKING=1, from the synchronizing call otherwise).

#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <string>

#include "tide/error.h"

namespace tide::test {

/// Runs `f` and returns its KernelError's message; fails the test (and returns "") when it
/// raises another exception or none.
inline std::string kernel_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const KernelError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected tide::KernelError, got: " << e.what();
    return "";
  }
  ADD_FAILURE() << "expected tide::KernelError, nothing was raised";
  return "";
}

}  // namespace tide::test
