#include "kernels/cpu/search_kernels.h"

#include <algorithm>

#include "kernels/convert.h"
#include "kernels/cpu/parallel.h"
#include "kernels/cpu/reduce_kernels.h"
#include "kernels/search_bound.h"

namespace tide::kernels {
namespace {

template <class T, class I>
void search_rows(I* out, const T* sorted, const T* values, int64_t n, int64_t len,
                 int64_t per_row, bool right) {
  using C = compute_t<T>;
  // A search reads about log2(len) entries: grain by that, not by one element's cost.
  int64_t depth = 1;
  while ((int64_t{1} << depth) < len) ++depth;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / depth);
  parallel_for(0, n, grain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const T* row = sorted + (i / per_row) * len;
      out[i] = static_cast<I>(insertion_point(row, len, convert<C>(values[i]), right));
    }
  });
}

}  // namespace

void search_kernel(const Tensor& out, const Tensor& sorted, const Tensor& values, int64_t len,
                   int64_t per_row, bool right) {
  TIDE_INTERNAL_ASSERT(dense(out) && dense(sorted) && dense(values) &&
                       sorted.dtype() == values.dtype() && per_row > 0);
  const int64_t n = values.numel();
  dispatch_dtype(values.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* s = static_cast<const T*>(sorted.raw_data());
    const T* v = static_cast<const T*>(values.raw_data());
    if (out.dtype() == kInt32) {
      search_rows<T>(static_cast<int32_t*>(out.raw_data()), s, v, n, len, per_row, right);
    } else {
      search_rows<T>(static_cast<int64_t*>(out.raw_data()), s, v, n, len, per_row, right);
    }
  });
}

}  // namespace tide::kernels
