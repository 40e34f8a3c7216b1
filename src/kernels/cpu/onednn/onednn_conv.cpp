// Float32 convolutions on oneDNN.
//
// Note [oneDNN layouts]: tide's tensors are plain NCHW, but oneDNN's fast convolutions work on
// blocked layouts (nChw8c/16c ...) that it picks for the shape and the machine. Each primitive
// is described with format `any`, and the plain tensors are reordered into the layouts it
// chose — and the result back — only when they differ. oneDNN caches primitives by their
// description (its primitive cache, 1024 entries by default), so describing them on every call
// costs a hash lookup, not a JIT compilation.
//
// A channels-last convolution (ConvGeometry::channels_last: NHWC images, OHWI weights, as
// torch's channels_last tensors lie) describes its images as nhwc instead of `any`: oneDNN has
// fast nhwc kernels, so source, destination and their gradients are used where they lie,
// without a reorder each way (torch's mkldnn convolution does the same).
//
// Note [oneDNN threads]: oneDNN (Debian's build) runs on OpenMP with every thread OpenMP
// offers. For a small convolution the threads' fork and barrier cost more than the work, and
// far more when the cores are busy: an 8x1x6x6 convolution took 40 ms on 2 loaded cores with
// 2 threads and 0.05 ms with one. As kernels/cpu/parallel.h does for tide's loops, a
// convolution below kSerialMacs multiply-adds runs on the calling thread alone
// (omp_set_num_threads sets the calling thread's value only; the guard restores it).

#include "kernels/cpu/onednn/onednn_conv.h"

#include <oneapi/dnnl/dnnl.hpp>
#include <unordered_map>

#if defined(TIDE_USE_OPENMP)
#include <omp.h>
#endif

namespace tide::kernels::onednn {
namespace {

using dnnl::memory;
using Dims = memory::dims;
using Tag = memory::format_tag;
constexpr memory::data_type kF32 = memory::data_type::f32;

dnnl::engine& cpu_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

/// The primitive's geometry in oneDNN's terms (dilation counts the gaps: torch's minus one).
struct Shapes {
  Dims src, weights, bias, dst, strides, dilates, pad_l, pad_r;
  Tag image_tag, weights_tag;
  bool nhwc;
};

Shapes shapes_of(const ConvGeometry& g) {
  Shapes s;
  s.src = {g.batch, g.in_channels, g.in_h, g.in_w};
  s.dst = {g.batch, g.out_channels, g.out_h, g.out_w};
  s.nhwc = g.channels_last;
  s.image_tag = g.channels_last ? Tag::nhwc : Tag::nchw;
  if (g.groups == 1) {
    s.weights = {g.out_channels, g.in_channels, g.kernel_h, g.kernel_w};
    s.weights_tag = g.channels_last ? Tag::ohwi : Tag::oihw;
  } else {
    s.weights = {g.groups, g.out_per_group(), g.in_per_group(), g.kernel_h, g.kernel_w};
    s.weights_tag = g.channels_last ? Tag::gohwi : Tag::goihw;
  }
  s.bias = {g.out_channels};
  s.strides = {g.stride[0], g.stride[1]};
  s.dilates = {g.dilation[0] - 1, g.dilation[1] - 1};
  s.pad_l = {g.pad_begin[0], g.pad_begin[1]};
  s.pad_r = {g.pad_end[0], g.pad_end[1]};
  return s;
}

constexpr int64_t kSerialMacs = int64_t{1} << 22;

class ThreadsFor {
 public:
  explicit ThreadsFor(const ConvGeometry& g) {
#if defined(TIDE_USE_OPENMP)
    const int64_t macs = g.batch * g.out_channels * g.out_h * g.out_w * g.in_per_group() *
                         g.kernel_h * g.kernel_w;
    if (macs < kSerialMacs && previous_ > 1) {
      omp_set_num_threads(1);
    } else {
      previous_ = 0;
    }
#else
    (void)g;
#endif
  }
  ~ThreadsFor() {
#if defined(TIDE_USE_OPENMP)
    if (previous_ > 1) omp_set_num_threads(previous_);
#endif
  }
  ThreadsFor(const ThreadsFor&) = delete;
  ThreadsFor& operator=(const ThreadsFor&) = delete;

