#include "kernels/cpu/sort_kernels.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "kernels/convert.h"
#include "kernels/cpu/parallel.h"
#include "kernels/sort_order.h"

namespace tide::kernels {
namespace {

template <class T>
void sort_lines(T* values, int64_t* indices, const T* in, ReduceShape s, bool descending) {
  using C = compute_t<T>;
  const int64_t lines = s.outer * s.inner, len = s.reduced;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, len * 8));
  parallel_for(0, lines, grain, [&](int64_t b, int64_t e) {
    std::vector<int64_t> order(static_cast<size_t>(len));
    std::vector<C> keys(static_cast<size_t>(len));
    for (int64_t line = b; line < e; ++line) {
      const int64_t o = line / s.inner, i = line % s.inner;
      const int64_t base = o * len * s.inner + i;
      for (int64_t r = 0; r < len; ++r)
        keys[static_cast<size_t>(r)] = convert<C>(in[base + r * s.inner]);
      std::iota(order.begin(), order.end(), int64_t{0});
      std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
        return sorts_before(keys[static_cast<size_t>(x)], keys[static_cast<size_t>(y)], descending);
      });
      for (int64_t r = 0; r < len; ++r) {
        const int64_t from = order[static_cast<size_t>(r)];
        if (values) values[base + r * s.inner] = in[base + from * s.inner];
        indices[base + r * s.inner] = from;
      }
    }
  });
}

}  // namespace

void sort_kernel(const Tensor& values, const Tensor& indices, const Tensor& in, ReduceShape shape,
                 bool descending) {
  TIDE_INTERNAL_ASSERT(dense(in) && dense(indices) && indices.dtype() == kInt64);
  TIDE_INTERNAL_ASSERT(!values.defined() || (dense(values) && values.dtype() == in.dtype()));
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    sort_lines<T>(values.defined() ? static_cast<T*>(values.raw_data()) : nullptr,
                  static_cast<int64_t*>(indices.raw_data()), static_cast<const T*>(in.raw_data()),
                  shape, descending);
  });
}

}  // namespace tide::kernels
