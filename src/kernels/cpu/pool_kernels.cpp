// cpu pooling loops (kernels/cpu/pool_kernels.h), torch's window rules (ATen's
// MaxPooling/AvgPool/AdaptiveAvgPooling kernels) written once per dtype.

#include "kernels/cpu/pool_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/parallel.h"
#include "tide/macros.h"

namespace tide::kernels {
namespace {

inline int64_t plane_grain(const PoolGeometry& g) {
  const int64_t work = g.out_h * g.out_w * g.kernel[0] * g.kernel[1] + g.in_h * g.in_w;
  return work >= kGrainSize ? 1 : kGrainSize / (work + 1) + 1;
}

/// Calls f.operator()<T>() for the tensor's floating dtype (the front ends allow no other).
template <class F>
void floating(const Tensor& t, F&& f) {
  if (t.dtype() == kFloat64) return f.template operator()<double>();
  TIDE_INTERNAL_ASSERT(t.dtype() == kFloat32);
  f.template operator()<float>();
}

/// An avg_pool2d window: its clipped bounds and torch's divisor.
struct AvgWindow {
  int64_t h0, h1, w0, w1, divisor;
};

AvgWindow avg_window(int64_t oh, int64_t ow, const PoolGeometry& g) {
  int64_t h0 = oh * g.stride[0] - g.pad[0], w0 = ow * g.stride[1] - g.pad[1];
  int64_t h1 = std::min(h0 + g.kernel[0], g.in_h + g.pad[0]);
  int64_t w1 = std::min(w0 + g.kernel[1], g.in_w + g.pad[1]);
  const int64_t padded_size = (h1 - h0) * (w1 - w0);
  h0 = std::max<int64_t>(h0, 0);
  w0 = std::max<int64_t>(w0, 0);
  h1 = std::min(h1, g.in_h);
  w1 = std::min(w1, g.in_w);
  const int64_t divisor = g.divisor_override != 0 ? g.divisor_override
                          : g.count_include_pad   ? padded_size
                                                  : (h1 - h0) * (w1 - w0);
  return {h0, h1, w0, w1, divisor};
}

inline int64_t adaptive_begin(int64_t i, int64_t in, int64_t out) { return (i * in) / out; }
inline int64_t adaptive_end(int64_t i, int64_t in, int64_t out) {
  return ((i + 1) * in + out - 1) / out;
}

}  // namespace

void max_pool2d_kernel(const Tensor& out, const Tensor& indices, const Tensor& input,
                       const PoolGeometry& g) {
  floating(input, [&]<class T>() {
    const T* x = input.data_ptr<T>();
    T* y = out.data_ptr<T>();
    int64_t* idx = indices.data_ptr<int64_t>();
    parallel_for(0, g.planes, plane_grain(g), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* xp = x + p * g.in_h * g.in_w;
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const int64_t h0 = oh * g.stride[0] - g.pad[0], w0 = ow * g.stride[1] - g.pad[1];
            T best = -std::numeric_limits<T>::infinity();
            int64_t best_index = -1;
            for (int64_t kh = 0; kh < g.kernel[0]; ++kh) {
              const int64_t ih = h0 + kh * g.dilation[0];
              if (ih < 0 || ih >= g.in_h) continue;
              for (int64_t kw = 0; kw < g.kernel[1]; ++kw) {
                const int64_t iw = w0 + kw * g.dilation[1];
                if (iw < 0 || iw >= g.in_w) continue;
                const T v = xp[ih * g.in_w + iw];
                if (best_index < 0 || v > best || std::isnan(v)) {
                  best = v;
                  best_index = ih * g.in_w + iw;
                }
                if (std::isnan(v)) break;
              }
              if (std::isnan(best)) break;
            }
            const int64_t o = (p * g.out_h + oh) * g.out_w + ow;
            y[o] = best;
            idx[o] = best_index;
          }
        }
      }
    });
  });
}

void max_pool2d_backward_kernel(const Tensor& grad_input, const Tensor& grad_out,
                                const Tensor& indices, const PoolGeometry& g) {
  floating(grad_input, [&]<class T>() {
    T* gx = grad_input.data_ptr<T>();
    const T* gy = grad_out.data_ptr<T>();
    const int64_t* idx = indices.data_ptr<int64_t>();
    parallel_for(0, g.planes, plane_grain(g), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        T* gxp = gx + p * g.in_h * g.in_w;
        std::fill(gxp, gxp + g.in_h * g.in_w, T(0));
        const int64_t o0 = p * g.out_h * g.out_w;
        for (int64_t o = 0; o < g.out_h * g.out_w; ++o) {
          if (idx[o0 + o] >= 0) gxp[idx[o0 + o]] += gy[o0 + o];
        }
      }
    });
  });
}

