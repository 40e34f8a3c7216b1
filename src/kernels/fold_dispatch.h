#pragma once
// The typed pointers of a fold's input and output (sum, mean, prod, cumsum, cumprod; Note
// [Reduction folds]), shared by the cpu loops and the GPU launchers' host code.

#include <type_traits>

#include "tide/tensor.h"

namespace tide::kernels {

/// Calls f(src, dst) with in's elements and out's: out has in's dtype, or int64 for a bool or
/// integer input (Note [Reduction accumulators]).
template <class F>
void with_fold_pointers(const Tensor& out, const Tensor& in, F&& f) {
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using In = typename decltype(tag)::type;
    const In* src = static_cast<const In*>(in.raw_data());
    if (out.dtype() == in.dtype()) {
      f(src, static_cast<In*>(out.raw_data()));
    } else if constexpr (std::is_integral_v<In>) {
      TIDE_INTERNAL_ASSERT(out.dtype() == kInt64);
      f(src, static_cast<int64_t*>(out.raw_data()));
    } else {
      TIDE_INTERNAL_ASSERT(false, "a floating input folds into its own dtype");
    }
  });
}

}  // namespace tide::kernels
