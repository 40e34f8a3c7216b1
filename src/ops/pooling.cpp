// max_pool2d (with indices), avg_pool2d and adaptive_avg_pool2d, as torch.nn.functional's:
// output sizes, ceil_mode, padding limits and error words from ATen's Pool.h. Every call
// becomes one PoolPlan (kernels/conv_geometry.h) over contiguous planes, then one run_kernel.

#include "ops/pooling.h"

#include <optional>
#include <string>
#include <tuple>

#include "kernels/conv_stubs.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"

namespace tide::detail {
namespace {

/// torch's int[2] for pooling: one value for both dims or one per dim; `empty_ok` lets an
/// empty list stand for the fallback (stride defaults to kernel_size).
void pool_pair(IntArrayRef v, const char* what, const char* where, int64_t out[2],
               const int64_t* fallback = nullptr) {
  if (v.size() == 0 && fallback != nullptr) {
    out[0] = fallback[0];
    out[1] = fallback[1];
    return;
  }
  TIDE_CHECK(v.size() == 1 || v.size() == 2, "[", where, "] ", where, ": ", what,
             " must either be a single int, or a tuple of two ints; found ", v.size(),
             " values");
  out[0] = v[0];
  out[1] = v[v.size() - 1];
}

/// ATen's pooling_output_shape: floor or ceil, and a last window must start inside the input
/// or its left padding.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dilation,
                    bool ceil_mode) {
  const int64_t span = in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  // floor division (span may be negative when the window does not fit)
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

std::string size_text(const DimVector& s) {
  std::string t;
  for (int64_t i = 0; i < s.size(); ++i) {
    if (i > 0) t += 'x';
    t += std::to_string(s[i]);
  }
  return t;
}

/// The checks every pooling shares, and the plan's shapes and plane count (sizes left to fill).
PoolPlan start_plan(const Tensor& self, const char* where) {
  check_defined(self, where, "input");
  TIDE_CHECK((self.dim() == 3 || self.dim() == 4) && self.numel() > 0, "[", where,
             "] non-empty 3D or 4D (batch mode) tensor expected for input, found a tensor of ",
             self.dim(), " dims and ", self.numel(), " elements");
  TIDE_CHECK(self.dtype() == kFloat32 || self.dtype() == kFloat64, "[", where, "] \"", where,
             "\" not implemented for '", torch_type_name(self.dtype()),
             "'; convert the input to float32 or float64 first");
  PoolPlan plan;
  plan.in_shape = self.shape();
  plan.channels_last =
      self.dim() == 4 && self.suggest_memory_format() == MemoryFormat::ChannelsLast;
  kernels::PoolGeometry& g = plan.geometry;
  g.in_h = self.size(-2);
  g.in_w = self.size(-1);
  g.planes = self.numel() / (g.in_h * g.in_w);
  return plan;
}

void finish_plan(PoolPlan& plan, const char* where) {
  kernels::PoolGeometry& g = plan.geometry;
  TIDE_CHECK(g.out_h >= 1 && g.out_w >= 1, "[", where, "] Given input size: (",
             size_text(DimVector(plan.in_shape.end() - 3, plan.in_shape.end())),
             "). Calculated output size: (", plan.in_shape[plan.in_shape.size() - 3], "x",
             g.out_h, "x", g.out_w, "). Output size is too small");
  plan.out_shape = plan.in_shape;
  plan.out_shape[plan.out_shape.size() - 2] = g.out_h;
  plan.out_shape[plan.out_shape.size() - 1] = g.out_w;
}

/// Windows with kernel, stride, padding, dilation (max and avg pooling).
PoolPlan plan_windows(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                      IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                      const char* where) {
  PoolPlan plan = start_plan(self, where);
  kernels::PoolGeometry& g = plan.geometry;
  pool_pair(kernel_size, "kernel_size", where, g.kernel);
  pool_pair(stride, "stride", where, g.stride, g.kernel);
  pool_pair(padding, "padding", where, g.pad);
  pool_pair(dilation, "dilation", where, g.dilation);
  TIDE_CHECK(g.kernel[0] > 0 && g.kernel[1] > 0, "[", where,
             "] kernel_size should be greater than zero, but got kH: ", g.kernel[0],
             " kW: ", g.kernel[1]);
  TIDE_CHECK(g.stride[0] > 0 && g.stride[1] > 0, "[", where,
             "] stride should be greater than zero, but got dH: ", g.stride[0], " dW: ",
             g.stride[1]);
  TIDE_CHECK(g.dilation[0] > 0 && g.dilation[1] > 0, "[", where,
             "] dilation should be greater than zero, but got dilationH: ", g.dilation[0],
             " dilationW: ", g.dilation[1]);
  for (int i = 0; i < 2; ++i) {
    TIDE_CHECK(g.pad[i] >= 0 && g.pad[i] <= g.kernel[i] / 2, "[", where,
               "] pad should be at most half of kernel size, but got pad=", g.pad[i],
               " and kernel_size=", g.kernel[i], "; use a padding of at most kernel_size / 2");
  }
  g.out_h = pooled_size(g.in_h, g.kernel[0], g.pad[0], g.stride[0], g.dilation[0], ceil_mode);
  g.out_w = pooled_size(g.in_w, g.kernel[1], g.pad[1], g.stride[1], g.dilation[1], ceil_mode);
  finish_plan(plan, where);
  return plan;
}

Tensor empty_in_shape(const DimVector& shape, const Tensor& like) {
  return make_empty(shape, like.dtype(), like.device());
}

namespace {
/// A result (or input gradient) in the plan's layout; the kernels compute in NCHW.
Tensor in_layout_of(const Tensor& out, const PoolPlan& plan) {
  return plan.channels_last ? out.contiguous(MemoryFormat::ChannelsLast) : out;
}
}  // namespace

}  // namespace

PoolPlan plan_max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                         IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return plan_windows(self, kernel_size, stride, padding, dilation, ceil_mode, "max_pool2d");
}

