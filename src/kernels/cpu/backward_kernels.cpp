#include "kernels/cpu/backward_kernels.h"

#include <algorithm>
#include <type_traits>

#include "kernels/convert.h"
#include "kernels/cpu/parallel.h"
#include "kernels/cpu/reduce_kernels.h"

namespace tide::kernels {
namespace {

template <class T, class Index>
void index_add_rows(T* out, const T* src, const Index* index, int64_t outer, int64_t size,
                    int64_t n, int64_t inner) {
  // Different `o` touch different rows of out: parallel over o, index order kept within it.
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n * inner, 1));
  parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      for (int64_t j = 0; j < n; ++j) {
        const int64_t v = static_cast<int64_t>(index[j]);
        if (v < 0 || v >= size) continue;
        T* __restrict dst = out + (o * size + v) * inner;
        const T* __restrict row = src + (o * n + j) * inner;
        for (int64_t i = 0; i < inner; ++i) dst[i] += row[i];
      }
    }
  });
}

/// Moves elements of `bytes` bytes as an unsigned integer of that size.
template <class U>
void scatter_dim_rows(U* out, const U* src, const int64_t* index, int64_t outer, int64_t size,
                      int64_t inner, int64_t k) {
  std::fill(out, out + outer * size * inner, U(0));  // all-zero bits are 0 in every dtype
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t e = o * k * inner; e < (o + 1) * k * inner; ++e) {
      const int64_t v = index[e], i = e % inner;
      if (v >= 0 && v < size) out[(o * size + v) * inner + i] = src[e];
    }
  }
}

template <class T, class Target>
void nll_loss_backward_impl(T* grad_input, const T* grad_output, const Target* target,
                            const T* weight, int64_t n, int64_t classes, LossReduction reduction,
                            int64_t ignore_index) {
  using C = compute_t<T>;
  double total_weight = 0;
  if (reduction == LossReduction::Mean) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t t = static_cast<int64_t>(target[i]);
      if (t == ignore_index || t < 0 || t >= classes) continue;
      total_weight += weight ? static_cast<double>(convert<C>(weight[t])) : 1.0;
    }
  }
  for (int64_t i = 0; i < n * classes; ++i) grad_input[i] = convert<T>(C(0));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t t = static_cast<int64_t>(target[i]);
    if (t == ignore_index || t < 0 || t >= classes) continue;
    const C w = weight ? convert<C>(weight[t]) : C(1);
    C g = convert<C>(grad_output[reduction == LossReduction::None ? i : 0]);
    if (reduction == LossReduction::Mean) g = static_cast<C>(static_cast<double>(g) / total_weight);
    grad_input[i * classes + t] = convert<T>(-w * g);
  }
}

}  // namespace

void index_add_kernel(const Tensor& out, const Tensor& src, const Tensor& index, int64_t dim) {
  TIDE_INTERNAL_ASSERT(dense(out) && dense(src) && dense(index));
  TIDE_INTERNAL_ASSERT(out.dtype() == src.dtype());
  TIDE_INTERNAL_ASSERT(out.dtype() == kFloat32 || out.dtype() == kFloat64);
  TIDE_INTERNAL_ASSERT(index.dtype() == kInt64 || index.dtype() == kInt32);
  const ReduceShape around = split_at_dim(out.shape(), dim);
  const int64_t n = index.numel();
  auto run = [&](auto* typed_out, const auto* idx) {
    using T = std::remove_pointer_t<decltype(typed_out)>;
    index_add_rows(typed_out, static_cast<const T*>(src.raw_data()), idx, around.outer,
                   around.reduced, n, around.inner);
  };
  auto with_index = [&](auto* typed_out) {
    if (index.dtype() == kInt32) {
      run(typed_out, static_cast<const int32_t*>(index.raw_data()));
    } else {
      run(typed_out, static_cast<const int64_t*>(index.raw_data()));
    }
  };
  if (out.dtype() == kFloat32) {
    with_index(static_cast<float*>(out.raw_data()));
  } else {
    with_index(static_cast<double*>(out.raw_data()));
  }
}

void scatter_dim_kernel(const Tensor& out, const Tensor& src, const Tensor& index, int64_t dim) {
  TIDE_INTERNAL_ASSERT(dense(out) && dense(src) && dense(index));
  TIDE_INTERNAL_ASSERT(out.dtype() == src.dtype() && index.dtype() == kInt64);
  const ReduceShape around = split_at_dim(out.shape(), dim);
  TIDE_INTERNAL_ASSERT(index.numel() == src.numel());
  const int64_t lines = around.outer * around.inner;
  const int64_t k = lines == 0 ? 0 : src.numel() / lines;
  TIDE_INTERNAL_ASSERT(src.numel() == lines * k);
  const auto* idx = static_cast<const int64_t*>(index.raw_data());
  auto run = [&](auto zero) {
    using U = decltype(zero);
    scatter_dim_rows(static_cast<U*>(out.raw_data()), static_cast<const U*>(src.raw_data()), idx,
                     around.outer, around.reduced, around.inner, k);
  };
  switch (out.element_size()) {
    case 1:
      run(uint8_t{});
      break;
    case 2:
      run(uint16_t{});
      break;
    case 4:
      run(uint32_t{});
      break;
    default:
      TIDE_INTERNAL_ASSERT(out.element_size() == 8);
      run(uint64_t{});
      break;
  }
}

void nll_loss_backward_kernel(const Tensor& grad_input, const Tensor& grad_output,
                              const Tensor& target, const Tensor& weight, LossReduction reduction,
                              int64_t ignore_index) {
  TIDE_INTERNAL_ASSERT(grad_input.dim() == 2 && dense(grad_input) && dense(grad_output) &&
                       dense(target));
  TIDE_INTERNAL_ASSERT(target.dtype() == kInt64 || target.dtype() == kUInt8);
  TIDE_INTERNAL_ASSERT(grad_output.dtype() == grad_input.dtype());
  TIDE_INTERNAL_ASSERT(!weight.defined() ||
                       (dense(weight) && weight.dtype() == grad_input.dtype()));
  const int64_t n = grad_input.shape()[0], classes = grad_input.shape()[1];
  dispatch_dtype(grad_input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      const T* w = weight.defined() ? static_cast<const T*>(weight.raw_data()) : nullptr;
      T* gi = static_cast<T*>(grad_input.raw_data());
      const T* go = static_cast<const T*>(grad_output.raw_data());
      if (target.dtype() == kUInt8) {
        nll_loss_backward_impl(gi, go, static_cast<const uint8_t*>(target.raw_data()), w, n,
                               classes, reduction, ignore_index);
      } else {
        nll_loss_backward_impl(gi, go, static_cast<const int64_t*>(target.raw_data()), w, n,
                               classes, reduction, ignore_index);
      }
    } else {
      TIDE_INTERNAL_ASSERT(false, "nll_loss_backward_kernel needs a floating gradient");
    }
  });
}

}  // namespace tide::kernels
