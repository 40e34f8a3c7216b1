#pragma once
// error_of: the message of the tide::Error a call throws, for tests that check an error's
// type and wording with one EXPECT_THAT(error_of(...), HasSubstr(...)).

#include <string>

#include "tide/error.h"

namespace tide::test {

/// Runs f and returns the message of the tide::Error it throws, or "<no error>" when it
/// throws none (which then fails the caller's HasSubstr). Other exceptions propagate, so
/// gtest reports a wrong exception type as a failure too.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace tide::test
