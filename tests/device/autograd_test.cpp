// Autograd on cuda devices: the gradients equal the cpu's (test::matches_cpu: bit for bit on
// simulated GPUs), they live on the operands' device, and backward follows torch's stream
// semantics (Note [Backward streams] in src/autograd/engine.h), proven with held streams.

#include "tide/autograd.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>
#include <vector>

#include "device_helpers.h"
#include "support/sim_streams.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"
#include "tide/testing/sim_hooks.h"

using namespace tide;
using test::cuda_device;
using test::MustNotWaitFor;
using tide::testing::StreamHold;

namespace {

using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

/// The gradients of sum(f(inputs) * weights) w.r.t. every floating input, on `device`.
std::vector<Tensor> gradients(const Fn& f, const std::vector<Tensor>& inputs, Device device) {
  std::vector<Tensor> leaves;
  for (const Tensor& t : inputs) {
    Tensor leaf = t.detach().to(device);  // a fresh leaf, also on cpu (where to() is a no-op)
    if (leaf.is_floating_point()) leaf.requires_grad_();
    leaves.push_back(leaf);
  }
  const Tensor y = f(leaves);
  const Tensor w = arange(y.numel(), dtype(y.dtype())).to(device).view(y.sizes()) * 0.25 - 1.0;
  (y * w).sum().backward();
  std::vector<Tensor> out;
  for (const Tensor& l : leaves) {
    if (l.requires_grad()) out.push_back(l.grad());
  }
  return out;
}

struct Case {
  const char* name;
  Fn f;
  std::vector<Tensor> inputs;
};

std::vector<Case> cases() {
  manual_seed(7);
  auto r = [](std::vector<int64_t> s) { return randn(std::move(s)); };
  auto pos = [](std::vector<int64_t> s) { return rand(std::move(s)) + 0.5; };
  const Tensor cond = gt(r({2, 3}), 0);
  return {
      {"add sub broadcast",
       [](auto& x) { return add(x[0], x[1], 2) - x[1] * 0.5; },
       {r({2, 3}), r({3})}},
      {"mul div", [](auto& x) { return x[0] * x[1] / x[2]; }, {r({2, 3}), r({2, 1}), pos({3})}},
      {"pow",
       [](auto& x) { return pow(x[0], x[1]) + pow(x[0], 2) + pow(2.0, x[1]); },
       {pos({4}), r({4})}},
      {"maximum minimum",
       [](auto& x) { return maximum(x[0], x[1]) + minimum(x[0], x[1]) * 2; },
       {r({5}), r({5})}},
      {"where clamp",
       [cond](auto& x) { return where(cond.to(x[0].device()), x[0], x[1]).clamp(-0.5, 0.5); },
       {r({2, 3}), r({3})}},
      {"unary",
       [](auto& x) {
         return x[0].exp() + x[1].log() + x[1].sqrt() + x[0].relu() + x[0].sigmoid() + x[0].tanh() +
                x[0].abs() - x[0];
       },
       {r({6}), pos({6})}},
      {"reductions",
       [](auto& x) {
         return x[0].sum(1) + x[0].mean(1) + std::get<0>(x[0].max(1)) + std::get<0>(x[0].min(1)) +
                x[0].max();
       },
       {r({3, 4})}},
      {"matrix products",
       [](auto& x) { return addmm(x[2], x[0], x[1]).matmul(x[1].t()); },
       {r({2, 3}), r({3, 4}), r({4})}},
      {"batched matmul",
       [](auto& x) { return x[0].matmul(x[1]).bmm(x[1].transpose(1, 2)); },
       {r({2, 2, 3}), r({2, 3, 2})}},
      {"views",
       [](auto& x) {
         return x[0]
             .t()
             .reshape({3, 2})
             .narrow(0, 1, 2)
             .unsqueeze(0)
             .expand({2, 2, 2})
             .permute({2, 0, 1})
             .select(0, 1);
       },
       {r({2, 3})}},
      {"cat stack chunk",
       [](auto& x) {
         return stack({cat({x[0], x[1]}, 0).chunk(2, 0)[1], x[1]}, 0);
       },
       {r({2, 3}), r({2, 3})}},
      {"index_select",
       [](auto& x) { return x[0].index_select(0, x[1]); },
       {r({3, 2}), tensor({2, 0, 2})}},
      {"softmax", [](auto& x) { return x[0].softmax(1) + x[0].log_softmax(0); }, {r({2, 3})}},
      {"cross_entropy",
       [](auto& x) { return cross_entropy(x[0], x[1], x[2].detach(), Reduction::Mean, 1); },
       {r({4, 3}), tensor({0, 1, 2, 1}), pos({3})}},
      {"in place on views",
       [](auto& x) {
         Tensor y = x[0] * 1.0f;
         y.narrow(1, 1, 2).mul_(x[1]);
         y.select(1, 0).add_(x[0].sum(1));
         return y;
       },
       {r({3, 4}), r({3, 2})}},
      {"writes into views of a plain tensor",
       [](auto& x) {
         Tensor buffer = zeros_like(x[0]);  // plain: the writes give it a CopySlices history
         Tensor row = buffer[2];            // made before the writes: replays them
         buffer.narrow(1, 1, 2).copy_(x[1]);
         buffer.select(1, 0).view({3, 1}).copy_(x[0].sum(1, /*keepdim=*/true));
         return buffer * 2 + row;
       },
       {r({3, 4}), r({3, 2})}},
      {"copies",
       [](auto& x) {
         return x[0].to(kFloat64).to(kFloat32).clone() * x[0].cpu().to(x[0].device());
       },
       {r({3})}},
  };
}

}  // namespace

