// GPU launchers of the pooling stubs (kernels/conv_stubs.h): one thread per output element
// forward, the same windows as the cpu (kernels/pool_windows.h). Backward gathers: one thread
// per input element adds the gradients of the outputs whose windows hold it, in a fixed order,
// so results are deterministic and no atomics are needed (torch's CUDA pooling does the same).

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/conv_stubs.h"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/kernel_registration.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/pool_windows.h"
#include "tide/error.h"
#include "tide/tensor.h"

namespace tide::kernels::cuda {
namespace {

constexpr int kPoolThreads = 256;

#define TIDE_GRID_STRIDE(e, total)                                                      \
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < (total); \
       e += static_cast<int64_t>(gridDim.x) * blockDim.x)

template <class T>
__global__ void max_pool_kernel(T* y, int64_t* idx, const T* x, PoolGeometry g) {
  const int64_t plane_out = g.out_h * g.out_w;
  TIDE_GRID_STRIDE(e, g.planes * plane_out) {
    const int64_t p = e / plane_out, oh = e % plane_out / g.out_w, ow = e % g.out_w;
    max_window(x + p * g.in_h * g.in_w, oh, ow, g, y[e], idx[e]);
  }
}

/// The outputs [first, last) of one dim whose windows (kernel k, dilation d) may hold input i.
__device__ inline void covering(int64_t i, int64_t k, int64_t s, int64_t pad, int64_t d,
                                int64_t out, int64_t& first, int64_t& last) {
  const int64_t extent = d * (k - 1) + 1;
  first = i + pad < extent ? 0 : (i + pad - extent) / s + 1;
  last = (i + pad) / s + 1;
  if (last > out) last = out;
}

template <class T>
__global__ void max_pool_backward_kernel(T* gx, const T* gy, const int64_t* idx, PoolGeometry g) {
  const int64_t plane_in = g.in_h * g.in_w;
  TIDE_GRID_STRIDE(e, g.planes * plane_in) {
    const int64_t p = e / plane_in, ih = e % plane_in / g.in_w, iw = e % g.in_w;
    int64_t oh0, oh1, ow0, ow1;
    covering(ih, g.kernel[0], g.stride[0], g.pad[0], g.dilation[0], g.out_h, oh0, oh1);
    covering(iw, g.kernel[1], g.stride[1], g.pad[1], g.dilation[1], g.out_w, ow0, ow1);
    const int64_t base = p * g.out_h * g.out_w, here = ih * g.in_w + iw;
    T sum = T(0);
    for (int64_t oh = oh0; oh < oh1; ++oh) {
      for (int64_t ow = ow0; ow < ow1; ++ow) {
        const int64_t o = base + oh * g.out_w + ow;
        if (idx[o] == here) sum += gy[o];
      }
    }
    gx[e] = sum;
  }
}

struct AvgWindowOf {
  __device__ AvgWindow operator()(int64_t oh, int64_t ow, const PoolGeometry& g) const {
    return avg_window(oh, ow, g);
  }
};
struct AdaptiveWindowOf {
  __device__ AvgWindow operator()(int64_t oh, int64_t ow, const PoolGeometry& g) const {
    return adaptive_window(oh, ow, g);
  }
};

/// avg_pool2d and adaptive_avg_pool2d forward: the window's average.
template <class T, class WindowOf>
__global__ void average_kernel(T* y, const T* x, PoolGeometry g) {
  const int64_t plane_out = g.out_h * g.out_w;
  TIDE_GRID_STRIDE(e, g.planes * plane_out) {
    const int64_t p = e / plane_out, oh = e % plane_out / g.out_w, ow = e % g.out_w;
    const T* xp = x + p * g.in_h * g.in_w;
    const AvgWindow win = WindowOf{}(oh, ow, g);
    T sum = T(0);
    for (int64_t ih = win.h0; ih < win.h1; ++ih) {
      for (int64_t iw = win.w0; iw < win.w1; ++iw) sum += xp[ih * g.in_w + iw];
    }
    y[e] = sum / static_cast<T>(win.divisor);
  }
}

template <class T>
__global__ void avg_pool_backward_kernel(T* gx, const T* gy, PoolGeometry g) {
  const int64_t plane_in = g.in_h * g.in_w;
  TIDE_GRID_STRIDE(e, g.planes * plane_in) {
    const int64_t p = e / plane_in, ih = e % plane_in / g.in_w, iw = e % g.in_w;
    int64_t oh0, oh1, ow0, ow1;
    covering(ih, g.kernel[0], g.stride[0], g.pad[0], 1, g.out_h, oh0, oh1);
    covering(iw, g.kernel[1], g.stride[1], g.pad[1], 1, g.out_w, ow0, ow1);
    const T* gyp = gy + p * g.out_h * g.out_w;
    T sum = T(0);
    for (int64_t oh = oh0; oh < oh1; ++oh) {
      for (int64_t ow = ow0; ow < ow1; ++ow) {
        const AvgWindow win = avg_window(oh, ow, g);
        if (ih >= win.h0 && ih < win.h1 && iw >= win.w0 && iw < win.w1) {
          sum += gyp[oh * g.out_w + ow] / static_cast<T>(win.divisor);
        }
      }
    }
    gx[e] = sum;
  }
}

template <class T>
__global__ void adaptive_avg_pool_backward_kernel(T* gx, const T* gy, PoolGeometry g) {
  const int64_t plane_in = g.in_h * g.in_w;
  TIDE_GRID_STRIDE(e, g.planes * plane_in) {
    const int64_t p = e / plane_in, ih = e % plane_in / g.in_w, iw = e % g.in_w;
    // Outputs whose rows [begin, end) hold ih: begin(oh) <= ih < end(oh).
    const int64_t oh0 = (ih * g.out_h) / g.in_h, oh1 = ((ih + 1) * g.out_h + g.in_h - 1) / g.in_h;
    const int64_t ow0 = (iw * g.out_w) / g.in_w, ow1 = ((iw + 1) * g.out_w + g.in_w - 1) / g.in_w;
    const T* gyp = gy + p * g.out_h * g.out_w;
    T sum = T(0);
    for (int64_t oh = oh0; oh < oh1 && oh < g.out_h; ++oh) {
      for (int64_t ow = ow0; ow < ow1 && ow < g.out_w; ++ow) {
        const AvgWindow win = adaptive_window(oh, ow, g);
        if (ih >= win.h0 && ih < win.h1 && iw >= win.w0 && iw < win.w1) {
          sum += gyp[oh * g.out_w + ow] / static_cast<T>(win.divisor);
        }
      }
    }
    gx[e] = sum;
  }
}

#undef TIDE_GRID_STRIDE

/// Launches `kernel` over `total` elements on the current launch's stream, for t's dtype.
template <class Launch>
void launch_floating(const Tensor& t, int64_t total, Launch&& launch) {
  if (total == 0) return;
  const LaunchContext& ctx = current_launch();
  const unsigned grid = grid_for(ceil_div(total, kPoolThreads), ctx, kPoolThreads);
  if (t.dtype() == kFloat64) {
    launch(double{}, grid, ctx.stream);
  } else {
    TIDE_INTERNAL_ASSERT(t.dtype() == kFloat32);
    launch(float{}, grid, ctx.stream);
  }
  TIDE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
T* ptr(const Tensor& t) {
  return static_cast<T*>(t.raw_data());
}

void max_pool2d_cuda(const Tensor& out, const Tensor& indices, const Tensor& input,
                     const PoolGeometry& g) {
  launch_floating(input, out.numel(), [&](auto tag, unsigned grid, cudaStream_t stream) {
    using T = decltype(tag);
    max_pool_kernel<T><<<grid, kPoolThreads, 0, stream>>>(ptr<T>(out), ptr<int64_t>(indices),
                                                          ptr<T>(input), g);
  });
}

void max_pool2d_backward_cuda(const Tensor& grad_input, const Tensor& grad_out,
                              const Tensor& indices, const PoolGeometry& g) {
  launch_floating(grad_input, grad_input.numel(), [&](auto tag, unsigned grid, cudaStream_t s) {
    using T = decltype(tag);
    max_pool_backward_kernel<T><<<grid, kPoolThreads, 0, s>>>(
        ptr<T>(grad_input), ptr<T>(grad_out), ptr<int64_t>(indices), g);
  });
}

void avg_pool2d_cuda(const Tensor& out, const Tensor& input, const PoolGeometry& g) {
  launch_floating(input, out.numel(), [&](auto tag, unsigned grid, cudaStream_t s) {
    using T = decltype(tag);
    average_kernel<T, AvgWindowOf><<<grid, kPoolThreads, 0, s>>>(ptr<T>(out), ptr<T>(input), g);
  });
}

void avg_pool2d_backward_cuda(const Tensor& grad_input, const Tensor& grad_out,
                              const PoolGeometry& g) {
  launch_floating(grad_input, grad_input.numel(), [&](auto tag, unsigned grid, cudaStream_t s) {
    using T = decltype(tag);
    avg_pool_backward_kernel<T><<<grid, kPoolThreads, 0, s>>>(ptr<T>(grad_input),
                                                              ptr<T>(grad_out), g);
  });
}

void adaptive_avg_pool2d_cuda(const Tensor& out, const Tensor& input, const PoolGeometry& g) {
  launch_floating(input, out.numel(), [&](auto tag, unsigned grid, cudaStream_t s) {
    using T = decltype(tag);
    average_kernel<T, AdaptiveWindowOf><<<grid, kPoolThreads, 0, s>>>(ptr<T>(out), ptr<T>(input),
                                                                       g);
  });
}

void adaptive_avg_pool2d_backward_cuda(const Tensor& grad_input, const Tensor& grad_out,
                                       const PoolGeometry& g) {
  launch_floating(grad_input, grad_input.numel(), [&](auto tag, unsigned grid, cudaStream_t s) {
    using T = decltype(tag);
    adaptive_avg_pool_backward_kernel<T><<<grid, kPoolThreads, 0, s>>>(ptr<T>(grad_input),
                                                                       ptr<T>(grad_out), g);
  });
}

}  // namespace

void register_pool_kernels() {
  max_pool2d_stub.cuda = &max_pool2d_cuda;
  max_pool2d_backward_stub.cuda = &max_pool2d_backward_cuda;
  avg_pool2d_stub.cuda = &avg_pool2d_cuda;
  avg_pool2d_backward_stub.cuda = &avg_pool2d_backward_cuda;
  adaptive_avg_pool2d_stub.cuda = &adaptive_avg_pool2d_cuda;
  adaptive_avg_pool2d_backward_stub.cuda = &adaptive_avg_pool2d_backward_cuda;
}

}  // namespace tide::kernels::cuda
