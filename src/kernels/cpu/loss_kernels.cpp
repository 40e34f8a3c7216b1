#include "kernels/cpu/loss_kernels.h"

#include <type_traits>

#include "kernels/convert.h"
#include "kernels/cpu/reduce_kernels.h"

namespace tide::kernels {
namespace {

template <class T, class Target>
IndexError nll_loss_impl(T* out, const T* input, const Target* target, const T* weight, int64_t n,
                         int64_t classes, LossReduction reduction, int64_t ignore_index) {
  // Accumulate in double: batches are small next to the inputs of a sum, and this keeps the
  // result independent of the order of the terms for every floating dtype.
  using C = compute_t<T>;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t t = static_cast<int64_t>(target[i]);
    if (t == ignore_index) continue;
    if (t < 0 || t >= classes) return IndexError{i, t, classes};
  }
  double total = 0, total_weight = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t t = static_cast<int64_t>(target[i]);
    if (t == ignore_index) {
      if (reduction == LossReduction::None) out[i] = convert<T>(C(0));
      continue;
    }
    const C w = weight ? convert<C>(weight[t]) : C(1);
    const C loss = -w * convert<C>(input[i * classes + t]);
    if (reduction == LossReduction::None) {
      out[i] = convert<T>(loss);
    } else {
      total += static_cast<double>(loss);
      total_weight += static_cast<double>(w);
    }
  }
  if (reduction == LossReduction::Sum) out[0] = convert<T>(static_cast<C>(total));
  if (reduction == LossReduction::Mean) out[0] = convert<T>(static_cast<C>(total / total_weight));
  return IndexError{};
}

}  // namespace

IndexError nll_loss_kernel(const Tensor& out, const Tensor& input, const Tensor& target,
                           const Tensor& weight, LossReduction reduction, int64_t ignore_index) {
  TIDE_INTERNAL_ASSERT(input.dim() == 2 && dense(input) && dense(target));
  TIDE_INTERNAL_ASSERT(target.dtype() == kInt64 || target.dtype() == kUInt8);
  TIDE_INTERNAL_ASSERT(!weight.defined() || (dense(weight) && weight.dtype() == input.dtype()));
  TIDE_INTERNAL_ASSERT(dense(out) && out.dtype() == input.dtype());
  const int64_t n = input.shape()[0], classes = input.shape()[1];
  return dispatch_dtype(input.dtype(), [&](auto tag) -> IndexError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      const T* w = weight.defined() ? static_cast<const T*>(weight.raw_data()) : nullptr;
      if (target.dtype() == kUInt8) {
        return nll_loss_impl<T, uint8_t>(static_cast<T*>(out.raw_data()),
                                         static_cast<const T*>(input.raw_data()),
                                         static_cast<const uint8_t*>(target.raw_data()), w, n,
                                         classes, reduction, ignore_index);
      }
      return nll_loss_impl<T, int64_t>(static_cast<T*>(out.raw_data()),
                                       static_cast<const T*>(input.raw_data()),
                                       static_cast<const int64_t*>(target.raw_data()), w, n,
                                       classes, reduction, ignore_index);
    } else {
      TIDE_INTERNAL_ASSERT(false, "nll_loss_kernel needs a floating input");
      return IndexError{};
    }
  });
}

}  // namespace tide::kernels
