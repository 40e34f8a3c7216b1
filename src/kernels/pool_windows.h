#pragma once
// The pooling windows, shared by the cpu loops (kernels/cpu/pool_kernels.cpp) and the GPU
// kernels (kernels/cuda/pool_kernels.cu) so both pool exactly the same elements with the same
// divisors (DESIGN.md decision 6).

#include <cstdint>

#include "kernels/conv_geometry.h"
#include "tide/macros.h"

namespace tide::kernels {

/// An avg_pool2d window: its bounds clipped to the input and torch's divisor.
struct AvgWindow {
  int64_t h0, h1, w0, w1, divisor;
};

TIDE_HOST_DEVICE inline AvgWindow avg_window(int64_t oh, int64_t ow, const PoolGeometry& g) {
  int64_t h0 = oh * g.stride[0] - g.pad[0], w0 = ow * g.stride[1] - g.pad[1];
  int64_t h1 = h0 + g.kernel[0] < g.in_h + g.pad[0] ? h0 + g.kernel[0] : g.in_h + g.pad[0];
  int64_t w1 = w0 + g.kernel[1] < g.in_w + g.pad[1] ? w0 + g.kernel[1] : g.in_w + g.pad[1];
  const int64_t padded_size = (h1 - h0) * (w1 - w0);
  h0 = h0 > 0 ? h0 : 0;
  w0 = w0 > 0 ? w0 : 0;
  h1 = h1 < g.in_h ? h1 : g.in_h;
  w1 = w1 < g.in_w ? w1 : g.in_w;
  const int64_t divisor = g.divisor_override != 0 ? g.divisor_override
                          : g.count_include_pad   ? padded_size
                                                  : (h1 - h0) * (w1 - w0);
  return {h0, h1, w0, w1, divisor};
}

/// adaptive_avg_pool2d: output i of `out` averages input [begin, end) of `in`.
TIDE_HOST_DEVICE inline int64_t adaptive_begin(int64_t i, int64_t in, int64_t out) {
  return (i * in) / out;
}
TIDE_HOST_DEVICE inline int64_t adaptive_end(int64_t i, int64_t in, int64_t out) {
  return ((i + 1) * in + out - 1) / out;
}

/// adaptive_avg_pool2d's window for output (oh, ow), as an AvgWindow (its divisor: its size).
TIDE_HOST_DEVICE inline AvgWindow adaptive_window(int64_t oh, int64_t ow, const PoolGeometry& g) {
  const int64_t h0 = adaptive_begin(oh, g.in_h, g.out_h), h1 = adaptive_end(oh, g.in_h, g.out_h);
  const int64_t w0 = adaptive_begin(ow, g.in_w, g.out_w), w1 = adaptive_end(ow, g.in_w, g.out_w);
  return {h0, h1, w0, w1, (h1 - h0) * (w1 - w0)};
}

/// max_pool2d over one window of `plane`: the maximum and its flat index (h * W + w). A NaN
/// takes the maximum, so the last NaN wins, as in torch's cpu and CUDA kernels (each takes
/// `val > maxval || isnan(val)`); ties keep the first maximum.
template <class T>
TIDE_HOST_DEVICE inline void max_window(const T* plane, int64_t oh, int64_t ow,
                                        const PoolGeometry& g, T& best, int64_t& best_index) {
  const int64_t h0 = oh * g.stride[0] - g.pad[0], w0 = ow * g.stride[1] - g.pad[1];
  best = T(0);
  best_index = -1;
  for (int64_t kh = 0; kh < g.kernel[0]; ++kh) {
    const int64_t ih = h0 + kh * g.dilation[0];
    if (ih < 0 || ih >= g.in_h) continue;
    for (int64_t kw = 0; kw < g.kernel[1]; ++kw) {
      const int64_t iw = w0 + kw * g.dilation[1];
      if (iw < 0 || iw >= g.in_w) continue;
      const T v = plane[ih * g.in_w + iw];
      if (best_index < 0 || v > best || v != v) {
        best = v;
        best_index = ih * g.in_w + iw;
      }
    }
  }
}

}  // namespace tide::kernels
