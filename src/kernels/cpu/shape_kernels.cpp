#include "kernels/cpu/shape_kernels.h"

#include <algorithm>
#include <cstring>

#include "kernels/cpu/copy_kernels.h"
#include "kernels/cpu/parallel.h"
#include "kernels/cpu/reduce_kernels.h"

namespace tide::kernels {

void cat_kernel(const Tensor& out, const std::vector<Tensor>& inputs, int64_t dim) {
  TIDE_INTERNAL_ASSERT(dense(out));
  const ReduceShape around = split_at_dim(out.shape(), dim);
  const int64_t outer = around.outer, inner = around.inner;
  const int64_t total = out.shape()[dim];
  const int64_t es = static_cast<int64_t>(out.element_size());
  char* dst = static_cast<char*>(out.raw_data());
  int64_t offset = 0;
  for (const Tensor& t : inputs) {
    const int64_t size = t.shape()[dim];
    if (t.numel() > 0) {
      if (t.dtype() == out.dtype() && t.is_contiguous()) {
        // each outer index contributes one contiguous run of size * inner elements
        const char* src = static_cast<const char*>(t.raw_data());
        const int64_t run = size * inner * es;
        const int64_t grain = std::max<int64_t>(1, kGrainSize * 4 / std::max<int64_t>(run, 1));
        parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
          for (int64_t o = b; o < e; ++o) {
            std::memcpy(dst + (o * total + offset) * inner * es, src + o * run,
                        static_cast<size_t>(run));
          }
        });
      } else {
        // Strided or converting: the copy loops, run here. Not copy_, an op: on a simulated
        // GPU this kernel runs on the stream's worker, and an op issued there would be
        // enqueued behind whatever the caller queued after cat (its own read of the result).
        copy_kernel(out.narrow(dim, offset, size), t);
      }
    }
    offset += size;
  }
}

}  // namespace tide::kernels
