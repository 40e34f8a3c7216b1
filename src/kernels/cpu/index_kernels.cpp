#include "kernels/cpu/index_kernels.h"

#include <algorithm>

#include "kernels/cpu/parallel.h"
#include "kernels/cpu/reduce_kernels.h"

namespace tide::kernels {
namespace {

template <class Index>
IndexError check_indices(const Index* index, int64_t n, int64_t size) {
  for (int64_t j = 0; j < n; ++j) {
    const int64_t v = static_cast<int64_t>(index[j]);
    if (v < 0 || v >= size) return IndexError{j, v, size};
  }
  return IndexError{};
}

template <class T, class Index>
void gather_rows(T* out, const T* in, const Index* index, int64_t outer, int64_t size, int64_t n,
                 int64_t inner) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner, 1));
  parallel_for(0, outer * n, grain, [&](int64_t b, int64_t e) {
    for (int64_t item = b; item < e; ++item) {
      const int64_t o = item / n, j = item % n;
      const T* __restrict src = in + (o * size + static_cast<int64_t>(index[j])) * inner;
      T* __restrict dst = out + item * inner;
      std::copy(src, src + inner, dst);
    }
  });
}

}  // namespace

IndexError index_select_kernel(const Tensor& out, const Tensor& in, const Tensor& index,
                               int64_t dim) {
  TIDE_INTERNAL_ASSERT(dense(in) && dense(out) && dense(index));
  TIDE_INTERNAL_ASSERT(in.dtype() == out.dtype());
  TIDE_INTERNAL_ASSERT(index.dtype() == kInt64 || index.dtype() == kInt32);
  const ReduceShape around = split_at_dim(in.shape(), dim);
  const int64_t outer = around.outer, size = around.reduced, inner = around.inner;
  const int64_t n = index.numel();
  return dispatch_dtype(in.dtype(), [&](auto tag) -> IndexError {
    using T = typename decltype(tag)::type;
    auto run = [&](const auto* idx) -> IndexError {
      IndexError bad = check_indices(idx, n, size);
      if (bad.found()) return bad;
      gather_rows(static_cast<T*>(out.raw_data()), static_cast<const T*>(in.raw_data()), idx,
                  outer, size, n, inner);
      return bad;
    };
    if (index.dtype() == kInt32) return run(static_cast<const int32_t*>(index.raw_data()));
    return run(static_cast<const int64_t*>(index.raw_data()));
  });
}

}  // namespace tide::kernels
