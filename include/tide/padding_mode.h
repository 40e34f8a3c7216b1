#pragma once
// PaddingMode: conv2d's padding given as a word, torch's padding="same" / "valid".
//
// Note [Padding words]: conv2d(x, w, b, stride, 0) must keep meaning "padding 0". A parameter of
// type std::string_view (or const char*) would also accept the literal 0 as a null pointer, and
// the call would be ambiguous (or worse, a null string). PaddingMode is built from a string
// literal, a std::string_view or a std::string only: none of those is reachable from 0 in one
// implicit conversion, so 0 always picks the IntArrayRef overload.

#include <cstddef>
#include <string>
#include <string_view>

namespace tide {

class PaddingMode {
 public:
  template <std::size_t N>
  PaddingMode(const char (&word)[N]) : word_(word, N - 1) {}
  PaddingMode(std::string_view word) : word_(word) {}
  PaddingMode(const std::string& word) : word_(word) {}

  std::string_view word() const { return word_; }
  bool is_same() const { return word_ == "same"; }
  bool is_valid() const { return word_ == "valid"; }

 private:
  std::string_view word_;
};

}  // namespace tide
