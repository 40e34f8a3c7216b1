// nn modules on cuda devices: module.cuda() / to("cuda:1") / cpu() move parameters, gradients
// and buffers in place (a handle taken before the move sees the new device), criterion.cuda()
// moves the class weights (the seeds' examples), load_state_dict and clone across devices, a
// forward on the device, SGD by hand giving the cpu's parameters (test::matches_cpu), an
// optimizer built before module.cuda() updating the moved parameters, and modules built under a
// default device and dtype.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "device_helpers.h"
#include "support/cudnn_switches_guard.h"
#include "support/defaults_guard.h"
#include "support/error_of.h"
#include "tide/testing/sim_hooks.h"
#include "tide/tide.h"

using namespace tide;
using test::cuda_device;
using test::matches_cpu;

namespace {

nn::Sequential mlp(uint64_t seed) {
  manual_seed(seed);
  return nn::Sequential(nn::Flatten(), nn::Linear(6, 8), nn::ReLU(), nn::Dropout(0.25),
                        nn::Linear(8, 3));
}

/// The parameters after `steps` of SGD by hand (p.set_data(p - lr * grad) under NoGradGuard),
/// with the module, the criterion and the batch moved to `device` the seeds' way.
std::vector<Tensor> train_on(Device device, int steps, bool set_to_none) {
  nn::Sequential net = mlp(3);
  nn::CrossEntropyLoss criterion(tensor({1.0, 0.5, 2.0}));
  manual_seed(4);
  Tensor x = randn({10, 2, 3});
  const Tensor y = tensor({0, 1, 2, 0, 1, 2, 0, 1, 2, 2});
  net.to(device);
  criterion.to(device);
  x = x.to(device);
  const Tensor target = y.to(device);
  manual_seed(5);  // every device's generator: the same dropout masks on cpu and cuda
  for (int i = 0; i < steps; ++i) {
    net.zero_grad(set_to_none);
    const Tensor loss = criterion(net(x), target);
    EXPECT_EQ(loss.device(), device);
    loss.backward();
    NoGradGuard no_grad;
    for (const Tensor& p : net.parameters()) {
      EXPECT_EQ(p.grad().device(), device);
      p.set_data(p.sub(p.grad(), 0.1));
    }
  }
  std::vector<Tensor> out;
  for (const Tensor& p : net.parameters()) out.push_back(p.detach());
  return out;
}

}  // namespace

TEST(NnDevice, CudaMovesParametersInPlaceSoEveryHandleSeesTheDevice) {
  TIDE_REQUIRE_DEVICES(1);
  nn::Sequential net = mlp(1);
  const Tensor weight = net.at<nn::Linear>(1).weight;  // a handle taken before the move
  const std::vector<Tensor> params = net.parameters();  // as an optimizer holds them
  const std::vector<float> before = weight.tolist<float>();
  nn::Module& returned = net.cuda();
  EXPECT_EQ(&returned, static_cast<nn::Module*>(&net));
  EXPECT_EQ(weight.device(), cuda_device(0));
  EXPECT_TRUE(net.at<nn::Linear>(1).weight.is_same(weight));
  for (size_t i = 0; i < params.size(); ++i) {
    EXPECT_EQ(params[i].device(), cuda_device(0));
    EXPECT_TRUE(params[i].is_same(net.parameters()[i]));
    EXPECT_TRUE(params[i].is_leaf());
    EXPECT_TRUE(params[i].requires_grad());
  }
  EXPECT_EQ(weight.cpu().tolist<float>(), before);
  net.cpu();
  EXPECT_TRUE(weight.is_cpu());
  EXPECT_EQ(weight.tolist<float>(), before);
}

TEST(NnDevice, ToAStringMovesToThatDeviceAndGradientsFollow) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard current(0);
  nn::Linear fc(3, 2);
  fc(ones({4, 3})).sum().backward();
  const Tensor grad = fc.weight.grad();
  const std::vector<float> grad_values = grad.tolist<float>();
  fc.to("cuda:1");  // the seeds' .to('cuda:0'), for modules
  EXPECT_EQ(fc.weight.device(), cuda_device(1));
  EXPECT_EQ(fc.bias.device(), cuda_device(1));
  EXPECT_EQ(fc.weight.grad().device(), cuda_device(1));
  EXPECT_TRUE(fc.weight.grad().is_same(grad));
  EXPECT_EQ(grad.cpu().tolist<float>(), grad_values);
  // Gradients computed after the move accumulate on the new device.
  fc(ones({4, 3}, device("cuda:1"))).sum().backward();
  EXPECT_EQ(fc.weight.grad().device(), cuda_device(1));
  std::vector<float> doubled = grad_values;
  for (float& v : doubled) v *= 2;
  EXPECT_EQ(fc.weight.grad().cpu().tolist<float>(), doubled);
  fc.cuda(0);
  EXPECT_EQ(fc.weight.device(), cuda_device(0));
  fc.cuda(Device("cuda:1"));
  EXPECT_EQ(fc.weight.device(), cuda_device(1));
  fc.to(Device("cuda:0"), kFloat64);
  EXPECT_EQ(fc.weight.device(), cuda_device(0));
  EXPECT_EQ(fc.weight.dtype(), kFloat64);
}