TEST(AutogradDevice, GradientsOnEveryDeviceEqualTheCpus) {
  TIDE_REQUIRE_DEVICES(1);
  for (const Case& c : cases()) {
    const std::vector<Tensor> expected = gradients(c.f, c.inputs, Device(kCPU));
    for (int d = 0; d < cuda::device_count(); ++d) {
      cuda::DeviceGuard other(test::other_device(d));  // ops run on the operands' device
      const std::vector<Tensor> got = gradients(c.f, c.inputs, cuda_device(d));
      ASSERT_EQ(got.size(), expected.size()) << c.name;
      for (size_t i = 0; i < got.size(); ++i) {
        if (!expected[i].defined()) {  // a detached input (cross_entropy's weight)
          EXPECT_FALSE(got[i].defined()) << c.name << " input " << i;
          continue;
        }
        ASSERT_TRUE(got[i].defined())
            << c.name << " input " << i << " got no gradient on cuda:" << d;
        EXPECT_EQ(got[i].device(), cuda_device(d)) << c.name << " input " << i;
        EXPECT_TRUE(test::matches_cpu(expected[i], got[i]))
            << c.name << " input " << i << " on cuda:" << d;
      }
    }
  }
}

TEST(AutogradDevice, ALeafOnTheCpuGetsItsGradientBackFromTheDevice) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor x = tensor({1.0f, 2.0f}).requires_grad_();
  (x.to(cuda_device(0)) * 3).sum().backward();
  EXPECT_TRUE(x.grad().is_cpu());
  EXPECT_EQ(x.grad().tolist<float>(), (std::vector<float>{3, 3}));
}

TEST(AutogradDevice, GradientsFlowBackAcrossDevicesAndSideStreams) {
  TIDE_REQUIRE_DEVICES(2);
  Tensor x = full({256}, 2.0f, TensorOptions(cuda_device(0))).requires_grad_();
  const cuda::Stream side1(1);
  Tensor loss;
  {
    cuda::StreamGuard on_side(side1);  // the second half of the forward runs on a side stream
    side1.wait_stream(cuda::current_stream(1));
    loss = (x.to(cuda_device(1)) * x.to(cuda_device(1))).sum();
  }
  loss.backward();
  EXPECT_EQ(x.grad().device(), cuda_device(0));
  EXPECT_EQ(x.grad().cpu().tolist<float>(), std::vector<float>(256, 4.0f));
}

TEST(AutogradDevice, SetDataMovesAParameterForEveryHandle) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor param = tensor({1.0f, 2.0f}).requires_grad_();
  const Tensor held = param;                          // an optimizer's handle
  param.set_data(param.detach().to(cuda_device(0)));  // what nn's module.cuda() does
  EXPECT_EQ(held.device(), cuda_device(0));
  EXPECT_TRUE(held.is_leaf());
  EXPECT_TRUE(held.requires_grad());
  (held * 3).sum().backward();
  EXPECT_EQ(param.grad().device(), cuda_device(0));
  EXPECT_EQ(param.grad().cpu().tolist<float>(), (std::vector<float>{3, 3}));
}

