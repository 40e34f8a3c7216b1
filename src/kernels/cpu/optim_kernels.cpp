#include "kernels/cpu/optim_kernels.h"

#include <type_traits>

#include "kernels/convert.h"
#include "kernels/cpu/parallel.h"
#include "kernels/cpu/reduce_kernels.h"

namespace tide::kernels {
namespace {

/// The typed pointer of an optional operand: nullptr when it is undefined (not used).
template <class T>
T* data_or_null(const Tensor& t) {
  return t.defined() ? static_cast<T*>(t.raw_data()) : nullptr;
}

template <class T>
void sgd_loop(T* param, const T* grad, T* buf, int64_t n, const SgdUpdate<compute_t<T>>& update) {
  using C = compute_t<T>;
  parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      // A first step's buffer is fresh memory: never read it.
      C b = buf != nullptr && !update.first_step ? convert<C>(buf[i]) : C(0);
      param[i] = convert<T>(update(convert<C>(param[i]), convert<C>(grad[i]), b));
      if (buf != nullptr) buf[i] = convert<T>(b);
    }
  });
}

template <class T>
void adam_loop(T* param, const T* grad, T* exp_avg, T* exp_avg_sq, T* max_exp_avg_sq, int64_t n,
               const AdamUpdate<compute_t<T>>& update) {
  using C = compute_t<T>;
  parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      C m = convert<C>(exp_avg[i]), v = convert<C>(exp_avg_sq[i]);
      C v_max = max_exp_avg_sq != nullptr ? convert<C>(max_exp_avg_sq[i]) : C(0);
      param[i] = convert<T>(update(convert<C>(param[i]), convert<C>(grad[i]), m, v, v_max));
      exp_avg[i] = convert<T>(m);
      exp_avg_sq[i] = convert<T>(v);
      if (max_exp_avg_sq != nullptr) max_exp_avg_sq[i] = convert<T>(v_max);
    }
  });
}

template <class T>
void rmsprop_loop(T* param, const T* grad, T* square_avg, T* grad_avg, T* buf, int64_t n,
                  const RmspropUpdate<compute_t<T>>& update) {
  parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      rmsprop_element(i, param, grad, square_avg, grad_avg, buf, update);
    }
  });
}

template <class T>
void adagrad_loop(T* param, const T* grad, T* sum, int64_t n,
                  const AdagradUpdate<compute_t<T>>& update) {
  parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) adagrad_element(i, param, grad, sum, update);
  });
}

}  // namespace

void sgd_kernel(const Tensor& param, const Tensor& grad, const Tensor& momentum_buffer,
                const SgdHyper& hyper) {
  const bool use_buffer = hyper.momentum != 0;
  TIDE_INTERNAL_ASSERT(dense(param) && dense(grad) && grad.dtype() == param.dtype());
  TIDE_INTERNAL_ASSERT(!use_buffer || (dense(momentum_buffer) &&
                                       momentum_buffer.dtype() == param.dtype()));
  dispatch_dtype(param.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      sgd_loop<T>(static_cast<T*>(param.raw_data()), static_cast<const T*>(grad.raw_data()),
                  use_buffer ? data_or_null<T>(momentum_buffer) : nullptr, param.numel(),
                  SgdUpdate<compute_t<T>>::from(hyper));
    } else {
      TIDE_INTERNAL_ASSERT(false, "sgd_kernel needs a floating parameter");
    }
  });
}

void adam_kernel(const Tensor& param, const Tensor& grad, const Tensor& exp_avg,
                 const Tensor& exp_avg_sq, const Tensor& max_exp_avg_sq, const AdamHyper& hyper) {
  TIDE_INTERNAL_ASSERT(dense(param) && dense(grad) && dense(exp_avg) && dense(exp_avg_sq));
  TIDE_INTERNAL_ASSERT(!hyper.amsgrad || dense(max_exp_avg_sq));
  dispatch_dtype(param.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      adam_loop<T>(static_cast<T*>(param.raw_data()), static_cast<const T*>(grad.raw_data()),
                   static_cast<T*>(exp_avg.raw_data()), static_cast<T*>(exp_avg_sq.raw_data()),
                   hyper.amsgrad ? data_or_null<T>(max_exp_avg_sq) : nullptr, param.numel(),
                   AdamUpdate<compute_t<T>>::from(hyper));
    } else {
      TIDE_INTERNAL_ASSERT(false, "adam_kernel needs a floating parameter");
    }
  });
}

void rmsprop_kernel(const Tensor& param, const Tensor& grad, const Tensor& square_avg,
                    const Tensor& grad_avg, const Tensor& momentum_buffer,
                    const RmspropHyper& hyper) {
  TIDE_INTERNAL_ASSERT(dense(param) && dense(grad) && dense(square_avg));
  TIDE_INTERNAL_ASSERT(!hyper.centered || dense(grad_avg));
  TIDE_INTERNAL_ASSERT(hyper.momentum <= 0 || dense(momentum_buffer));
  dispatch_floating(param.dtype(), "rmsprop_kernel", [&](auto tag) {
    using T = typename decltype(tag)::type;
    rmsprop_loop<T>(static_cast<T*>(param.raw_data()), static_cast<const T*>(grad.raw_data()),
                    static_cast<T*>(square_avg.raw_data()),
                    hyper.centered ? data_or_null<T>(grad_avg) : nullptr,
                    hyper.momentum > 0 ? data_or_null<T>(momentum_buffer) : nullptr,
                    param.numel(), RmspropUpdate<compute_t<T>>::from(hyper));
  });
}

void adagrad_kernel(const Tensor& param, const Tensor& grad, const Tensor& sum,
                    const AdagradHyper& hyper) {
  TIDE_INTERNAL_ASSERT(dense(param) && dense(grad) && dense(sum));
  dispatch_floating(param.dtype(), "adagrad_kernel", [&](auto tag) {
    using T = typename decltype(tag)::type;
    adagrad_loop<T>(static_cast<T*>(param.raw_data()), static_cast<const T*>(grad.raw_data()),
                    static_cast<T*>(sum.raw_data()), param.numel(),
                    AdagradUpdate<compute_t<T>>::from(hyper));
  });
}

}  // namespace tide::kernels
