#pragma once
// The fuzz targets: one function per fuzzer, each checking one property of tide on arbitrary
// bytes. A libFuzzer main (<name>_fuzzer.cpp, built in the asan preset) runs each, and the
// gtest fuzz_inputs_test.cpp replays the committed corpus and regression inputs through the
// same functions in every build, so a fixed crash stays fixed without clang.
//
// Note [Fuzz properties]: a target returns normally when tide did the right thing with the
// input — usually "it worked and the result checks out, or it raised tide::Error". It throws
// Violation when tide broke the property; tide::InternalError (a broken invariant), any other
// exception, a crash, a sanitizer report or a leak are failures too. Under libFuzzer an
// escaping exception aborts, so the input is saved as a crash. TIDE_FUZZ_TRACE=1 makes the
// targets that run sequences of operations print each one before it runs.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tide/error.h"

namespace tide::fuzz {

/// A property of tide that an input broke (Note [Fuzz properties]).
class Violation : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

template <class... Args>
[[noreturn]] void fail(const Args&... args) {
  throw Violation(detail::concat("fuzz property broken: ", args...));
}

/// Runs `f`; a tide::Error is the expected refusal of a bad input (returns false), success
/// returns true. InternalError is tide's own bug: it becomes a Violation.
template <class F>
bool accepted(F&& f) {
  try {
    f();
    return true;
  } catch (const InternalError& e) {
    fail("tide::InternalError: ", e.what());
  } catch (const Error&) {
    return false;
  }
}

/// Fuzz bytes read front to back as typed values; past the end every read gives 0.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  size_t remaining() const { return pos_ < size_ ? size_ - pos_ : 0; }
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint64_t u64(int bytes = 8) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(byte()) << (8 * i);
    return v;
  }
  /// Mostly small values in [-4, 11], sometimes the extremes and other edges of int64.
  int64_t small_or_edge();
  /// What is left, as a string.
  std::string rest() {
    std::string s(reinterpret_cast<const char*>(data_) + std::min(pos_, size_), remaining());
    pos_ = size_;
    return s;
  }
  /// The next `n` bytes (fewer at the end), as a string.
  std::string take(size_t n) {
    n = std::min(n, remaining());
    std::string s(reinterpret_cast<const char*>(data_) + pos_, n);
    pos_ += n;
    return s;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

/// A file under a private temporary folder of this process (removed at exit), for targets
/// whose entry point reads files; `bytes` is written to it first.
std::string write_temp_file(const std::string& name, std::string_view bytes);
/// That private folder.
std::string temp_dir();

/// tide::Device(std::string): parses to a device whose str() is the input, or raises.
void device_string(const uint8_t* data, size_t size);
/// TIDE_CUDA_ALLOC_CONF: AllocatorConfig::parse raises, or gives a valid config that
/// to_string() writes back and a caching allocator serves requests with.
void alloc_conf(const uint8_t* data, size_t size);
/// View and reshape ops with fuzzed arguments on a fuzzed base tensor, against a dense model.
void views(const uint8_t* data, size_t size);
/// tide::load of a safetensors file: loads (and saves back identically) or raises.
void safetensors(const uint8_t* data, size_t size);
/// IDX files through read_idx_ubyte and tide::data::MNIST: load or raise.
void idx(const uint8_t* data, size_t size);
/// Caching allocator operation sequences against a reference model of bytes and stats.
void allocator(const uint8_t* data, size_t size);

}  // namespace tide::fuzz