TEST(AutogradDevice, ACpuScalarTensorInAGpuOpGetsItsGradientOnTheCpu) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor x = full({3}, 2.0f, TensorOptions(cuda_device(0))).requires_grad_();
  Tensor s = tensor(4.0f).requires_grad_();  // 0-dim, on the cpu
  (x * s).sum().backward();
  EXPECT_TRUE(s.grad().is_cpu());
  EXPECT_EQ(s.grad().item<float>(), 6.0f);
  EXPECT_EQ(x.grad().cpu().tolist<float>(), std::vector<float>(3, 4.0f));
}

TEST(AutogradDevice, AGradientOnAnotherDeviceRaises) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor x = ones({2}, TensorOptions(cuda_device(0))).requires_grad_();
  try {
    (x * 2).backward(ones({2}));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "invalid gradient at index 0 - expected device cuda:0 but got cpu"),
              std::string::npos)
        << e.what();
  }
}

// Note [Backward streams]: nodes run on their forward op's stream, and the caller's current stream
// waits for them. The side stream is held while backward runs: backward must return without
// waiting for it (the host is not blocked), its kernels must be queued on the side stream (not
// run elsewhere), and the caller's current stream must now be queued behind the side stream.
TEST(AutogradDevice, BackwardRunsOnTheForwardStreamAndTheCallersStreamWaitsForIt) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const Device dev = cuda_device(0);
  cuda::DeviceGuard guard(0);
  Tensor x = ones({4}, TensorOptions(dev)).requires_grad_();
  const cuda::Stream side(0);
  const cuda::Stream caller = cuda::current_stream(0);
  Tensor loss;
  {
    cuda::StreamGuard on_side(side);
    side.wait_stream(caller);
    loss = (x * 2).exp().sum();
  }
  cuda::synchronize(0);
  ASSERT_TRUE(side.query());
  ASSERT_TRUE(caller.query());
  {
    StreamHold hold(side);
    MustNotWaitFor no_wait(side);
    loss.backward();
    EXPECT_TRUE(no_wait.done()) << "backward waited for the held stream";
    EXPECT_FALSE(side.query()) << "the backward kernels were not queued on the forward stream";
    EXPECT_FALSE(caller.query()) << "the caller's stream does not wait for the backward stream";
    EXPECT_EQ(cuda::current_stream(0), caller);  // the StreamGuards were restored
  }
  const Tensor g = x.grad();
  EXPECT_EQ(g.device(), dev);
  EXPECT_EQ(g.cpu().tolist<float>(), std::vector<float>(4, 2 * std::exp(2.0f)));
}

// A gradient produced on one stream and consumed on another: the consumer waits (torch's event
// record + wait). exp runs on `second`, the multiply before it on `first`: while `second` is held,
// the multiply's backward on `first` must not run.
TEST(AutogradDevice, AGradientCrossingStreamsIsWaitedFor) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::DeviceGuard guard(0);
  Tensor x = full({1024}, 0.5f, TensorOptions(cuda_device(0))).requires_grad_();
  const cuda::Stream first(0), second(0);
  ASSERT_NE(first, second);
  const cuda::Stream caller = cuda::current_stream(0);
  Tensor a, loss;
  {
    cuda::StreamGuard s(first);
    first.wait_stream(caller);
    a = x * 3;
  }
  {
    cuda::StreamGuard s(second);
    second.wait_stream(first);
    loss = a.exp().sum();
  }
  cuda::synchronize(0);
  {
    StreamHold hold(second);
    MustNotWaitFor no_wait(second);
    loss.backward();
    EXPECT_TRUE(no_wait.done());
    EXPECT_FALSE(second.query());
    EXPECT_FALSE(first.query()) << "the multiply's backward on `first` did not wait for `second`";
    EXPECT_FALSE(caller.query());
  }
  EXPECT_EQ(x.grad().cpu().tolist<float>(), std::vector<float>(1024, 3 * std::exp(1.5f)));
}

