#pragma once
// IntArrayRef: the int[2] arguments of convolution and pooling (stride, padding, dilation,
// kernel_size), spelled as libtorch's: one int stands for every spatial dim (`stride = 2`), a
// braced list gives each (`{2, 1}`). It owns its values (inline, no allocation): a default
// argument `= 1` would otherwise refer to a temporary.

#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "tide/dim_vector.h"

namespace tide {

class IntArrayRef {
 public:
  /// One value for every dim (torch's int[2] accepts a single int).
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  IntArrayRef(I value) : values_{static_cast<int64_t>(value)} {}
  IntArrayRef(std::initializer_list<int64_t> values) : values_(values) {}
  IntArrayRef(const std::vector<int64_t>& values) : values_(values) {}
  IntArrayRef(const DimVector& values) : values_(values) {}

  int64_t size() const { return values_.size(); }
  int64_t operator[](int64_t i) const { return values_[i]; }
  const int64_t* begin() const { return values_.begin(); }
  const int64_t* end() const { return values_.end(); }
  std::vector<int64_t> vec() const { return {values_.begin(), values_.end()}; }

 private:
  DimVector values_;
};

}  // namespace tide