 private:
#if defined(TIDE_USE_OPENMP)
  int previous_ = omp_get_max_threads();
#endif
};

memory::desc any(const Dims& dims) { return memory::desc(dims, kF32, Tag::any); }

/// An image (source, destination or their gradients) as the primitive should take it: where
/// it lies for nhwc, else oneDNN's choice.
memory::desc image(const Shapes& s, const Dims& dims) {
  return s.nhwc ? memory::desc(dims, kF32, Tag::nhwc) : any(dims);
}

/// A plain tensor as oneDNN memory (no copy).
memory plain(const Tensor& t, const Dims& dims, Tag tag) {
  return memory(memory::desc(dims, kF32, tag), cpu_engine(), t.data_ptr<float>());
}

/// `user` in the layout the primitive wants: itself, or a reordered copy (Note [oneDNN layouts]).
memory to_layout(const memory& user, const memory::desc& wanted, dnnl::stream& stream) {
  if (user.get_desc() == wanted) return user;
  memory m(wanted, cpu_engine());
  dnnl::reorder(user, m).execute(stream, const_cast<memory&>(user), m);
  return m;
}

/// Where the primitive writes `user`: itself, or a scratch memory that finish() copies back.
struct Output {
  memory user, used;
  Output(const memory& u, const memory::desc& wanted)
      : user(u), used(u.get_desc() == wanted ? u : memory(wanted, cpu_engine())) {}
  void finish(dnnl::stream& stream) {
    if (used != user) dnnl::reorder(used, user).execute(stream, used, user);
  }
};

dnnl::convolution_forward::primitive_desc forward_pd(const Shapes& s, bool with_bias) {
  using dnnl::convolution_forward;
  const auto kind = dnnl::prop_kind::forward_training;
  const auto algo = dnnl::algorithm::convolution_direct;
  auto desc = with_bias ? convolution_forward::desc(kind, algo, image(s, s.src), any(s.weights),
                                                    any(s.bias), image(s, s.dst), s.strides,
                                                    s.dilates, s.pad_l, s.pad_r)
                        : convolution_forward::desc(kind, algo, image(s, s.src), any(s.weights),
                                                    image(s, s.dst), s.strides, s.dilates, s.pad_l,
                                                    s.pad_r);
  return convolution_forward::primitive_desc(desc, cpu_engine());
}

}  // namespace

void conv2d_forward(const Tensor& out, const Tensor& input, const Tensor& weight,
                    const Tensor& bias, const ConvGeometry& g) {
  const ThreadsFor threads(g);
  const Shapes s = shapes_of(g);
  const auto pd = forward_pd(s, bias.defined());
  dnnl::stream stream(cpu_engine());
  const memory src = to_layout(plain(input, s.src, s.image_tag), pd.src_desc(), stream);
  const memory weights =
      to_layout(plain(weight, s.weights, s.weights_tag), pd.weights_desc(), stream);
  Output dst(plain(out, s.dst, s.image_tag), pd.dst_desc());
  std::unordered_map<int, memory> args{
      {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst.used}};
  if (bias.defined()) args.emplace(DNNL_ARG_BIAS, plain(bias, s.bias, Tag::x));
  dnnl::convolution_forward(pd).execute(stream, args);
  dst.finish(stream);
  stream.wait();
}

void conv2d_backward_input(const Tensor& grad_input, const Tensor& grad_out, const Tensor& weight,
                           const ConvGeometry& g) {
  using dnnl::convolution_backward_data;
  const ThreadsFor threads(g);
  const Shapes s = shapes_of(g);
  const auto hint = forward_pd(s, false);
  const convolution_backward_data::desc desc(dnnl::algorithm::convolution_direct, image(s, s.src),
                                             any(s.weights), image(s, s.dst), s.strides, s.dilates,
                                             s.pad_l, s.pad_r);
  const convolution_backward_data::primitive_desc pd(desc, cpu_engine(), hint);
  dnnl::stream stream(cpu_engine());
  const memory diff_dst =
      to_layout(plain(grad_out, s.dst, s.image_tag), pd.diff_dst_desc(), stream);
  const memory weights =
      to_layout(plain(weight, s.weights, s.weights_tag), pd.weights_desc(), stream);
  Output diff_src(plain(grad_input, s.src, s.image_tag), pd.diff_src_desc());
  convolution_backward_data(pd).execute(stream, {{DNNL_ARG_DIFF_DST, diff_dst},
                                                 {DNNL_ARG_WEIGHTS, weights},
                                                 {DNNL_ARG_DIFF_SRC, diff_src.used}});
  diff_src.finish(stream);
  stream.wait();
}

void conv2d_backward_weight(const Tensor& grad_weight, const Tensor& grad_bias,
                            const Tensor& input, const Tensor& grad_out, const ConvGeometry& g) {
  using dnnl::convolution_backward_weights;
  const ThreadsFor threads(g);
  const Shapes s = shapes_of(g);
  const bool with_bias = grad_bias.defined();
  const auto hint = forward_pd(s, with_bias);
  const auto algo = dnnl::algorithm::convolution_direct;
  auto desc = with_bias ? convolution_backward_weights::desc(
                              algo, image(s, s.src), any(s.weights), any(s.bias), image(s, s.dst),
                              s.strides, s.dilates, s.pad_l, s.pad_r)
                        : convolution_backward_weights::desc(algo, image(s, s.src), any(s.weights),
                                                             image(s, s.dst), s.strides, s.dilates,
                                                             s.pad_l, s.pad_r);
  const convolution_backward_weights::primitive_desc pd(desc, cpu_engine(), hint);
  dnnl::stream stream(cpu_engine());
  const memory src = to_layout(plain(input, s.src, s.image_tag), pd.src_desc(), stream);
  const memory diff_dst =
      to_layout(plain(grad_out, s.dst, s.image_tag), pd.diff_dst_desc(), stream);
  Output diff_weights(plain(grad_weight, s.weights, s.weights_tag), pd.diff_weights_desc());
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src},
                                       {DNNL_ARG_DIFF_DST, diff_dst},
                                       {DNNL_ARG_DIFF_WEIGHTS, diff_weights.used}};
  if (with_bias) args.emplace(DNNL_ARG_DIFF_BIAS, plain(grad_bias, s.bias, Tag::x));
  convolution_backward_weights(pd).execute(stream, args);
  diff_weights.finish(stream);
  stream.wait();
}

}  // namespace tide::kernels::onednn
