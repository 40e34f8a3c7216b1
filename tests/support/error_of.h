#pragma once
// error_of: the message of the tide::Error a call throws, for tests that check an error's
// type and wording with one EXPECT_THAT(error_of(...), HasSubstr(...)).

#include <string>
#include <utility>

#include "tide/error.h"

namespace tide::test {

/// Runs f and returns the message of the `E` it throws, or `none` when it throws none. Other
/// exceptions propagate, so gtest reports a wrong exception type as a failure too.
template <class E, class F>
std::string message_of(F&& f, const char* none) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return none;
}

/// The message of the tide::Error f throws, or "<no error>" when it throws none (which then
/// fails the caller's HasSubstr).
template <class F>
std::string error_of(F&& f) {
  return message_of<Error>(std::forward<F>(f), "<no error>");
}

}  // namespace tide::test
