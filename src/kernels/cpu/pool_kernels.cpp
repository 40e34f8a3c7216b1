// cpu pooling loops (kernels/cpu/pool_kernels.h), torch's window rules (ATen's
// MaxPooling/AvgPool/AdaptiveAvgPooling kernels) written once per dtype.

#include "kernels/cpu/pool_kernels.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>

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

/// Whether every max_pool2d window lies inside the input: no padding, no dilation, and no
/// ceil_mode window past the edge (the common 2x2 stride-2 case).
bool windows_inside(const PoolGeometry& g) {
  return g.pad[0] == 0 && g.pad[1] == 0 && g.dilation[0] == 1 && g.dilation[1] == 1 &&
         (g.out_h - 1) * g.stride[0] + g.kernel[0] <= g.in_h &&
         (g.out_w - 1) * g.stride[1] + g.kernel[1] <= g.in_w;
}

/// max_pool2d over one plane whose windows all lie inside it (windows_inside): max_window's
/// results (the same maximum, index, last NaN and first of equal maxima) without its bounds
/// checks, a row of outputs at a time with the choice made without a branch on the data.
/// Measured on a 64x32x28x28 2x2 pool: with max_window's branch (mispredicted on random data)
/// and bounds checks, max_pool2d was 1.3x slower than libtorch's; with these, 3.4x faster.
/// The choice must stay max_window's (pool_windows.h): the GPU kernels use that one.
template <class T>
void max_plane_inside(const T* plane, T* y, int64_t* idx, const PoolGeometry& g) {
  const int64_t out_h = g.out_h, out_w = g.out_w, in_w = g.in_w;
  const int64_t kh = g.kernel[0], kw = g.kernel[1], sh = g.stride[0], sw = g.stride[1];
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  for (int64_t oh = 0; oh < out_h; ++oh) {
    T* best = y + oh * out_w;
    int64_t* best_index = idx + oh * out_w;
    const int64_t top = oh * sh * in_w;
    for (int64_t ow = 0; ow < out_w; ++ow) {
      best[ow] = plane[top + ow * sw];
      best_index[ow] = top + ow * sw;
    }
    for (int64_t i = 0; i < kh; ++i) {
      for (int64_t j = 0; j < kw; ++j) {
        const int64_t first = top + i * in_w + j;
        for (int64_t ow = 0; ow < out_w; ++ow) {
          const T v = plane[first + ow * sw];
          const T b = best[ow];
          // A larger value or a NaN takes it (the last NaN wins). Blended with masks: gcc turns
          // `take ? v : b` into a branch, mispredicted on random data.
          const bool take = (v > b) | (v != v);
          const Bits bits = std::bit_cast<Bits>(b);
          best[ow] = std::bit_cast<T>(bits ^ ((bits ^ std::bit_cast<Bits>(v)) & (Bits(0) - take)));
          const int64_t i_b = best_index[ow];
          best_index[ow] = i_b ^ ((i_b ^ (first + ow * sw)) & -static_cast<int64_t>(take));
        }
      }
    }
  }
}

}  // namespace

void max_pool2d_kernel(const Tensor& out, const Tensor& indices, const Tensor& input,
                       const PoolGeometry& g) {
  floating(input, [&]<class T>() {
    const T* x = input.data_ptr<T>();
    T* y = out.data_ptr<T>();
    int64_t* idx = indices.data_ptr<int64_t>();
    const bool inside = windows_inside(g);
    parallel_for(0, g.planes, plane_grain(g), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* plane = x + p * g.in_h * g.in_w;
        const int64_t o0 = p * g.out_h * g.out_w;
        if (inside) {
          max_plane_inside(plane, y + o0, idx + o0, g);
          continue;
        }
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const int64_t o = o0 + oh * g.out_w + ow;
            max_window(plane, oh, ow, g, y[o], idx[o]);
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
