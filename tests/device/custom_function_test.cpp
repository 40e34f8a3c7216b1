// Custom functions and tensor hooks on cuda devices: the node of a custom function whose outputs
// live on a device runs on its forward stream, with gradients on the operands' devices, equal to
// the cpu's bit for bit on simulated GPUs; a hook on a device tensor sees and replaces the
// device gradient.

#include "tide/custom_function.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "device_helpers.h"
#include "tide/autograd.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"

using namespace tide;
using autograd::AutogradContext;
using test::cuda_device;

namespace {

/// P3(t) = (5 t^3 - 3 t) / 2, the derivative from saved t; records the stream backward ran on.
struct LegendreP3 : autograd::Function<LegendreP3> {
  static inline std::optional<cuda::Stream> backward_stream;
  static Tensor forward(AutogradContext* ctx, const Tensor& t) {
    ctx->save_for_backward({t});
    return (t.pow(3) * 5 - t * 3) * 0.5;
  }
  static std::vector<Tensor> backward(AutogradContext* ctx, std::vector<Tensor> g) {
    const Tensor t = ctx->get_saved_variables()[0];
    if (t.is_cuda()) backward_stream = cuda::current_stream(t.get_device());
    return {g[0] * (t.pow(2) * 5 - 1) * 1.5};
  }
};

Tensor gradient_on(Device device) {
  Tensor x = linspace(-1, 1, 64, dtype(kFloat32)).to(device).requires_grad_();
  Tensor w = arange(64, dtype(kFloat32)).to(device) * 0.125;
  (LegendreP3::apply(x * 0.5 + 0.25) * w).sum().backward();
  return x.grad();
}

}  // namespace

TEST(CustomFunctionDevice, GradientsOnEveryDeviceEqualTheCpus) {
  TIDE_REQUIRE_DEVICES(1);
  const Tensor expected = gradient_on(Device(kCPU));
  for (int d = 0; d < cuda::device_count(); ++d) {
    const Tensor got = gradient_on(cuda_device(d));
    EXPECT_EQ(got.device(), cuda_device(d));
    EXPECT_TRUE(test::matches_cpu(expected, got)) << "cuda:" << d;
  }
}

TEST(CustomFunctionDevice, BackwardRunsOnTheForwardStream) {
  TIDE_REQUIRE_DEVICES(1);
  const cuda::Stream side(0);
  Tensor x = ones({8}, TensorOptions(cuda_device(0))).requires_grad_();
  side.wait_stream(cuda::current_stream(0));  // x was filled on the default stream
  Tensor y;
  {
    cuda::StreamGuard guard(side);
    y = LegendreP3::apply(x);
  }
  cuda::current_stream(0).wait_stream(side);  // y is read on the default stream below
  y.sum().backward();
  ASSERT_TRUE(LegendreP3::backward_stream.has_value());
  EXPECT_EQ(*LegendreP3::backward_stream, side);
  EXPECT_EQ(x.grad().cpu().tolist<float>(), std::vector<float>(8, 6.0f));  // 1.5 * (5 - 1)
}

TEST(CustomFunctionDevice, AHookOnADeviceTensorReplacesItsGradient) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor x = ones({4}, TensorOptions(cuda_device(0))).requires_grad_();
  Tensor y = x * 2;
  autograd::register_hook(y, [](const Tensor& g) {
    EXPECT_EQ(g.device(), cuda_device(0));
    return g * 10;
  });
  autograd::retain_grad(y);
  y.sum().backward();
  EXPECT_EQ(y.grad().cpu().tolist<float>(), std::vector<float>(4, 10.0f));
  EXPECT_EQ(x.grad().cpu().tolist<float>(), std::vector<float>(4, 20.0f));
}