PoolPlan plan_avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                         IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                         std::optional<int64_t> divisor_override) {
  TIDE_CHECK(!divisor_override || *divisor_override != 0,
             "[avg_pool2d] divisor must be not zero");
  PoolPlan plan = plan_windows(self, kernel_size, stride, padding, 1, ceil_mode, "avg_pool2d");
  plan.geometry.count_include_pad = count_include_pad;
  plan.geometry.divisor_override = divisor_override.value_or(0);
  return plan;
}

PoolPlan plan_adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  const char* where = "adaptive_avg_pool2d";
  PoolPlan plan = start_plan(self, where);
  int64_t out[2];
  pool_pair(output_size, "output_size", where, out);
  TIDE_CHECK(out[0] >= 1 && out[1] >= 1, "[", where,
             "] expected an output_size of positive ints, found (", out[0], ", ", out[1], ")");
  plan.geometry.out_h = out[0];
  plan.geometry.out_w = out[1];
  finish_plan(plan, where);
  return plan;
}

Tensor max_pool2d_backward(const Tensor& grad_out, const Tensor& indices, const PoolPlan& plan) {
  Tensor grad_input = empty_in_shape(plan.in_shape, grad_out);
  run_kernel(grad_out.device(), "max_pool2d_backward", kernels::max_pool2d_backward_stub,
             grad_input, grad_out.contiguous(), indices.contiguous(), plan.geometry);
  return in_layout_of(grad_input, plan);
}

Tensor avg_pool2d_backward(const Tensor& grad_out, const PoolPlan& plan) {
  Tensor grad_input = empty_in_shape(plan.in_shape, grad_out);
  run_kernel(grad_out.device(), "avg_pool2d_backward", kernels::avg_pool2d_backward_stub,
             grad_input, grad_out.contiguous(), plan.geometry);
  return in_layout_of(grad_input, plan);
}

Tensor adaptive_avg_pool2d_backward(const Tensor& grad_out, const PoolPlan& plan) {
  Tensor grad_input = empty_in_shape(plan.in_shape, grad_out);
  run_kernel(grad_out.device(), "adaptive_avg_pool2d_backward",
             kernels::adaptive_avg_pool2d_backward_stub, grad_input, grad_out.contiguous(),
             plan.geometry);
  return in_layout_of(grad_input, plan);
}

// ---- the table's front ends (ops.yaml, family pooling)

std::tuple<Tensor, Tensor> plain_max_pool2d_with_indices(const Tensor& self,
                                                         IntArrayRef kernel_size,
                                                         IntArrayRef stride, IntArrayRef padding,
                                                         IntArrayRef dilation, bool ceil_mode) {
  const PoolPlan plan = plan_max_pool2d(self, kernel_size, stride, padding, dilation, ceil_mode);
  Tensor out = empty_in_shape(plan.out_shape, self);
  Tensor indices = make_empty(plan.out_shape, kInt64, self.device());
  run_kernel(self.device(), "max_pool2d", kernels::max_pool2d_stub, out, indices,
             self.contiguous(), plan.geometry);
  return {in_layout_of(out, plan), in_layout_of(indices, plan)};
}

Tensor plain_max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(plain_max_pool2d_with_indices(self, std::move(kernel_size),
                                                   std::move(stride), std::move(padding),
                                                   std::move(dilation), ceil_mode));
}

Tensor plain_avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                        IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                        std::optional<int64_t> divisor_override) {
  const PoolPlan plan = plan_avg_pool2d(self, kernel_size, stride, padding, ceil_mode,
                                        count_include_pad, divisor_override);
  Tensor out = empty_in_shape(plan.out_shape, self);
  run_kernel(self.device(), "avg_pool2d", kernels::avg_pool2d_stub, out, self.contiguous(),
             plan.geometry);
  return in_layout_of(out, plan);
}

Tensor plain_adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  const PoolPlan plan = plan_adaptive_avg_pool2d(self, output_size);
  Tensor out = empty_in_shape(plan.out_shape, self);
  run_kernel(self.device(), "adaptive_avg_pool2d", kernels::adaptive_avg_pool2d_stub, out,
             self.contiguous(), plan.geometry);
  return in_layout_of(out, plan);
}

}  // namespace tide::detail