TEST(NnDevice, CudaWithoutAnIndexMeansTheCurrentDevice) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard current(1);
  nn::Linear fc(2, 2);
  fc.cuda();
  EXPECT_EQ(fc.weight.device(), cuda_device(1));
}

TEST(NnDevice, BuffersMoveWithTheModule) {
  TIDE_REQUIRE_DEVICES(1);
  struct WithBuffer : nn::Cloneable<WithBuffer> {
    WithBuffer() { reset(); }
    void reset() override { count = register_buffer("count", tensor({3}, dtype(kInt64))); }
    Tensor count;
  };
  nn::Sequential net(std::make_shared<WithBuffer>(), nn::Linear(2, 2));
  const Tensor count = net.at<WithBuffer>(0).count;
  net.cuda();
  EXPECT_EQ(count.device(), cuda_device(0));
  EXPECT_EQ(count.dtype(), kInt64);
  EXPECT_EQ(net.buffers()[0].device(), cuda_device(0));
  EXPECT_EQ(count.cpu().item<int64_t>(), 3);
  net.to(kFloat16);  // integer buffers keep their dtype
  EXPECT_EQ(count.dtype(), kInt64);
  EXPECT_EQ(net.at<nn::Linear>(1).weight.dtype(), kFloat16);
}

TEST(NnDevice, CriterionCudaMovesTheClassWeightsButNotTheCallersTensor) {
  TIDE_REQUIRE_DEVICES(1);
  const Tensor weight = tensor({1.0, 2.0, 0.5});
  nn::CrossEntropyLoss criterion(weight);
  criterion.cuda();  // the seeds: criterion.cuda()
  EXPECT_EQ(criterion.weight.device(), cuda_device(0));
  EXPECT_EQ(criterion.buffers()[0].device(), cuda_device(0));
  EXPECT_TRUE(weight.is_cpu());  // as torch: the module's buffer moved, the caller's did not
  const Tensor logits = tensor({{1.0, 2.0, 0.5}, {0.1, 0.2, 3.0}});
  const Tensor target = tensor({1, 2});
  const Tensor loss = criterion(logits.cuda(), target.cuda());
  EXPECT_EQ(loss.device(), cuda_device(0));
  EXPECT_TRUE(matches_cpu(cross_entropy(logits, target, weight), loss));
  // A cpu criterion and cuda inputs: the ops' cross-device error.
  nn::CrossEntropyLoss on_cpu(weight);
  EXPECT_THAT(test::error_of([&] { on_cpu(logits.cuda(), target.cuda()); }),
              ::testing::HasSubstr("Expected all tensors to be on the same device"));
}

TEST(NnDevice, ForwardOnTheDeviceMatchesTheCpu) {
  TIDE_REQUIRE_DEVICES(2);
  nn::Sequential net = mlp(2);
  net.eval();
  manual_seed(6);
  const Tensor x = randn({5, 2, 3});
  const Tensor expected = net(x);
  net.to("cuda:1");
  const Tensor actual = net(x.to("cuda:1"));
  EXPECT_EQ(actual.device(), cuda_device(1));
  EXPECT_TRUE(matches_cpu(expected, actual));
}

TEST(NnDevice, LoadStateDictCopiesAcrossDevices) {
  TIDE_REQUIRE_DEVICES(2);
  nn::Sequential on_cpu = mlp(7);
  nn::Sequential on_gpu = mlp(8);
  on_gpu.to("cuda:1");
  const Tensor gpu_weight = on_gpu.at<nn::Linear>(1).weight;
  on_gpu.load_state_dict(on_cpu.state_dict());
  EXPECT_TRUE(on_gpu.at<nn::Linear>(1).weight.is_same(gpu_weight));
  EXPECT_EQ(gpu_weight.device(), cuda_device(1));
  for (const auto& [key, t] : on_cpu.state_dict()) {
    EXPECT_TRUE(test::same_bits(t, on_gpu.state_dict().at(key))) << key;
  }
  // And back: a cuda checkpoint into a cpu module.
  nn::Sequential back = mlp(9);
  back.load_state_dict(on_gpu.state_dict());
  EXPECT_TRUE(back.at<nn::Linear>(4).weight.is_cpu());
  EXPECT_TRUE(test::same_bits(on_cpu.at<nn::Linear>(4).weight, back.at<nn::Linear>(4).weight));
}

