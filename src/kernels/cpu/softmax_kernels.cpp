#include "kernels/cpu/softmax_kernels.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "kernels/convert.h"
#include "kernels/cpu/parallel.h"

namespace tide::kernels {
namespace {

constexpr int64_t kTile = 256;

/// One contiguous slice of n elements (inner == 1, the common last-dim case).
template <class T, bool Log>
void softmax_row(T* __restrict out, const T* __restrict in, int64_t n) {
  using C = compute_t<T>;
  C m = convert<C>(in[0]);
  for (int64_t i = 1; i < n; ++i) {
    const C v = convert<C>(in[i]);
    m = v > m ? v : m;
  }
  C sum = 0;
  if constexpr (!Log && std::is_same_v<T, C>) {
    // keep exp(x - max) in out, then normalize: one exp per element
    for (int64_t i = 0; i < n; ++i) {
      const C e = std::exp(in[i] - m);
      out[i] = e;
      sum += e;
    }
    for (int64_t i = 0; i < n; ++i) out[i] = out[i] / sum;
    return;
  }
  for (int64_t i = 0; i < n; ++i) sum += std::exp(convert<C>(in[i]) - m);
  if constexpr (Log) {
    // (x - max) - log(sum), not x - (max + log(sum)): the latter loses the low bits of
    // log(sum) when max is large (torch subtracts in this order too).
    const C log_sum = std::log(sum);
    for (int64_t i = 0; i < n; ++i) out[i] = convert<T>((convert<C>(in[i]) - m) - log_sum);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = convert<T>(std::exp(convert<C>(in[i]) - m) / sum);
  }
}

/// A tile of `width` columns of a (rows, stride) slab, softmax down each column.
template <class T, bool Log>
void softmax_columns(T* out, const T* in, int64_t rows, int64_t stride, int64_t width,
                     compute_t<T>* __restrict m, compute_t<T>* __restrict sum) {
  using C = compute_t<T>;
  for (int64_t j = 0; j < width; ++j) {
    m[j] = convert<C>(in[j]);
    sum[j] = 0;
  }
  for (int64_t r = 1; r < rows; ++r) {
    const T* __restrict row = in + r * stride;
    for (int64_t j = 0; j < width; ++j) {
      const C v = convert<C>(row[j]);
      m[j] = v > m[j] ? v : m[j];
    }
  }
  for (int64_t r = 0; r < rows; ++r) {
    const T* __restrict row = in + r * stride;
    for (int64_t j = 0; j < width; ++j) sum[j] += std::exp(convert<C>(row[j]) - m[j]);
  }
  if constexpr (Log) {
    for (int64_t j = 0; j < width; ++j) sum[j] = std::log(sum[j]);  // see softmax_row
  }
  for (int64_t r = 0; r < rows; ++r) {
    const T* __restrict row = in + r * stride;
    T* __restrict dst = out + r * stride;
    for (int64_t j = 0; j < width; ++j) {
      const C v = convert<C>(row[j]);
      if constexpr (Log) {
        dst[j] = convert<T>((v - m[j]) - sum[j]);
      } else {
        dst[j] = convert<T>(std::exp(v - m[j]) / sum[j]);
      }
    }
  }
}

template <class T, bool Log>
void softmax_impl(T* out, const T* in, ReduceShape s) {
  using C = compute_t<T>;
  const int64_t outer = s.outer, rows = s.reduced, inner = s.inner;
  if (outer * rows * inner == 0) return;
  if (inner == 1) {
    const int64_t grain = std::max<int64_t>(1, kGrainSize / rows);
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) softmax_row<T, Log>(out + o * rows, in + o * rows, rows);
    });
    return;
  }
  const int64_t width = std::min(inner, kTile);
  const int64_t tiles = (inner + width - 1) / width;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / (rows * width));
  parallel_for(0, outer * tiles, grain, [&](int64_t b, int64_t e) {
    std::vector<C> scratch(static_cast<size_t>(2 * width));
    for (int64_t item = b; item < e; ++item) {
      const int64_t o = item / tiles;
      const int64_t c0 = (item % tiles) * width;
      const int64_t offset = o * rows * inner + c0;
      softmax_columns<T, Log>(out + offset, in + offset, rows, inner, std::min(width, inner - c0),
                              scratch.data(), scratch.data() + width);
    }
  });
}

}  // namespace

void softmax_kernel(const Tensor& out, const Tensor& in, ReduceShape shape, bool log) {
  TIDE_INTERNAL_ASSERT(dense(in) && dense(out) && in.dtype() == out.dtype());
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      T* o = static_cast<T*>(out.raw_data());
      const T* i = static_cast<const T*>(in.raw_data());
      if (log) {
        softmax_impl<T, true>(o, i, shape);
      } else {
        softmax_impl<T, false>(o, i, shape);
      }
    } else {
      TIDE_INTERNAL_ASSERT(false, "softmax_kernel needs a floating dtype");
    }
  });
}

}  // namespace tide::kernels
