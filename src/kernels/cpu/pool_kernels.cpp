// cpu pooling loops (kernels/cpu/pool_kernels.h), torch's window rules (ATen's
// MaxPooling/AvgPool/AdaptiveAvgPooling kernels) written once per dtype.

#include "kernels/cpu/pool_kernels.h"

#include <algorithm>

#include "kernels/cpu/parallel.h"
#include "kernels/pool_windows.h"
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

/// out = the average over window_of(oh, ow, g) of each output (avg and adaptive pooling).
template <class WindowOf>
void average_kernel(const Tensor& out, const Tensor& input, const PoolGeometry& g,
                    WindowOf window_of) {
  floating(input, [&]<class T>() {
    const T* x = input.data_ptr<T>();
    T* y = out.data_ptr<T>();
    parallel_for(0, g.planes, plane_grain(g), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* xp = x + p * g.in_h * g.in_w;
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const AvgWindow win = window_of(oh, ow, g);
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

/// grad_input: each output's gradient / divisor, added over its window.
template <class WindowOf>
void average_backward_kernel(const Tensor& grad_input, const Tensor& grad_out,
                             const PoolGeometry& g, WindowOf window_of) {
  floating(grad_input, [&]<class T>() {
    T* gx = grad_input.data_ptr<T>();
    const T* gy = grad_out.data_ptr<T>();
    parallel_for(0, g.planes, plane_grain(g), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        T* gxp = gx + p * g.in_h * g.in_w;
        std::fill(gxp, gxp + g.in_h * g.in_w, T(0));
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const AvgWindow win = window_of(oh, ow, g);
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

}  // namespace

void max_pool2d_kernel(const Tensor& out, const Tensor& indices, const Tensor& input,
                       const PoolGeometry& g) {
  floating(input, [&]<class T>() {
    const T* x = input.data_ptr<T>();
    T* y = out.data_ptr<T>();
    int64_t* idx = indices.data_ptr<int64_t>();
    parallel_for(0, g.planes, plane_grain(g), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const int64_t o = (p * g.out_h + oh) * g.out_w + ow;
            max_window(x + p * g.in_h * g.in_w, oh, ow, g, y[o], idx[o]);
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
  average_kernel(out, input, g, avg_window);
}

void avg_pool2d_backward_kernel(const Tensor& grad_input, const Tensor& grad_out,
                                const PoolGeometry& g) {
  average_backward_kernel(grad_input, grad_out, g, avg_window);
}

void adaptive_avg_pool2d_kernel(const Tensor& out, const Tensor& input, const PoolGeometry& g) {
  average_kernel(out, input, g, adaptive_window);
}

void adaptive_avg_pool2d_backward_kernel(const Tensor& grad_input, const Tensor& grad_out,
                                         const PoolGeometry& g) {
  average_backward_kernel(grad_input, grad_out, g, adaptive_window);
}

}  // namespace tide::kernels
