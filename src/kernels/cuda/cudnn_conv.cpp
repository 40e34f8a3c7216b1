// conv2d and its two backward kernels on real GPUs: cuDNN 9 (its convolution API), the cuda
// launchers of kernels/conv_stubs.h.
//
// Note [cuDNN algorithms]: cuDNN computes a convolution with one of several algorithms
// (implicit GEMM, FFT, Winograd, ...), each with its own speed, workspace and determinism.
// As torch: with backends::cudnn::benchmark() off, cuDNN's heuristic ranks them (the
// *_v7 queries) and the first that succeeds is used; with it on, the first launch of each
// shape times them all on the real tensors (Find*Ex) and the fastest is cached for that shape,
// dtype, device and switches. deterministic() keeps only CUDNN_DETERMINISTIC algorithms;
// allow_tf32() picks CUDNN_DEFAULT_MATH for float32 (TF32 tensor cores allowed) or
// CUDNN_FMA_MATH (true float32). The workspace comes from the caching allocator on the
// launch's stream (kernels/cuda/scratch.h): freed at the launcher's return, it is reused only by
// later work on that stream. cuDNN pads symmetrically; the front end turns conv2d's
// asymmetric "same" padding into explicit zeros for GPUs (ops/convolution.cpp). A channels-last
// convolution (ConvGeometry::channels_last) describes its images and filter as NHWC, cuDNN's
// fast layout for tensor cores, instead of copying them to NCHW.

#include <cudnn.h>

#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "backends/cuda/cudnn_handle.h"
#include "backends/cuda/launch_context.h"
#include "kernels/conv_stubs.h"
#include "kernels/cuda/kernel_registration.h"
#include "kernels/cuda/scratch.h"
#include "tide/backends/cudnn.h"
#include "tide/error.h"
#include "tide/tensor.h"

namespace tide::kernels::cuda {

using backends::cuda::current_cudnn_handle;

namespace {

cudnnDataType_t data_type(const Tensor& t) {
  TIDE_CHECK(t.dtype() == kFloat32 || t.dtype() == kFloat64,
             "[conv2d] cuDNN convolutions take float32 or float64 here, found ", name(t.dtype()));
  return t.dtype() == kFloat64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
}

/// alpha and beta in the type cuDNN reads for the tensors' dtype (double for double).
struct Scale {
  explicit Scale(const Tensor& t, double v) : is_double(t.dtype() == kFloat64), d(v), f(float(v)) {}
  const void* get() const { return is_double ? static_cast<const void*>(&d) : &f; }
  bool is_double;
  double d;
  float f;
};

// ---- move-only descriptor owners (STYLE.md habit 7)

class TensorDesc {
 public:
  /// `channels_last`: the tensor is NHWC in memory (MemoryFormat::ChannelsLast).
  TensorDesc(const Tensor& like, int n, int c, int h, int w, bool channels_last = false) {
    TIDE_CUDNN_CHECK(cudnnCreateTensorDescriptor(&desc_));
    TIDE_CUDNN_CHECK(cudnnSetTensor4dDescriptor(
        desc_, channels_last ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW, data_type(like), n, c, h, w));
  }
  ~TensorDesc() { cudnnDestroyTensorDescriptor(desc_); }
  TensorDesc(const TensorDesc&) = delete;
  TensorDesc& operator=(const TensorDesc&) = delete;
  cudnnTensorDescriptor_t get() const { return desc_; }

 private:
  cudnnTensorDescriptor_t desc_ = nullptr;
};

class FilterDesc {
 public:
  FilterDesc(const Tensor& like, const ConvGeometry& g) {
    TIDE_CUDNN_CHECK(cudnnCreateFilterDescriptor(&desc_));
    TIDE_CUDNN_CHECK(cudnnSetFilter4dDescriptor(
        desc_, data_type(like), g.channels_last ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW,
        int(g.out_channels), int(g.in_per_group()), int(g.kernel_h), int(g.kernel_w)));
  }
  ~FilterDesc() { cudnnDestroyFilterDescriptor(desc_); }
  FilterDesc(const FilterDesc&) = delete;
  FilterDesc& operator=(const FilterDesc&) = delete;
  cudnnFilterDescriptor_t get() const { return desc_; }

