#pragma once
// iota: a small tensor whose every element differs, so that tests of views, shape ops and
// reductions can tell each element's place from its value.

#include <cstdint>
#include <vector>

#include "tide/dtype.h"
#include "tide/factories.h"
#include "tide/tensor.h"

namespace tide::test {

/// 0, 1, 2, ... in row-major order: a new contiguous cpu tensor of the given shape, written
/// as float32 and converted to `dtype`.
inline Tensor iota(const std::vector<int64_t>& sizes, Dtype dtype = kFloat32) {
  Tensor t = empty(sizes);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>(i);
  return t.to(dtype);
}

}  // namespace tide::test