void avg_pool2d_kernel(const Tensor& out, const Tensor& input, const PoolGeometry& g) {
  floating(input, [&]<class T>() {
    const T* x = input.data_ptr<T>();
    T* y = out.data_ptr<T>();
    parallel_for(0, g.planes, plane_grain(g), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* xp = x + p * g.in_h * g.in_w;
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const AvgWindow win = avg_window(oh, ow, g);
            T sum = T(0);
            for (int64_t ih = win.h0; ih < win.h1; ++ih) {
              for (int64_t iw = win.w0; iw < win.w1; ++iw) sum += xp[ih * g.in_w + iw];
            }
            y[(p * g.out_h + oh) * g.out_w + ow] = sum / static_cast<T>(win.divisor);
          }
        }
      }
    });
  });
}

void avg_pool2d_backward_kernel(const Tensor& grad_input, const Tensor& grad_out,
                                const PoolGeometry& g) {
  floating(grad_input, [&]<class T>() {
    T* gx = grad_input.data_ptr<T>();
    const T* gy = grad_out.data_ptr<T>();
    parallel_for(0, g.planes, plane_grain(g), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        T* gxp = gx + p * g.in_h * g.in_w;
        std::fill(gxp, gxp + g.in_h * g.in_w, T(0));
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const AvgWindow win = avg_window(oh, ow, g);
            const T v = gy[(p * g.out_h + oh) * g.out_w + ow] / static_cast<T>(win.divisor);
            for (int64_t ih = win.h0; ih < win.h1; ++ih) {
              for (int64_t iw = win.w0; iw < win.w1; ++iw) gxp[ih * g.in_w + iw] += v;
            }
          }
        }
      }
    });
  });
}

void adaptive_avg_pool2d_kernel(const Tensor& out, const Tensor& input, const PoolGeometry& g) {
  floating(input, [&]<class T>() {
    const T* x = input.data_ptr<T>();
    T* y = out.data_ptr<T>();
    parallel_for(0, g.planes, plane_grain(g), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* xp = x + p * g.in_h * g.in_w;
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          const int64_t h0 = adaptive_begin(oh, g.in_h, g.out_h);
          const int64_t h1 = adaptive_end(oh, g.in_h, g.out_h);
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const int64_t w0 = adaptive_begin(ow, g.in_w, g.out_w);
            const int64_t w1 = adaptive_end(ow, g.in_w, g.out_w);
            T sum = T(0);
            for (int64_t ih = h0; ih < h1; ++ih) {
              for (int64_t iw = w0; iw < w1; ++iw) sum += xp[ih * g.in_w + iw];
            }
            y[(p * g.out_h + oh) * g.out_w + ow] = sum / static_cast<T>((h1 - h0) * (w1 - w0));
          }
        }
      }
    });
  });
}

void adaptive_avg_pool2d_backward_kernel(const Tensor& grad_input, const Tensor& grad_out,
                                         const PoolGeometry& g) {
  floating(grad_input, [&]<class T>() {
    T* gx = grad_input.data_ptr<T>();
    const T* gy = grad_out.data_ptr<T>();
    parallel_for(0, g.planes, plane_grain(g), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        T* gxp = gx + p * g.in_h * g.in_w;
        std::fill(gxp, gxp + g.in_h * g.in_w, T(0));
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          const int64_t h0 = adaptive_begin(oh, g.in_h, g.out_h);
          const int64_t h1 = adaptive_end(oh, g.in_h, g.out_h);
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const int64_t w0 = adaptive_begin(ow, g.in_w, g.out_w);
            const int64_t w1 = adaptive_end(ow, g.in_w, g.out_w);
            const T v = gy[(p * g.out_h + oh) * g.out_w + ow] /
                        static_cast<T>((h1 - h0) * (w1 - w0));
            for (int64_t ih = h0; ih < h1; ++ih) {
              for (int64_t iw = w0; iw < w1; ++iw) gxp[ih * g.in_w + iw] += v;
            }
          }
        }
      }
    });
  });
}

}  // namespace tide::kernels