 private:
  cudnnFilterDescriptor_t desc_ = nullptr;
};

class ConvDesc {
 public:
  ConvDesc(const Tensor& like, const ConvGeometry& g) {
    TIDE_INTERNAL_ASSERT(g.pad_begin[0] == g.pad_end[0] && g.pad_begin[1] == g.pad_end[1],
                         "cuDNN pads symmetrically (Note [cuDNN algorithms])");
    TIDE_CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&desc_));
    TIDE_CUDNN_CHECK(cudnnSetConvolution2dDescriptor(
        desc_, int(g.pad_begin[0]), int(g.pad_begin[1]), int(g.stride[0]), int(g.stride[1]),
        int(g.dilation[0]), int(g.dilation[1]), CUDNN_CROSS_CORRELATION, data_type(like)));
    TIDE_CUDNN_CHECK(cudnnSetConvolutionGroupCount(desc_, int(g.groups)));
    const bool tf32 = like.dtype() == kFloat32 && backends::cudnn::allow_tf32();
    TIDE_CUDNN_CHECK(
        cudnnSetConvolutionMathType(desc_, tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH));
  }
  ~ConvDesc() { cudnnDestroyConvolutionDescriptor(desc_); }
  ConvDesc(const ConvDesc&) = delete;
  ConvDesc& operator=(const ConvDesc&) = delete;
  cudnnConvolutionDescriptor_t get() const { return desc_; }

 private:
  cudnnConvolutionDescriptor_t desc_ = nullptr;
};

/// The descriptors of one convolution.
struct Descs {
  Descs(const Tensor& like, const ConvGeometry& g)
      : x(like, int(g.batch), int(g.in_channels), int(g.in_h), int(g.in_w), g.channels_last),
        y(like, int(g.batch), int(g.out_channels), int(g.out_h), int(g.out_w), g.channels_last),
        w(like, g),
        conv(like, g) {}
  TensorDesc x, y;
  FilterDesc w;
  ConvDesc conv;
};

// ---- the algorithm cache (Note [cuDNN algorithms])

enum class Pass { Forward, BackwardData, BackwardFilter };

struct AlgoKey {
  Pass pass;
  int device;
  Dtype dtype;
  bool deterministic, tf32;
  int64_t sizes[15];  // the geometry, channels_last last
  bool operator<(const AlgoKey& o) const {
    return std::tie(pass, device, dtype, deterministic, tf32) <
               std::tie(o.pass, o.device, o.dtype, o.deterministic, o.tf32) ||
           (std::tie(pass, device, dtype, deterministic, tf32) ==
                std::tie(o.pass, o.device, o.dtype, o.deterministic, o.tf32) &&
            std::memcmp(sizes, o.sizes, sizeof(sizes)) < 0);
  }
};

AlgoKey key_of(Pass pass, const Tensor& like, const ConvGeometry& g) {
  const bool tf32 = like.dtype() == kFloat32 && backends::cudnn::allow_tf32();
  return AlgoKey{pass, like.device().index(), like.dtype(), backends::cudnn::deterministic(),
                 tf32,
                 {g.batch, g.in_channels, g.in_h, g.in_w, g.out_channels, g.kernel_h, g.kernel_w,
                  g.groups, g.stride[0], g.stride[1], g.dilation[0], g.dilation[1],
                  g.pad_begin[0], g.pad_begin[1], g.channels_last ? 1 : 0}};
}

std::mutex cache_mutex;
std::map<AlgoKey, int> benchmarked;  // the algorithm, as its enum's int

/// The workspace cap while timing algorithms: larger ones are not tried.
constexpr size_t kBenchmarkWorkspace = size_t{1} << 28;

