#pragma once
// The GPU launchers of the backward stubs (kernels/stubs.h; kernels/cpu/backward_kernels.h says
// what each computes). Each enqueues on the launch in progress (Note [Native launches]).

#include <cstdint>

#include "kernels/cpu/loss_kernels.h"
#include "tide/tensor.h"

namespace tide::kernels::cuda {

/// Atomic adds: repeated indices accumulate in an unspecified order (torch's index_add_ on
/// GPUs); bad indices are skipped (the forward index_select reported them).
void index_add_cuda(const Tensor& out, const Tensor& src, const Tensor& index, int64_t dim);
void scatter_dim_cuda(const Tensor& out, const Tensor& src, const Tensor& index, int64_t dim);
void nll_loss_backward_cuda(const Tensor& grad_input, const Tensor& grad_output,
                            const Tensor& target, const Tensor& weight,
                            kernels::LossReduction reduction, int64_t ignore_index);

}  // namespace tide::kernels::cuda
