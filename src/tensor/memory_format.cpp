// Memory formats: the layout queries (is_contiguous(memory_format), suggest_memory_format,
// is_non_overlapping_and_dense) and the strides a new tensor gets (tensor/memory_format.h).
//
// Note [Memory formats]: tide decides a new tensor's layout in three places, each as torch 1.13:
//   * factories given a format (empty, *_like, clone, to, contiguous): Contiguous and
//     ChannelsLast(3d) give the format's standard strides (strides_for); Preserve (the default
//     of *_like, clone and to) keeps the source's strides when the source is non-overlapping and
//     dense, and otherwise gives a dense tensor whose dims lie in the source's stride order
//     (dense_strides_like: a sliced channels-last tensor clones to a channels-last one);
//   * pointwise ops (ops/elementwise_layout.h): their output follows their tensor operands'
//     layout as TensorIterator's does — contiguous when all are, channels-last when all are,
//     the shared strides when all are dense alike, else the operands' stride order with the
//     first operand deciding ties (c + x is channels-last for a channels-last c, x + c is not);
//   * layout-aware nn ops (convolution, pooling, batch norm): channels-last output when the
//     input (for convolution: the input or the weight) suggests channels-last.
// The contiguous case is checked first everywhere: it is one cached bool per operand, so the
// common path costs no more than it did before memory formats existed.

#include "tensor/memory_format.h"

#include <algorithm>

#include "tensor/tensor_internal.h"

