#pragma once
// The loops under advanced indexing on the cpu (Note [Advanced indexing] in ops/indexing.cpp):
// indices are checked and wrapped once (index_wrap), after which every indexing op is a read
// (take) or a write (put) through flat element numbers, and a mask becomes numbers (nonzero).

#include <cstdint>

#include "kernels/index_error.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// out[j] = index[j] + (index[j] < 0 ? size : 0). out and index are contiguous int64 of one
/// shape. The first index outside [-size, size) ([0, size) unless `wraps`) is reported (position, value, size; Note
/// [Index errors in kernels]) and every bad one becomes 0: on a stream the ops after this one
/// still run (the error surfaces at the next synchronizing call) and must read valid elements
/// (an empty tensor has none, but then take and put_ have nothing to do either: size 0 means
/// every index was bad and the error is raised).
IndexError index_wrap_kernel(const Tensor& out, const Tensor& index, int64_t size, bool wraps);

/// out[j] = in[index[j]], where index numbers in's elements in row-major order (in may have
/// any strides, stride 0 included). out is contiguous with in's dtype and index's numel; index
/// is contiguous int64 already wrapped into [0, in.numel()).
void take_kernel(const Tensor& out, const Tensor& in, const Tensor& index);

/// gather along `dim` in one pass: out[j] = in[..., index[j], ...], the index supplying the
/// coordinate along dim and j's own position in index's shape the others (in may have any
/// strides). out and index are contiguous, of index's shape (as many dims as in, each no larger
/// than in's apart from dim); out has in's dtype, index is int64 and not yet checked: the first
/// entry (by position) outside [0, in.size(dim)) is returned and every bad one reads as 0, as
/// index_wrap_kernel's (Note [A gather of its own] in ops/indexing_along_dim.cpp).
IndexError gather_kernel(const Tensor& out, const Tensor& in, const Tensor& index, int64_t dim);

/// self[index[j]] = source[j] (accumulate: +=, in index order), with index numbering self's
/// elements as take_kernel does (self may have any strides). source is contiguous with self's
/// dtype and index's numel. Without accumulate, the last write to an element wins.
void put_kernel(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);

/// How put_reduce_kernel combines an element with what lands on it (scatter_reduce's prod,
/// amax and amin; its sum and mean add through put_kernel). On bool: and, or, and.
enum class PutReduce { Prod, Amax, Amin };

/// self[index[j]] = op(self[index[j]], source[j]), operands as for put_kernel. amax and amin
/// propagate NaN, as torch's scatter_reduce does (a NaN landing on an element, or one already
/// there, stays). Every op is order-independent, so repeated indices give one result anywhere.
void put_reduce_kernel(const Tensor& self, const Tensor& index, const Tensor& source,
                       PutReduce op);

/// Row r of out (n, mask.dim()) is the coordinate of the r-th true element of mask in row-major
/// order. mask is contiguous bool with exactly n true elements; out is contiguous int64.
void nonzero_kernel(const Tensor& out, const Tensor& mask);

}  // namespace tide::kernels