/// The first usable algorithm of cuDNN's ranked results (heuristic or timed).
template <class Perf>
int first_usable(const Perf* results, int count, const char* what) {
  const bool deterministic = backends::cudnn::deterministic();
  for (int i = 0; i < count; ++i) {
    if (results[i].status != CUDNN_STATUS_SUCCESS) continue;
    if (deterministic && results[i].determinism != CUDNN_DETERMINISTIC) continue;
    return static_cast<int>(results[i].algo);
  }
  TIDE_CHECK(false, "[conv2d] cuDNN offers no ", deterministic ? "deterministic " : "", what,
             " algorithm for this convolution",
             deterministic ? "; turn backends::cudnn::set_deterministic(false) off" : "");
  return 0;
}

/// Looks the algorithm up, or chooses it with `choose` (heuristic or timing) and caches timed
/// choices. The heuristic is cheap and not cached: its answer can depend on the workspace.
template <class Choose>
int algorithm(Pass pass, const Tensor& like, const ConvGeometry& g, Choose&& choose) {
  if (!backends::cudnn::benchmark()) return choose(false);
  const AlgoKey key = key_of(pass, like, g);
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto it = benchmarked.find(key);
    if (it != benchmarked.end()) return it->second;
  }
  const int algo = choose(true);
  std::lock_guard<std::mutex> lock(cache_mutex);
  benchmarked.emplace(key, algo);
  return algo;
}

void* data(const Tensor& t) { return t.defined() ? t.raw_data() : nullptr; }

void conv2d_cuda(const Tensor& out, const Tensor& input, const Tensor& weight,
                 const Tensor& bias, const ConvGeometry& g) {
  if (out.numel() == 0) return;
  const cudnnHandle_t handle = current_cudnn_handle();
  const Descs d(input, g);
  const int algo = algorithm(Pass::Forward, input, g, [&](bool timed) {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int count = 0;
    if (timed) {
      const Tensor ws = scratch_bytes(int64_t(kBenchmarkWorkspace), input.device());
      TIDE_CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(
          handle, d.x.get(), data(input), d.w.get(), data(weight), d.conv.get(), d.y.get(),
          data(out), CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, perf, data(ws),
          kBenchmarkWorkspace));
    } else {
      TIDE_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(
          handle, d.x.get(), d.w.get(), d.conv.get(), d.y.get(),
          CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, perf));
    }
    return first_usable(perf, count, "forward");
  });
  const auto fwd = static_cast<cudnnConvolutionFwdAlgo_t>(algo);
  size_t bytes = 0;
  TIDE_CUDNN_CHECK(cudnnGetConvolutionForwardWorkspaceSize(handle, d.x.get(), d.w.get(),
                                                           d.conv.get(), d.y.get(), fwd, &bytes));
  const Tensor ws = scratch_bytes(int64_t(bytes), input.device());
  const Scale one(input, 1.0), zero(input, 0.0);
  TIDE_CUDNN_CHECK(cudnnConvolutionForward(handle, one.get(), d.x.get(), data(input), d.w.get(),
                                           data(weight), d.conv.get(), fwd, data(ws), bytes,
                                           zero.get(), d.y.get(), data(out)));
  if (bias.defined()) {
    const TensorDesc b(input, 1, int(g.out_channels), 1, 1);
    TIDE_CUDNN_CHECK(cudnnAddTensor(handle, one.get(), b.get(), data(bias), one.get(), d.y.get(),
                                    data(out)));
  }
}

