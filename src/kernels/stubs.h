#pragma once
// The kernel stubs of every op (Note [Kernel stubs]). The cpu loops are defined in
// kernels/cpu/stubs.cpp; the GPU launchers in kernels/cuda/, registered at backend start.

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/cpu/advanced_index_kernels.h"
#include "kernels/cpu/elementwise_kernels.h"
#include "kernels/cpu/loss_kernels.h"
#include "kernels/cpu/optim_kernels.h"
#include "kernels/cpu/reduce_kernels.h"
#include "kernels/cpu/search_kernels.h"
#include "kernels/cpu/sort_kernels.h"
#include "kernels/index_error.h"
#include "kernels/kernel_stub.h"
#include "tensor/generator.h"
#include "tide/scalar.h"
#include "tide/tensor.h"

namespace tide::kernels {

using detail::PhiloxStart;

// ---- elementwise (kernels/cpu/elementwise_kernels.h says what each computes)
extern KernelStub<void(BinaryOp, const Tensor&, const Tensor&, const Tensor&, const Scalar&)>
    binary_stub;
extern KernelStub<void(BinaryOp, const Tensor&, const Tensor&, const Scalar&, bool,
                       const Scalar&)>
    binary_scalar_stub;
extern KernelStub<void(UnaryOp, const Tensor&, const Tensor&)> unary_stub;
extern KernelStub<void(TernaryOp, const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                       const Scalar&)>
    ternary_stub;
extern KernelStub<void(const Tensor&, const Tensor&, const std::optional<Scalar>&,
                       const std::optional<Scalar>&)>
    clamp_stub;
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const Tensor&)> where_stub;
/// fill(t, value): every element of t (any strides) becomes value.
extern KernelStub<void(const Tensor&, const Scalar&)> fill_stub;
/// copy(dst, src) on one device: src broadcast to dst's shape, converted to dst's dtype, any
/// strides on both sides.
extern KernelStub<void(const Tensor&, const Tensor&)> copy_stub;

// ---- reductions, softmax, losses, indexing, shape (the cpu headers say what each computes)
extern KernelStub<void(const Tensor&, const Tensor&, ReduceShape, bool)> sum_stub;
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, ReduceShape, bool)>
    min_max_stub;
extern KernelStub<void(const Tensor&, const Tensor&, ReduceShape)> prod_stub;
extern KernelStub<void(const Tensor&, const Tensor&, ReduceShape, bool)> scan_stub;
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, ReduceShape, bool)>
    cum_extremum_stub;
/// sort(values, indices, in, shape, descending): kernels/cpu/sort_kernels.h.
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, ReduceShape, bool)> sort_stub;
/// search(out, sorted, values, len, per_row, right): kernels/cpu/search_kernels.h.
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, int64_t, int64_t, bool)>
    search_stub;
extern KernelStub<void(const Tensor&, const Tensor&, ReduceShape, bool)> softmax_stub;
/// nll_loss(out, input, target, weight, reduction, ignore_index); a target outside [0, C) is
/// reported as Note [Index errors in kernels] says (message: index_error_message).
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const Tensor&, LossReduction,
                       int64_t)>
    nll_loss_stub;
/// index_select(out, in, index, dim); bad indices reported as for nll_loss.
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, int64_t)> index_select_stub;
extern KernelStub<void(const Tensor&, const std::vector<Tensor>&, int64_t)> cat_stub;
// ---- advanced indexing (kernels/cpu/advanced_index_kernels.h says what each computes)
/// index_wrap(out, index, size, kind, aux): negative indices wrapped; one outside [-size, size)
/// reported as for nll_loss (message: index_error_message(kind, ..., aux)).
extern KernelStub<void(const Tensor&, const Tensor&, int64_t, IndexErrorKind, int64_t)>
    index_wrap_stub;
/// take(out, in, index): out[j] = in[index[j]] by row-major element number.
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&)> take_stub;
/// gather(out, in, index, dim): out = in gathered along dim by index, whose entries are checked
/// in the same pass (kind DimIndex, aux dim).
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, int64_t)> gather_stub;
/// put(self, index, source, accumulate): self[index[j]] = (or +=) source[j].
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, bool)> put_stub;
/// put_reduce(self, index, source, op): self[index[j]] = op(self[index[j]], source[j]).
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, PutReduce)> put_reduce_stub;
/// nonzero(out, mask): the coordinates of mask's true elements, one row each.
extern KernelStub<void(const Tensor&, const Tensor&)> nonzero_stub;
// ---- backward (kernels/cpu/backward_kernels.h says what each computes)
/// index_add(out, src, index, dim): index_select's backward.
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, int64_t)> index_add_stub;
/// scatter_dim(out, src, index, dim): max/min along a dim's backward.
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, int64_t)> scatter_dim_stub;
/// nll_loss_backward(grad_input, grad_output, target, weight, reduction, ignore_index).
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const Tensor&, LossReduction,
                       int64_t)>
    nll_loss_backward_stub;
/// gemm(out, a, b, beta, alpha): out = beta * out + alpha * (a @ b) over 2-D or batched 3-D
/// operands (kernels/cpu/gemm.h).
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, Scalar, Scalar)> gemm_stub;

// ---- fused optimizer steps (kernels/cpu/optim_kernels.h); one launch per parameter and step.
/// sgd_step(param, grad, momentum_buffer, hyper)
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const SgdHyper&)> sgd_stub;
/// adam_step(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, hyper)
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                       const AdamHyper&)>
    adam_stub;
/// rmsprop_step(param, grad, square_avg, grad_avg, momentum_buffer, hyper)
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                       const RmspropHyper&)>
    rmsprop_stub;
/// adagrad_step(param, grad, sum, hyper)
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const AdagradHyper&)>
    adagrad_stub;

/// Every stub by op name, and whether its GPU launcher is registered (tide info, tests).
struct StubInfo {
  const char* name;
  bool has_cuda;
};
std::vector<StubInfo> all_stubs();

// ---- random (Note [Random transforms]); the tensor is contiguous and not empty.
extern KernelStub<void(const Tensor&, PhiloxStart, double, double)> uniform_stub;
extern KernelStub<void(const Tensor&, PhiloxStart, double, double)> normal_stub;
/// randint(t, start, low, range): values in [low, low + range).
extern KernelStub<void(const Tensor&, PhiloxStart, int64_t, uint64_t)> randint_stub;

}  // namespace tide::kernels