// autograd::grad returns the gradient of an activation (a captured node, not run) that was used
// twice: its two gradients are summed on the activation's stream, so the caller's stream must
// wait for that stream as well as for the ones that ran nodes (torch's leaf streams). The
// activation is made on `a`, used twice on `b`, and grad is called from `c` with `a` held: the
// sum is queued behind the hold, so a read of the gradient on `c` must be too. A caller's
// stream that did not wait would read the unsummed buffer while `a` is held: it is given a
// wide margin to do so (correct code spends it waiting; the answer never depends on it).
TEST(AutogradDevice, GradOfAnActivationUsedTwiceIsOrderedForTheCallersStream) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::DeviceGuard guard(0);
  const Tensor x = full({1024}, 0.5f, TensorOptions(cuda_device(0))).requires_grad_();
  const cuda::Stream a(0), b(0), c(0);
  Tensor h, out;
  {
    cuda::StreamGuard on_a(a);
    a.wait_stream(cuda::default_stream(0));
    h = x * 2;
  }
  {
    cuda::StreamGuard on_b(b);
    b.wait_stream(a);
    out = (h * 3).sum() + (h * 5).sum();
  }
  cuda::synchronize(0);
  Tensor g, read;
  {
    StreamHold hold(a);
    cuda::StreamGuard on_c(c);
    {
      MustNotWaitFor no_wait(a);
      g = autograd::grad({out}, {h}).at(0);
      EXPECT_TRUE(no_wait.done()) << "grad waited on the host for the held stream";
    }
    EXPECT_FALSE(a.query()) << "the gradients were not summed on the activation's stream";
    read = g.clone();  // on c
    b.synchronize();   // the uses' backward: not behind the hold
    const auto margin = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    while (!c.query() && std::chrono::steady_clock::now() < margin) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_FALSE(c.query()) << "the caller's stream does not wait for the activation's stream";
  }
  cuda::synchronize(0);
  EXPECT_EQ(g.cpu().tolist<float>(), std::vector<float>(1024, 8.f));
  EXPECT_EQ(read.cpu().tolist<float>(), std::vector<float>(1024, 8.f))
      << "the caller's stream read the gradient before it was summed";
}

namespace {

/// A gradient penalty and a Hessian-vector product on `device` (Note [create_graph] in
/// src/autograd/engine.h): the input gradient made with create_graph joins the loss, whose
/// backward differentiates it; then H v of a second loss. Returns x.grad, w.grad and H v.
std::vector<Tensor> second_order(Device device) {
  manual_seed(11);
  const Tensor x = randn({4, 3}).to(device).requires_grad_();
  const Tensor w = randn({3, 3}).to(device).requires_grad_();
  const Tensor target = tensor({0, 2, 1, 2}).to(device);
  const Tensor h = x.matmul(w).tanh();
  const Tensor loss = cross_entropy(h.softmax(1) * 3 + h.exp(), target) + mse_loss(h, x);
  const Tensor gx = autograd::grad({loss}, {x}, {}, std::nullopt, false, true)[0];
  (loss + (gx * gx).sum()).backward();
  const Tensor v = (arange(12, dtype(kFloat32)) * 0.1 - 0.5).view({4, 3}).to(device);
  const Tensor f = (x.sigmoid() * x).sum() + x.log_softmax(1).pow(2).sum();
  const Tensor g = autograd::grad({f}, {x}, {}, std::nullopt, false, true)[0];
  const Tensor hv = autograd::grad({(g * v).sum()}, {x})[0];
  return {x.grad(), w.grad(), hv};
}

}  // namespace

TEST(AutogradDevice, DoubleBackwardOnEveryDeviceEqualsTheCpus) {
  TIDE_REQUIRE_DEVICES(1);
  const std::vector<Tensor> expected = second_order(Device(kCPU));
  for (int d = 0; d < cuda::device_count(); ++d) {
    cuda::DeviceGuard other(test::other_device(d));
    const std::vector<Tensor> got = second_order(cuda_device(d));
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_TRUE(got[i].defined()) << i;
      EXPECT_EQ(got[i].device(), cuda_device(d)) << i;
      EXPECT_TRUE(test::matches_cpu(expected[i], got[i])) << "result " << i << " on cuda:" << d;
    }
  }
}