TEST(NnDevice, CloneOntoADeviceLeavesTheOriginalWhereItIs) {
  TIDE_REQUIRE_DEVICES(2);
  nn::Sequential net = mlp(10);
  const auto replica = std::static_pointer_cast<nn::Sequential>(net.clone(Device("cuda:1")));
  for (const Tensor& p : net.parameters()) EXPECT_TRUE(p.is_cpu());
  const auto ours = net.parameters(), theirs = replica->parameters();
  ASSERT_EQ(ours.size(), theirs.size());
  for (size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(theirs[i].device(), cuda_device(1));
    EXPECT_TRUE(theirs[i].requires_grad());
    EXPECT_TRUE(test::same_bits(ours[i], theirs[i]));
  }
  // A replica of a replica, onto another device; and one without a device stays put.
  const auto second = replica->clone(Device("cuda:0"));
  EXPECT_EQ(second->parameters()[0].device(), cuda_device(0));
  EXPECT_EQ(replica->clone()->parameters()[0].device(), cuda_device(1));
}

TEST(NnDevice, SgdByHandGivesTheCpusParameters) {
  TIDE_REQUIRE_DEVICES(2);
  const std::vector<Tensor> expected = train_on(Device(kCPU), 5, true);
  for (int index = 0; index < 2; ++index) {
    for (bool set_to_none : {true, false}) {
      const std::vector<Tensor> actual = train_on(cuda_device(index), 5, set_to_none);
      ASSERT_EQ(actual.size(), expected.size());
      for (size_t i = 0; i < actual.size(); ++i) {
        EXPECT_EQ(actual[i].device(), cuda_device(index));
        EXPECT_TRUE(matches_cpu(expected[i], actual[i]))
            << "parameter " << i << " on cuda:" << index << " set_to_none " << set_to_none;
      }
    }
  }
}

TEST(NnDevice, ZeroGradOnTheDeviceBothWays) {
  TIDE_REQUIRE_DEVICES(1);
  nn::Linear fc(3, 2);
  fc.cuda();
  fc(ones({2, 3}, device("cuda:0"))).sum().backward();
  const Tensor grad = fc.weight.grad();
  fc.zero_grad(/*set_to_none=*/false);
  EXPECT_TRUE(fc.weight.grad().is_same(grad));
  EXPECT_EQ(grad.device(), cuda_device(0));
  EXPECT_EQ(grad.cpu().tolist<float>(), std::vector<float>(6, 0.0f));
  fc.zero_grad();
  EXPECT_FALSE(fc.weight.grad().defined());
}

// Note [Tasks capture geometry, not TensorImpls] in src/ops/dispatch.h: an op still queued
// when set_data swaps its operand's storage computes from the storage it was called with.
TEST(NnDevice, SetDataRightAfterAnOpThatReadsTheTensorIsSafe) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const Tensor p0 = tensor({1.0, 2.0, 3.0}), g0 = tensor({10.0, 20.0, 30.0});
  Tensor p = p0.to(Device("cuda:0")).requires_grad_();
  const Tensor g = g0.to(Device("cuda:0"));
  Tensor q = p0.to(Device("cuda:1"));
  {
    tide::testing::StreamHold hold(cuda::current_stream(0));
    tide::testing::StreamHold hold1(cuda::current_stream(1));
    NoGradGuard no_grad;
    p.set_data(p.sub(g, 0.1));  // the sub is still queued when p takes its result
    q.set_data(q.to(Device("cuda:0")));  // a copy still queued when q moves
    hold1.release();
    hold.release();
  }
  EXPECT_TRUE(matches_cpu(p0.sub(g0, 0.1), p.detach()));
  EXPECT_TRUE(matches_cpu(p0, q));
}

/// The parameters after `steps` of optim::SGD with momentum, the optimizer built on the cpu
/// module BEFORE it moves to `device` (the seeds' order: model, optimizer, model.cuda()).
std::vector<Tensor> sgd_momentum_on(Device device, int steps) {
  nn::Sequential net = mlp(12);
  net.eval();  // no dropout: the cpu and each device draw from their own generators
  optim::SGD optimizer(net.parameters(), optim::SGDOptions(0.05).momentum(0.9));
  nn::CrossEntropyLoss criterion;
  manual_seed(13);
  const Tensor x = randn({10, 2, 3}).to(device);
  const Tensor y = tensor({0, 1, 2, 0, 1, 2, 0, 1, 2, 2}).to(device);
  net.to(device);
  for (int i = 0; i < steps; ++i) {
    optimizer.zero_grad();
    criterion(net(x), y).backward();
    optimizer.step();
  }
  for (const Tensor& p : optimizer.parameters()) EXPECT_EQ(p.device(), device);
  std::vector<Tensor> out;
  for (const Tensor& p : net.parameters()) out.push_back(p.detach());
  return out;
}

