#pragma once
// The GPU launchers of the reduction, softmax, loss, index, cat and random stubs
// (kernels/stubs.h gives each one's contract; the cpu headers say what each computes). Each
// enqueues on the launch in progress (Note [Native launches]) and returns without waiting.

#include <cstdint>
#include <vector>

#include "kernels/cpu/loss_kernels.h"
#include "kernels/cpu/reduce_kernels.h"
#include "tensor/generator.h"
#include "tide/tensor.h"

namespace tide::kernels::cuda {

void sum_cuda(const Tensor& out, const Tensor& in, kernels::ReduceShape shape, bool mean);
void prod_cuda(const Tensor& out, const Tensor& in, kernels::ReduceShape shape);
void scan_cuda(const Tensor& out, const Tensor& in, kernels::ReduceShape shape, bool prod);
void cum_extremum_cuda(const Tensor& values, const Tensor& indices, const Tensor& in,
                       kernels::ReduceShape shape, bool is_max);
void sort_cuda(const Tensor& values, const Tensor& indices, const Tensor& in,
               kernels::ReduceShape shape, bool descending);
/// searchsorted's binary search (kernels/cpu/search_kernels.h says what it computes).
void search_cuda(const Tensor& out, const Tensor& sorted, const Tensor& values, int64_t len,
                 int64_t per_row, bool right);
void min_max_cuda(const Tensor& values, const Tensor& indices, const Tensor& in,
                  kernels::ReduceShape shape, bool is_max);
void softmax_cuda(const Tensor& out, const Tensor& in, kernels::ReduceShape shape, bool log);
/// A bad target is recorded in the device's error record (Note [Device error records]).
void nll_loss_cuda(const Tensor& out, const Tensor& input, const Tensor& target,
                   const Tensor& weight, kernels::LossReduction reduction, int64_t ignore_index);
/// A bad index is recorded in the device's error record (Note [Device error records]).
void index_select_cuda(const Tensor& out, const Tensor& in, const Tensor& index, int64_t dim);
void cat_cuda(const Tensor& out, const std::vector<Tensor>& inputs, int64_t dim);
void uniform_cuda(const Tensor& t, detail::PhiloxStart start, double from, double to);
void normal_cuda(const Tensor& t, detail::PhiloxStart start, double mean, double std);
void randint_cuda(const Tensor& t, detail::PhiloxStart start, int64_t low, uint64_t range);

}  // namespace tide::kernels::cuda
