#pragma once
// Scalar: a number passed by value to ops (torch's Scalar): a bool, an integer or a double.

#include <cstdint>
#include <ostream>
#include <type_traits>

#include "tide/default_dtype.h"
#include "tide/dtype.h"

namespace tide {

class Scalar {
 public:
  enum class Kind : int8_t { Bool, Int, Float };

  Scalar() : kind_(Kind::Int), i_(0) {}
  // Only a real bool: a plain Scalar(bool) would also take any pointer (pointer-to-bool is a
  // standard conversion), so arange(3, "cuda:1") would be ambiguous and t == "cuda" would compile.
  template <class T, std::enable_if_t<std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : kind_(Kind::Bool), i_(v) {}
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : kind_(Kind::Int), i_(static_cast<int64_t>(v)) {}
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : kind_(Kind::Float), d_(static_cast<double>(v)) {}
  Scalar(Half v) : kind_(Kind::Float), d_(static_cast<float>(v)) {}
  Scalar(BFloat16 v) : kind_(Kind::Float), d_(static_cast<float>(v)) {}

  Kind kind() const { return kind_; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_integral() const { return kind_ == Kind::Int; }
  bool is_floating_point() const { return kind_ == Kind::Float; }

  double to_double() const { return kind_ == Kind::Float ? d_ : static_cast<double>(i_); }
  int64_t to_int64() const { return kind_ == Kind::Float ? static_cast<int64_t>(d_) : i_; }
  bool to_bool() const { return kind_ == Kind::Float ? d_ != 0 : i_ != 0; }

  /// The value converted to T (any tide element type).
  template <class T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>) {
      return to_bool();
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(to_int64());
    } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      return T(static_cast<float>(to_double()));
    } else {
      return static_cast<T>(to_double());
    }
  }

  /// The dtype torch gives a tensor made from this scalar: bool, int64 or the default dtype
  /// (Note [Default dtype]).
  Dtype default_dtype() const {
    return kind_ == Kind::Bool ? kBool : kind_ == Kind::Int ? kInt64 : get_default_dtype();
  }

 private:
  Kind kind_;
  union {
    int64_t i_;
    double d_;
  };
};

std::ostream& operator<<(std::ostream& os, const Scalar& s);

}  // namespace tide