TEST(NnDevice, AnOptimizerBuiltBeforeCudaUpdatesTheMovedParameters) {
  TIDE_REQUIRE_DEVICES(1);
  const std::vector<Tensor> expected = sgd_momentum_on(Device(kCPU), 4);
  const std::vector<Tensor> actual = sgd_momentum_on(cuda_device(0), 4);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_EQ(actual[i].device(), cuda_device(0));
    EXPECT_TRUE(matches_cpu(expected[i], actual[i])) << "parameter " << i;
  }
}

TEST(NnDevice, ModulesBuiltUnderADefaultDeviceLiveThereWithTheCpusInitialValues) {
  TIDE_REQUIRE_DEVICES(2);
  manual_seed(14);
  nn::Linear on_cpu(5, 4);
  nn::Linear on_gpu = [] {
    test::DefaultDeviceGuard cuda1(Device("cuda:1"));  // set_default_tensor_type('torch.cuda...')
    manual_seed(14);
    return nn::Linear(5, 4);
  }();
  EXPECT_EQ(on_gpu.weight.device(), cuda_device(1));
  EXPECT_EQ(on_gpu.bias.device(), cuda_device(1));
  // Philox: the same draws on every device (Note [Philox offsets]).
  EXPECT_TRUE(test::same_bits(on_cpu.weight, on_gpu.weight));
  EXPECT_TRUE(test::same_bits(on_cpu.bias, on_gpu.bias));
  test::DefaultDtypeGuard doubles(kFloat64);
  EXPECT_EQ(nn::Linear(2, 2).weight.dtype(), kFloat64);
}

// Note [BatchNorm buffers] in tide/nn/batch_norm.h: the running statistics move with cuda()
// in place, are updated on the device in training, and eval uses them there.
TEST(NnDevice, ACnnWithBatchNormTrainsOnTheDeviceAsOnTheCpuAndItsBuffersFollow) {
  TIDE_REQUIRE_DEVICES(1);
  // cuDNN in true float32 on real GPUs, so that test::matches_cpu's float32 tolerance holds.
  test::CudnnSwitchesGuard exact(false, false, /*allow_tf32=*/false);
  const auto cnn = [] {
    manual_seed(21);
    return nn::Sequential(nn::Conv2d(2, 4, 3, 1, 1), nn::BatchNorm2d(4), nn::ReLU(),
                          nn::MaxPool2d(2), nn::Conv2d(4, 4, 3, 1, "same"), nn::AvgPool2d(2),
                          nn::AdaptiveAvgPool2d(1), nn::Flatten(), nn::Linear(4, 3));
  };
  manual_seed(22);
  const Tensor x = randn({6, 2, 8, 8});
  const Tensor y = tensor({0, 1, 2, 0, 1, 2});
  const auto train = [&](nn::Sequential& net, Device device) {
    optim::SGD sgd(net.parameters(), optim::SGDOptions(0.05).momentum(0.9));
    Tensor eval_out;
    for (int step = 0; step < 3; ++step) {
      sgd.zero_grad();
      cross_entropy(net(x.to(device)), y.to(device)).backward();
      sgd.step();
    }
    net.eval();
    eval_out = net(x.to(device));
    net.train();
    return eval_out;
  };
  nn::Sequential on_cpu = cnn();
  const Tensor expected = train(on_cpu, kCPU);
  nn::Sequential on_gpu = cnn();
  auto& bn = static_cast<nn::BatchNorm2d&>(on_gpu[1]);
  const Tensor running_mean = bn.running_mean;  // a handle taken before the move
  on_gpu.cuda();
  EXPECT_EQ(running_mean.device(), cuda_device(0));
  EXPECT_EQ(bn.num_batches_tracked.device(), cuda_device(0));
  EXPECT_EQ(bn.num_batches_tracked.dtype(), kInt64);
  const Tensor got = train(on_gpu, cuda_device(0));
  EXPECT_EQ(got.device(), cuda_device(0));
  EXPECT_TRUE(matches_cpu(expected, got));
  const auto& cpu_bn = static_cast<nn::BatchNorm2d&>(on_cpu[1]);
  EXPECT_TRUE(matches_cpu(cpu_bn.running_mean, bn.running_mean));
  EXPECT_TRUE(matches_cpu(cpu_bn.running_var, bn.running_var));
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>(), 3);
  on_gpu.cpu();
  EXPECT_TRUE(running_mean.is_cpu());
}