void conv2d_backward_input_cuda(const Tensor& grad_input, const Tensor& grad_out,
                                const Tensor& weight, const ConvGeometry& g) {
  if (grad_input.numel() == 0) return;
  const cudnnHandle_t handle = current_cudnn_handle();
  const Descs d(grad_out, g);
  const int algo = algorithm(Pass::BackwardData, grad_out, g, [&](bool timed) {
    cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    int count = 0;
    if (timed) {
      const Tensor ws = scratch_bytes(int64_t(kBenchmarkWorkspace), grad_out.device());
      TIDE_CUDNN_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(
          handle, d.w.get(), data(weight), d.y.get(), data(grad_out), d.conv.get(), d.x.get(),
          data(grad_input), CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &count, perf, data(ws),
          kBenchmarkWorkspace));
    } else {
      TIDE_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(
          handle, d.w.get(), d.y.get(), d.conv.get(), d.x.get(),
          CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &count, perf));
    }
    return first_usable(perf, count, "backward data");
  });
  const auto bwd = static_cast<cudnnConvolutionBwdDataAlgo_t>(algo);
  size_t bytes = 0;
  TIDE_CUDNN_CHECK(cudnnGetConvolutionBackwardDataWorkspaceSize(
      handle, d.w.get(), d.y.get(), d.conv.get(), d.x.get(), bwd, &bytes));
  const Tensor ws = scratch_bytes(int64_t(bytes), grad_out.device());
  const Scale one(grad_out, 1.0), zero(grad_out, 0.0);
  TIDE_CUDNN_CHECK(cudnnConvolutionBackwardData(
      handle, one.get(), d.w.get(), data(weight), d.y.get(), data(grad_out), d.conv.get(), bwd,
      data(ws), bytes, zero.get(), d.x.get(), data(grad_input)));
}

void conv2d_backward_weight_cuda(const Tensor& grad_weight, const Tensor& grad_bias,
                                 const Tensor& input, const Tensor& grad_out,
                                 const ConvGeometry& g) {
  const cudnnHandle_t handle = current_cudnn_handle();
  const Descs d(grad_out, g);
  const Scale one(grad_out, 1.0), zero(grad_out, 0.0);
  if (grad_bias.defined()) {
    const TensorDesc b(grad_out, 1, int(g.out_channels), 1, 1);
    TIDE_CUDNN_CHECK(cudnnConvolutionBackwardBias(handle, one.get(), d.y.get(), data(grad_out),
                                                  zero.get(), b.get(), data(grad_bias)));
  }
  if (grad_weight.numel() == 0) return;
  const int algo = algorithm(Pass::BackwardFilter, grad_out, g, [&](bool timed) {
    cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
    int count = 0;
    if (timed) {
      const Tensor ws = scratch_bytes(int64_t(kBenchmarkWorkspace), grad_out.device());
      TIDE_CUDNN_CHECK(cudnnFindConvolutionBackwardFilterAlgorithmEx(
          handle, d.x.get(), data(input), d.y.get(), data(grad_out), d.conv.get(), d.w.get(),
          data(grad_weight), CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &count, perf, data(ws),
          kBenchmarkWorkspace));
    } else {
      TIDE_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
          handle, d.x.get(), d.y.get(), d.conv.get(), d.w.get(),
          CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &count, perf));
    }
    return first_usable(perf, count, "backward filter");
  });
  const auto bwd = static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo);
  size_t bytes = 0;
  TIDE_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterWorkspaceSize(
      handle, d.x.get(), d.y.get(), d.conv.get(), d.w.get(), bwd, &bytes));
  const Tensor ws = scratch_bytes(int64_t(bytes), grad_out.device());
  TIDE_CUDNN_CHECK(cudnnConvolutionBackwardFilter(
      handle, one.get(), d.x.get(), data(input), d.y.get(), data(grad_out), d.conv.get(), bwd,
      data(ws), bytes, zero.get(), d.w.get(), data(grad_weight)));
}

}  // namespace

void register_cudnn_kernels() {
  conv2d_stub.cuda = &conv2d_cuda;
  conv2d_backward_input_stub.cuda = &conv2d_backward_input_cuda;
  conv2d_backward_weight_stub.cuda = &conv2d_backward_weight_cuda;
}

}  // namespace tide::kernels::cuda
