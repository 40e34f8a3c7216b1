#include "kernels/cpu/copy_kernels.h"

#include <cstring>

#include "kernels/convert.h"
#include "kernels/cpu/elementwise.h"
#include "kernels/cpu/parallel.h"

namespace tide::kernels {

void copy_kernel(const Tensor& dst, const Tensor& src) {
  Tensor s = src.dim() == dst.dim() && src.shape() == dst.shape() ? src : src.expand(dst.sizes());
  if (dst.dtype() == s.dtype() && dst.is_contiguous() && s.is_contiguous()) {
    if (dst.numel() > 0 && dst.raw_data() != s.raw_data()) {
      std::memcpy(dst.raw_data(), s.raw_data(), dst.nbytes());
    }
    return;
  }
  auto it = ElementwiseIter::build({&dst, &s});
  dispatch_dtype(dst.dtype(), [&](auto out_tag) {
    using Out = typename decltype(out_tag)::type;
    dispatch_dtype(s.dtype(), [&](auto in_tag) {
      using In = typename decltype(in_tag)::type;
      unary_loop<Out, In>(it, [](In v) { return convert<Out>(v); });
    });
  });
}

void fill_kernel(const Tensor& t, const Scalar& value) {
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.to<T>();
    if (t.is_contiguous()) {
      T* p = static_cast<T*>(t.raw_data());
      parallel_for(0, t.numel(), kGrainSize, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) p[i] = v;
      });
      return;
    }
    auto it = ElementwiseIter::build({&t});
    run_elementwise(it, [&](char** p, const int64_t* s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(p[0] + i * s[0]) = v;
    });
  });
}

}  // namespace tide::kernels
