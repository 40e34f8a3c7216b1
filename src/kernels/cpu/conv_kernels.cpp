// The cpu convolutions: oneDNN for float32 (when built with it), direct loops otherwise.
//
// The direct loops are written for clarity over speed: they serve float64 (gradcheck, and
// users who ask for double, as torch's slow_conv2d does) and builds without oneDNN (the tsan
// preset). Each parallel chunk writes disjoint outputs: forward by (n, o) plane, backward by
// image (input) or output channel (weight), so no two threads accumulate into one element.
// They index NCHW and OIHW: a channels-last call (ConvGeometry::channels_last), which oneDNN
// takes as it is, runs them on contiguous copies and copies the results back.

#include "kernels/cpu/conv_kernels.h"

#include "kernels/cpu/copy_kernels.h"
#include "kernels/cpu/parallel.h"
#include "tensor/tensor_internal.h"
#include "tide/macros.h"

#if defined(TIDE_USE_ONEDNN)
#include "kernels/cpu/onednn/onednn_conv.h"
#endif

namespace tide::kernels {
namespace {

/// The input row/column a kernel tap reads for an output position, or -1 outside the input.
inline int64_t tap(int64_t out, int64_t k, int64_t dim, const ConvGeometry& g, int64_t extent) {
  const int64_t i = out * g.stride[dim] - g.pad_begin[dim] + k * g.dilation[dim];
  return i >= 0 && i < extent ? i : -1;
}

// One unit of work per (n, o) output plane, each costing about C/groups * kH * kW * OH * OW.
inline int64_t plane_grain(const ConvGeometry& g) {
  const int64_t work = g.in_per_group() * g.kernel_h * g.kernel_w * g.out_h * g.out_w;
  return work >= kGrainSize ? 1 : kGrainSize / (work + 1) + 1;
}

template <class T>
void forward_loops(const Tensor& out, const Tensor& input, const Tensor& weight,
                   const Tensor& bias, const ConvGeometry& g) {
  T* y = out.data_ptr<T>();
  const T* x = input.data_ptr<T>();
  const T* w = weight.data_ptr<T>();
  const T* b = bias.defined() ? bias.data_ptr<T>() : nullptr;
  const int64_t cg = g.in_per_group(), og = g.out_per_group();
  parallel_for(0, g.batch * g.out_channels, plane_grain(g), [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const int64_t n = p / g.out_channels, o = p % g.out_channels, c0 = (o / og) * cg;
      T* yp = y + p * g.out_h * g.out_w;
      for (int64_t oh = 0; oh < g.out_h; ++oh) {
        for (int64_t ow = 0; ow < g.out_w; ++ow) {
          T acc = b ? b[o] : T(0);
          for (int64_t c = 0; c < cg; ++c) {
            const T* xc = x + ((n * g.in_channels + c0 + c) * g.in_h) * g.in_w;
            const T* wc = w + ((o * cg + c) * g.kernel_h) * g.kernel_w;
            for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
              const int64_t ih = tap(oh, kh, 0, g, g.in_h);
              if (ih < 0) continue;
              for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
                const int64_t iw = tap(ow, kw, 1, g, g.in_w);
                if (iw >= 0) acc += xc[ih * g.in_w + iw] * wc[kh * g.kernel_w + kw];
              }
            }
          }
          yp[oh * g.out_w + ow] = acc;
        }
      }
    }
  });
}

template <class T>
void backward_input_loops(const Tensor& grad_input, const Tensor& grad_out, const Tensor& weight,
                          const ConvGeometry& g) {
  T* gx = grad_input.data_ptr<T>();
  const T* gy = grad_out.data_ptr<T>();
  const T* w = weight.data_ptr<T>();
  const int64_t cg = g.in_per_group(), og = g.out_per_group();
  const int64_t image = g.in_channels * g.in_h * g.in_w;
  parallel_for(0, g.batch, 1, [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; ++n) {
      T* gxn = gx + n * image;
      for (int64_t i = 0; i < image; ++i) gxn[i] = T(0);
      for (int64_t o = 0; o < g.out_channels; ++o) {
        const int64_t c0 = (o / og) * cg;
        const T* gyp = gy + (n * g.out_channels + o) * g.out_h * g.out_w;
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const T v = gyp[oh * g.out_w + ow];
            for (int64_t c = 0; c < cg; ++c) {
              T* gxc = gxn + (c0 + c) * g.in_h * g.in_w;
              const T* wc = w + ((o * cg + c) * g.kernel_h) * g.kernel_w;
              for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
                const int64_t ih = tap(oh, kh, 0, g, g.in_h);
                if (ih < 0) continue;
                for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
                  const int64_t iw = tap(ow, kw, 1, g, g.in_w);
                  if (iw >= 0) gxc[ih * g.in_w + iw] += v * wc[kh * g.kernel_w + kw];
                }
              }
            }
          }
        }
      }
    }
  });
}