namespace tide {

std::ostream& operator<<(std::ostream& os, MemoryFormat format) {
  switch (format) {
    case MemoryFormat::Contiguous: return os << "Contiguous";
    case MemoryFormat::Preserve: return os << "Preserve";
    case MemoryFormat::ChannelsLast: return os << "ChannelsLast";
    case MemoryFormat::ChannelsLast3d: return os << "ChannelsLast3d";
  }
  return os << "MemoryFormat(" << static_cast<int>(format) << ")";
}

namespace detail {
namespace {

/// The dims of a channels-last tensor from the fastest-varying to the slowest.
const DimVector& channels_last_order(int64_t ndim) {
  static const DimVector order_2d{1, 3, 2, 0}, order_3d{1, 4, 3, 2, 0};
  return ndim == 4 ? order_2d : order_3d;
}

/// torch's compute_channels_last_contiguous_{2d,3d}: dense in NHWC (NDHWC) order, size-1 dims'
/// strides ignored.
bool channels_last_contiguous(const DimVector& sizes, const DimVector& strides) {
  int64_t expected = 1;
  for (int64_t d : channels_last_order(sizes.size())) {
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

/// torch's is_channels_last_strides_{2d,3d}_s4/s5: the strides grow in NHWC (NDHWC) order;
/// ambiguous cases (a trivial channel dim, N111 shapes) count as NCHW.
bool strides_like_channels_last(const DimVector& sizes, const DimVector& strides) {
  if (strides[1] == 0) return false;
  int64_t min = 0;
  for (int64_t d : channels_last_order(sizes.size())) {
    if (sizes[d] == 0) return false;
    if (strides[d] < min) return false;
    if (d == 0 && min == strides[1]) return false;
    min = strides[d];
    if (sizes[d] > 1) min *= sizes[d];
  }
  return true;
}

}  // namespace

DimVector strides_for(MemoryFormat format, const DimVector& sizes, const char* where) {
  switch (format) {
    case MemoryFormat::ChannelsLast:
      TIDE_CHECK(sizes.size() == 4, "[", where, "] required rank 4 tensor to use channels_last "
                 "format, but got a tensor of ", sizes.size(), " dims; use contiguous_format");
      break;
    case MemoryFormat::ChannelsLast3d:
      TIDE_CHECK(sizes.size() == 5, "[", where, "] required rank 5 tensor to use "
                 "channels_last_3d format, but got a tensor of ", sizes.size(),
                 " dims; use contiguous_format");
      break;
    case MemoryFormat::Preserve:
      TIDE_CHECK(false, "[", where, "] unsupported memory format Preserve; preserve_format "
                 "needs a tensor to copy the layout from (use it with *_like, clone or to)");
      break;
    case MemoryFormat::Contiguous: return contiguous_strides(sizes);
  }
  // torch's get_channels_last_strides_{2d,3d}: plain products (a zero size gives zero strides)
  DimVector strides(sizes.size());
  int64_t s = 1;
  for (int64_t d : channels_last_order(sizes.size())) {
    strides[d] = s;
    (void)__builtin_mul_overflow(s, sizes[d], &s);  // only an empty tensor can overflow
  }
  return strides;
}

DimVector dense_strides_like(const DimVector& sizes, const DimVector& strides) {
  // torch's infer_dense_strides: a stable insertion sort of the dims by stride, innermost
  // first, that leaves broadcast (stride 0) dims where they are and puts the smaller of two
  // equal-stride dims first; then dense strides in that order.
  const int64_t ndim = sizes.size();
  const DimVector perm = dims_innermost_first(ndim, [&](int64_t d0, int64_t d1) {
    if (strides[d0] == 0 || strides[d1] == 0) return 0;
    if (strides[d0] != strides[d1]) return strides[d0] < strides[d1] ? -1 : 1;
    return sizes[d0] > sizes[d1] ? 1 : 0;
  });
  DimVector out(ndim);
  int64_t s = 1;
  for (int64_t i = 0; i < ndim; ++i) {
    out[perm[i]] = s;
    if (sizes[perm[i]] > 1) s *= sizes[perm[i]];
  }
  return out;
}

DimVector preserved_strides(const Tensor& like) {
  // exactly like's strides, size-1 dims' included (a (1, 3) tensor of strides (1, 1) stays so)
  if (like.is_non_overlapping_and_dense()) return like.stride_vector();
  return dense_strides_like(like.shape(), like.stride_vector());
}

DimVector strides_for(MemoryFormat format, const Tensor& like, const char* where) {
  return format == MemoryFormat::Preserve ? preserved_strides(like)
                                          : strides_for(format, like.shape(), where);
}

Tensor make_empty_strided(const DimVector& sizes, const DimVector& strides, Dtype dtype,
                          Device device, bool pinned, const char* where) {
  Tensor t = make_empty(sizes, dtype, device, pinned, where);
  if (strides == t.stride_vector()) return t;
  // Dense strides in another order address the same numel elements.
  return Tensor(t.storage(), dtype, sizes, strides, 0);
}

}  // namespace detail

bool Tensor::is_contiguous(MemoryFormat memory_format) const {
  switch (memory_format) {
    case MemoryFormat::ChannelsLast:
      return dim() == 4 && detail::channels_last_contiguous(shape(), stride_vector());
    case MemoryFormat::ChannelsLast3d:
      return dim() == 5 && detail::channels_last_contiguous(shape(), stride_vector());
    case MemoryFormat::Contiguous:
    case MemoryFormat::Preserve: break;
  }
  return impl_->contiguous;
}

MemoryFormat Tensor::suggest_memory_format() const {
  if (dim() == 4 && detail::strides_like_channels_last(shape(), stride_vector()))
    return MemoryFormat::ChannelsLast;
  if (dim() == 5 && detail::strides_like_channels_last(shape(), stride_vector()))
    return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

bool Tensor::is_non_overlapping_and_dense() const {
  if (impl_->contiguous) return true;
  const DimVector& sizes = shape();
  const DimVector& strides = stride_vector();
  const int64_t ndim = dim();
  if (ndim == 1) return sizes[0] < 2 || strides[0] == 1;
  // torch's compute_non_overlapping_and_dense: dims of size >= 2 sorted by stride must be dense
  DimVector perm(ndim);
  for (int64_t i = 0; i < ndim; ++i) perm[i] = i;
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t required = 1;
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t size = sizes[perm[i]];
    if (size < 2) return true;
    if (strides[perm[i]] != required) return false;
    required *= size;
  }
  return true;
}

}  // namespace tide
