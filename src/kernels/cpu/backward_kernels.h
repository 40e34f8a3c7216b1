#pragma once
// Backward loops on the cpu: the gradients of index_select, max/min along a dim and nll_loss,
// which no composition of forward kernels computes efficiently.

#include <cstdint>

#include "kernels/cpu/loss_kernels.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// out[o, index[j], i] += src[o, j, i] with out viewed as (outer, size, inner) around `dim` and
/// src as (outer, index.numel(), inner): index_select's backward (torch's index_add_). out and
/// src are contiguous float32 or float64 of one dtype; index is contiguous int64 or int32.
/// Repeated indices accumulate in index order. The forward index_select has checked the
/// indices; one outside [0, size) is skipped here, never written through.
void index_add_kernel(const Tensor& out, const Tensor& src, const Tensor& index, int64_t dim);

/// The backward of max and min along a dim (torch's value_selecting_reduction_backward): out,
/// viewed as (outer, size, inner) around `dim`, becomes 0 except out[o, index[o, i], i] =
/// src[o, i]. src and index have out's shape with size 1 at `dim` (keepdim), or size k there
/// (sort and topk's backward: out[o, index[o, j, i], i] = src[o, j, i], the indices of a line
/// distinct); every tensor is
/// contiguous; src and out share a dtype (any: elements are moved, not computed); index is
/// int64. An index outside [0, size) is skipped (the forward produced every index).
void scatter_dim_kernel(const Tensor& out, const Tensor& src, const Tensor& index, int64_t dim);

/// nll_loss's backward: grad_input (N, C) becomes -weight[t_n] * g_n at (n, t_n) and 0
/// elsewhere, where g_n is grad_output[n] (None) or grad_output[0], divided by the total
/// weight of the counted targets for Mean (summed in double in target order, as the forward
/// does). Rows whose target is ignore_index, or outside [0, C) (the forward reported it), are
/// all 0. Every tensor is contiguous; grad_input, grad_output and weight (optional) share a
/// floating dtype; target is int64 or uint8.
void nll_loss_backward_kernel(const Tensor& grad_input, const Tensor& grad_output,
                              const Tensor& target, const Tensor& weight, LossReduction reduction,
                              int64_t ignore_index);

}  // namespace tide::kernels