template <class T>
void backward_weight_loops(const Tensor& grad_weight, const Tensor& grad_bias,
                           const Tensor& input, const Tensor& grad_out, const ConvGeometry& g) {
  T* gw = grad_weight.data_ptr<T>();
  T* gb = grad_bias.defined() ? grad_bias.data_ptr<T>() : nullptr;
  const T* x = input.data_ptr<T>();
  const T* gy = grad_out.data_ptr<T>();
  const int64_t cg = g.in_per_group(), og = g.out_per_group();
  const int64_t taps = cg * g.kernel_h * g.kernel_w;
  parallel_for(0, g.out_channels, 1, [&](int64_t begin, int64_t end) {
    for (int64_t o = begin; o < end; ++o) {
      const int64_t c0 = (o / og) * cg;
      T* gwo = gw + o * taps;
      for (int64_t i = 0; i < taps; ++i) gwo[i] = T(0);
      T bias_sum = T(0);
      for (int64_t n = 0; n < g.batch; ++n) {
        const T* gyp = gy + (n * g.out_channels + o) * g.out_h * g.out_w;
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const T v = gyp[oh * g.out_w + ow];
            bias_sum += v;
            for (int64_t c = 0; c < cg; ++c) {
              const T* xc = x + ((n * g.in_channels + c0 + c) * g.in_h) * g.in_w;
              T* gwc = gwo + c * g.kernel_h * g.kernel_w;
              for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
                const int64_t ih = tap(oh, kh, 0, g, g.in_h);
                if (ih < 0) continue;
                for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
                  const int64_t iw = tap(ow, kw, 1, g, g.in_w);
                  if (iw >= 0) gwc[kh * g.kernel_w + kw] += v * xc[ih * g.in_w + iw];
                }
              }
            }
          }
        }
      }
      if (gb) gb[o] = bias_sum;
    }
  });
}

/// `t` as the loops index it: itself when contiguous (or undefined), else a contiguous host copy
/// (the kernels run on host memory, a simulated GPU's included).
Tensor nchw(const Tensor& t) {
  if (!t.defined() || t.is_contiguous()) return t;
  Tensor c = detail::make_empty(t.shape(), t.dtype(), Device(kCPU));
  copy_kernel(c, t);
  return c;
}

/// The geometry of the same call on contiguous copies.
ConvGeometry nchw(ConvGeometry g) {
  g.channels_last = false;
  return g;
}

#if defined(TIDE_USE_ONEDNN)
/// oneDNN describes no zero-sized dims; the loops handle them (zero outputs, zero gradients).
bool use_onednn(const Tensor& t, const ConvGeometry& g) {
  return t.dtype() == kFloat32 && g.batch > 0 && g.in_channels > 0 && g.out_channels > 0 &&
         g.out_h > 0 && g.out_w > 0;
}
#endif

}  // namespace

void conv2d_kernel(const Tensor& out, const Tensor& input, const Tensor& weight,
                   const Tensor& bias, const ConvGeometry& g) {
#if defined(TIDE_USE_ONEDNN)
  if (use_onednn(out, g)) return onednn::conv2d_forward(out, input, weight, bias, g);
#endif
  if (g.channels_last) {
    const Tensor y = nchw(out);
    conv2d_kernel(y, nchw(input), nchw(weight), bias, nchw(g));
    return copy_kernel(out, y);
  }
  if (out.dtype() == kFloat64) return forward_loops<double>(out, input, weight, bias, g);
  TIDE_INTERNAL_ASSERT(out.dtype() == kFloat32);
  forward_loops<float>(out, input, weight, bias, g);
}

void conv2d_backward_input_kernel(const Tensor& grad_input, const Tensor& grad_out,
                                  const Tensor& weight, const ConvGeometry& g) {
#if defined(TIDE_USE_ONEDNN)
  if (use_onednn(grad_input, g)) {
    return onednn::conv2d_backward_input(grad_input, grad_out, weight, g);
  }
#endif
  if (g.channels_last) {
    const Tensor gx = nchw(grad_input);
    conv2d_backward_input_kernel(gx, nchw(grad_out), nchw(weight), nchw(g));
    return copy_kernel(grad_input, gx);
  }
  if (grad_input.dtype() == kFloat64) {
    return backward_input_loops<double>(grad_input, grad_out, weight, g);
  }
  TIDE_INTERNAL_ASSERT(grad_input.dtype() == kFloat32);
  backward_input_loops<float>(grad_input, grad_out, weight, g);
}

void conv2d_backward_weight_kernel(const Tensor& grad_weight, const Tensor& grad_bias,
                                   const Tensor& input, const Tensor& grad_out,
                                   const ConvGeometry& g) {
#if defined(TIDE_USE_ONEDNN)
  if (use_onednn(grad_weight, g)) {
    return onednn::conv2d_backward_weight(grad_weight, grad_bias, input, grad_out, g);
  }
#endif
  if (g.channels_last) {
    const Tensor gw = nchw(grad_weight);
    conv2d_backward_weight_kernel(gw, grad_bias, nchw(input), nchw(grad_out), nchw(g));
    return copy_kernel(grad_weight, gw);
  }
  if (grad_weight.dtype() == kFloat64) {
    return backward_weight_loops<double>(grad_weight, grad_bias, input, grad_out, g);
  }
  TIDE_INTERNAL_ASSERT(grad_weight.dtype() == kFloat32);
  backward_weight_loops<float>(grad_weight, grad_bias, input, grad_out, g);
}

bool conv_uses_onednn() {
#if defined(TIDE_USE_ONEDNN)
  return true;
#else
  return false;
#endif
}

}  // namespace tide::kernels
