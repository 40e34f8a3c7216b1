#pragma once
// NestedList: the C++ spelling of a nested Python list literal, for tide::tensor({{1, 2}, {3, 4}})
// and Tensor::new_tensor. Leaves remember whether they were bool, integer or floating, so the
// result dtype is inferred as torch infers it.

#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "tide/scalar.h"

namespace tide {

class NestedList {
 public:
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  NestedList(T v) : scalar_(v), is_leaf_(true) {}
  NestedList(std::initializer_list<NestedList> items) : items_(items), is_leaf_(false) {}

  bool is_leaf() const { return is_leaf_; }
  const Scalar& scalar() const { return scalar_; }
  const std::vector<NestedList>& items() const { return items_; }

 private:
  Scalar scalar_;
  std::vector<NestedList> items_;
  bool is_leaf_;
};

}  // namespace tide
