#pragma once
// The GPU launchers of the advanced indexing stubs (kernels/stubs.h; kernels/cpu/
// advanced_index_kernels.h says what each computes). Each enqueues on the launch in progress
// (Note [Native launches]) and returns without waiting.

#include <cstdint>

#include "kernels/cpu/advanced_index_kernels.h"
#include "kernels/index_error.h"
#include "tide/tensor.h"

namespace tide::kernels::cuda {

/// A bad index is recorded in the device's error record (Note [Device error records]).
void index_wrap_cuda(const Tensor& out, const Tensor& index, int64_t size,
                     kernels::IndexErrorKind kind, int64_t aux);
void take_cuda(const Tensor& out, const Tensor& in, const Tensor& index);
/// A bad index is recorded as for index_wrap (kind DimIndex, aux dim).
void gather_cuda(const Tensor& out, const Tensor& in, const Tensor& index, int64_t dim);
/// Accumulation uses atomics (float32, float64, int32, int64): repeated indices add up in an
/// unspecified order, as torch's index_put_(accumulate=True) on GPUs.
void put_cuda(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);
/// prod, amax and amin through a compare-and-swap loop (float32, float64, int32, int64): each is
/// order-independent, so repeated indices give the cpu's result (prod of floats up to rounding).
void put_reduce_cuda(const Tensor& self, const Tensor& index, const Tensor& source,
                     kernels::PutReduce op);
void nonzero_cuda(const Tensor& out, const Tensor& mask);

}  // namespace tide::kernels::cuda
