#pragma once
// tide's exceptions and its two check macros (STYLE.md habit 5).

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "tide/macros.h"

namespace tide {

/// Every misuse of tide raises this (or a named subclass) with a message a user can act on.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A device allocation could not be served even after freeing the cache.
class OutOfMemoryError : public Error {
 public:
  using Error::Error;
};

/// A failure inside an enqueued operation, raised at the next synchronizing call.
class KernelError : public Error {
 public:
  using Error::Error;
};

/// Two streams touch the same memory with no ordering between them (the stream sanitizer,
/// TIDE_CUDA_SANITIZER=1 or tide::cuda::enable_sanitizer; tide/cuda/sanitizer.h).
class StreamRaceError : public Error {
 public:
  using Error::Error;
};

/// An index outside the dim it indexes (advanced indexing, take, put_): Python's IndexError,
/// as torch raises it, and a tide::Error.
class IndexingError : public Error {
 public:
  using Error::Error;
};

/// An invariant of tide itself was broken: a bug in tide, never in user code.
class InternalError : public Error {
 public:
  using Error::Error;
};

namespace detail {

template <class... Args>
std::string concat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

[[noreturn]] void throw_internal_assert(const char* cond, const char* file, int line,
                                        const std::string& extra);

}  // namespace detail
}  // namespace tide

/// Checks a condition a user can get wrong. The message is built only on failure;
/// it should start with "[Function] " and say what was expected, found, and what to do.
/// An optional leading exception type may be given with TIDE_CHECK_T.
#define TIDE_CHECK(cond, ...)                                      \
  do {                                                             \
    if (TIDE_UNLIKELY(!(cond))) {                                  \
      throw ::tide::Error(::tide::detail::concat(__VA_ARGS__));    \
    }                                                              \
  } while (false)

/// Like TIDE_CHECK but throws the named subclass of tide::Error.
#define TIDE_CHECK_T(ErrorType, cond, ...)                         \
  do {                                                             \
    if (TIDE_UNLIKELY(!(cond))) {                                  \
      throw ErrorType(::tide::detail::concat(__VA_ARGS__));        \
    }                                                              \
  } while (false)

/// Checks one of tide's own invariants; a failure is a bug in tide.
#define TIDE_INTERNAL_ASSERT(cond, ...)                                               \
  do {                                                                                \
    if (TIDE_UNLIKELY(!(cond))) {                                                     \
      ::tide::detail::throw_internal_assert(#cond, __FILE__, __LINE__,                \
                                            ::tide::detail::concat("" __VA_ARGS__));  \
    }                                                                                 \
  } while (false)
