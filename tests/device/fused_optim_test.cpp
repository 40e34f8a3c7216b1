// The fused optimizer steps on every cuda device: libtorch's and torch's trajectories (the
// goldens of tests/optim/trajectory_vs_libtorch_test.cpp and trajectory_vs_torch_test.cpp)
// give the cpu's parameters after every step
// (test::matches_cpu: bit for bit on simulated GPUs); a step is one launch on the parameter's
// device's current stream, whatever device is current, and returns before it runs; gradient
// and state must live on the parameter's device; a step that runs out of memory changes
// nothing (Note [Optimizer steps are all or nothing] in tide/optim/optimizer.h).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device_helpers.h"
#include "support/error_of.h"
#include "support/optim_trajectory.h"
#include "support/sim_streams.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/optim.h"
#include "tide/random.h"

using namespace tide;
using ::testing::HasSubstr;
using optim::AdagradOptions;
using optim::AdamOptions;
using optim::AdamWOptions;
using optim::RMSpropOptions;
using optim::SGDOptions;
using optim::detail::adagrad_step_;
using optim::detail::adam_step_;
using optim::detail::adamw_step_;
using optim::detail::rmsprop_step_;
using optim::detail::sgd_step_;
using test::cuda_device;
using test::error_of;
using test::other_device;

namespace {

/// Every golden's trajectory on every cuda device equals the cpu's, step by step.
void expect_trajectories_match_the_cpus(const std::vector<test::Golden>& goldens) {
  for (const test::Golden& golden : goldens) {
    SCOPED_TRACE(golden.name);
    const std::vector<Tensor> expected = test::run_trajectory(golden, Device(kCPU));
    for (int d = 0; d < cuda::device_count(); ++d) {
      SCOPED_TRACE("on cuda:" + std::to_string(d));
      // Another device current and a side stream current on the parameter's device: the whole
      // run (copies, gradient, steps) is ordered on that stream.
      cuda::DeviceGuard other(other_device(d));
      cuda::set_stream(cuda::Stream(d));
      const std::vector<Tensor> got = test::run_trajectory(golden, cuda_device(d));
      ASSERT_EQ(got.size(), expected.size());
      for (size_t step = 0; step < got.size(); ++step) {
        EXPECT_EQ(got[step].device(), cuda_device(d));
        EXPECT_TRUE(test::matches_cpu(expected[step], got[step])) << "after step " << step + 1;
      }
      cuda::set_stream(cuda::default_stream(d));
    }
  }
}

}  // namespace

TEST(FusedOptim, LibtorchTrajectoriesOnEveryDeviceMatchTheCpusStepByStep) {
  TIDE_REQUIRE_DEVICES(1);
  const std::vector<test::Golden> goldens = test::load_goldens("optim_goldens.json");
  ASSERT_GE(goldens.size(), 22u);
  expect_trajectories_match_the_cpus(goldens);
}

TEST(FusedOptim, TorchTrajectoriesOfAdamWRmspropAndAdagradOnEveryDeviceMatchTheCpus) {
  TIDE_REQUIRE_DEVICES(1);
  std::vector<test::Golden> goldens;
  for (test::Golden& g : test::load_goldens("optim_torch_goldens.json")) {
    if (g.spec.at("kind") == "optimizer") goldens.push_back(std::move(g));
  }
  ASSERT_GE(goldens.size(), 28u);
  expect_trajectories_match_the_cpus(goldens);
}

TEST(FusedOptim, StateLoadedOntoADeviceParameterMovesThereAndStepsAsOnTheCpu) {
  TIDE_REQUIRE_DEVICES(1);
  const Device dev = cuda_device(cuda::device_count() - 1);
  Tensor w = arange(1, 7).to(kFloat32).requires_grad_();
  optim::RMSprop cpu_opt({w}, RMSpropOptions(0.1).momentum(0.5));
  w.mutable_grad() = ones({6});
  cpu_opt.step();
  Tensor v = w.detach().to(dev).requires_grad_();
  optim::RMSprop dev_opt({v}, RMSpropOptions(0.1).momentum(0.5));
  dev_opt.load_param_state(0, cpu_opt.param_state(0));  // cpu tensors
  for (const auto& [name, t] : dev_opt.param_state(0)) {
    if (name != "step") {
      EXPECT_EQ(t.device(), dev) << name;
    }
  }
  EXPECT_EQ(dev_opt.param_state(0).front().second.device(), Device(kCPU)) << "step stays, as torch's";
  cpu_opt.step();
  v.mutable_grad() = ones({6}, TensorOptions(dev));
  dev_opt.step();
  EXPECT_TRUE(test::matches_cpu(w.detach(), v.detach()));
}

TEST(FusedOptim, SixteenBitStepsOnEveryDeviceMatchTheCpus) {
  TIDE_REQUIRE_DEVICES(1);
  manual_seed(21);
  for (Dtype dtype : {kFloat16, kBFloat16}) {
    SCOPED_TRACE(name(dtype));
    const Tensor p0 = randn({1000}).to(dtype), g = randn({1000}).to(dtype);
    const Tensor s0 = randn({1000}).abs().to(dtype);
    Tensor p = p0.clone(), buf = s0.clone(), m = s0.clone(), v = s0.clone(), vm = s0.clone();
    sgd_step_(p, g, buf, SGDOptions(0.1).momentum(0.9).nesterov(true), false);
    adam_step_(p, g, m, v, vm, 2, AdamOptions(0.01).amsgrad(true).weight_decay(0.1));
    adamw_step_(p, g, m, v, vm, 3, AdamWOptions(0.01).amsgrad(true).weight_decay(0.1));
    rmsprop_step_(p, g, v, m, buf, RMSpropOptions(0.01).momentum(0.5));
    adagrad_step_(p, g, vm, 2, AdagradOptions(0.1).lr_decay(0.1).weight_decay(0.1));
    for (int d = 0; d < cuda::device_count(); ++d) {
      SCOPED_TRACE("on cuda:" + std::to_string(d));
      const Device dev = cuda_device(d);
      Tensor dp = p0.to(dev), dbuf = s0.to(dev), dm = s0.to(dev), dv = s0.to(dev),
             dvm = s0.to(dev);
      const Tensor dg = g.to(dev);
      sgd_step_(dp, dg, dbuf, SGDOptions(0.1).momentum(0.9).nesterov(true), false);
      adam_step_(dp, dg, dm, dv, dvm, 2, AdamOptions(0.01).amsgrad(true).weight_decay(0.1));
      adamw_step_(dp, dg, dm, dv, dvm, 3, AdamWOptions(0.01).amsgrad(true).weight_decay(0.1));
      rmsprop_step_(dp, dg, dv, dm, dbuf, RMSpropOptions(0.01).momentum(0.5));
      adagrad_step_(dp, dg, dvm, 2, AdagradOptions(0.1).lr_decay(0.1).weight_decay(0.1));
      EXPECT_TRUE(test::matches_cpu(p, dp));
      EXPECT_TRUE(test::matches_cpu(buf, dbuf));
      EXPECT_TRUE(test::matches_cpu(m, dm));
      EXPECT_TRUE(test::matches_cpu(v, dv));
      EXPECT_TRUE(test::matches_cpu(vm, dvm));
    }
  }
}

TEST(FusedOptim, AStepIsOneLaunchOnTheParametersCurrentStreamAndReturnsBeforeItRuns) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  manual_seed(8);
  const int d = cuda::device_count() - 1;
  const Device dev = cuda_device(d);
  const Tensor p0 = randn({64, 33}), g0 = randn({64, 33});
  Tensor p = p0.to(dev), g = g0.to(dev), buf = zeros({64, 33}, TensorOptions(dev));
  Tensor m = zeros_like(p), v = zeros_like(p), vm = zeros_like(p);
  cuda::synchronize(d);

  cuda::DeviceGuard other(other_device(d));
  const cuda::Stream side(d);
  cuda::set_stream(side);
  const uint64_t default_before = test::sim_last_enqueued(cuda::default_stream(d));
  {
    tide::testing::StreamHold hold(side);
    test::MustNotWaitFor guard(side);
    uint64_t before = test::sim_last_enqueued(side);
    sgd_step_(p, g, buf, SGDOptions(0.1).momentum(0.9), true);
    EXPECT_EQ(test::sim_last_enqueued(side), before + 1) << "SGD: one launch, on the side stream";
    before = test::sim_last_enqueued(side);
    adam_step_(p, g, m, v, vm, 1, AdamOptions(0.1).amsgrad(true));
    EXPECT_EQ(test::sim_last_enqueued(side), before + 1) << "Adam: one launch, on the side stream";
    before = test::sim_last_enqueued(side);
    adamw_step_(p, g, m, v, vm, 2, AdamWOptions(0.1).amsgrad(true));
    EXPECT_EQ(test::sim_last_enqueued(side), before + 1) << "AdamW: one launch, on the side stream";
    before = test::sim_last_enqueued(side);
    rmsprop_step_(p, g, v, m, buf, RMSpropOptions(0.1).momentum(0.9));
    EXPECT_EQ(test::sim_last_enqueued(side), before + 1) << "RMSprop: one launch, on the side stream";
    before = test::sim_last_enqueued(side);
    adagrad_step_(p, g, vm, 1, AdagradOptions(0.1));
    EXPECT_EQ(test::sim_last_enqueued(side), before + 1) << "Adagrad: one launch, on the side stream";
    EXPECT_FALSE(side.query()) << "the steps wait behind the held stream";
    EXPECT_TRUE(guard.done()) << "a step must not wait for its stream";
  }
  EXPECT_EQ(test::sim_last_enqueued(cuda::default_stream(d)), default_before);

  Tensor cp = p0.clone(), cbuf = zeros({64, 33}), cm = zeros_like(cp), cv = zeros_like(cp),
         cvm = zeros_like(cp);
  sgd_step_(cp, g0, cbuf, SGDOptions(0.1).momentum(0.9), true);
  adam_step_(cp, g0, cm, cv, cvm, 1, AdamOptions(0.1).amsgrad(true));
  adamw_step_(cp, g0, cm, cv, cvm, 2, AdamWOptions(0.1).amsgrad(true));
  rmsprop_step_(cp, g0, cv, cm, cbuf, RMSpropOptions(0.1).momentum(0.9));
  adagrad_step_(cp, g0, cvm, 1, AdagradOptions(0.1));
  EXPECT_TRUE(test::matches_cpu(cp, p));  // read back on the side stream, where it ran
  EXPECT_TRUE(test::matches_cpu(cbuf, buf));
  cuda::set_stream(cuda::default_stream(d));
}

TEST(FusedOptim, RejectsAGradientOrStateOnAnotherDeviceNamingBoth) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor p = zeros({4}, TensorOptions(cuda_device(0))), buf = zeros({4}, TensorOptions(cuda_device(0)));
  Tensor m = zeros_like(p), v = zeros_like(p), none;
  EXPECT_THAT(error_of([&] { sgd_step_(p, zeros({4}), buf, SGDOptions(0.1).momentum(0.9), false); }),
              HasSubstr("[optim::SGD::step] expected grad on the parameter's device cuda:0, "
                        "found it on cpu"));
  Tensor cpu_state = zeros({4});
  EXPECT_THAT(error_of([&] { adam_step_(p, zeros_like(p), cpu_state, v, none, 1, AdamOptions()); }),
              HasSubstr("[optim::Adam::step] expected exp_avg on the parameter's device cuda:0, "
                        "found it on cpu"));
  if (cuda::device_count() < 2) return;
  Tensor far = zeros({4}, TensorOptions(Device(kCUDA, 1)));
  EXPECT_THAT(error_of([&] { sgd_step_(p, zeros_like(p), far, SGDOptions(0.1).momentum(0.9), false); }),
              HasSubstr("expected momentum_buffer on the parameter's device cuda:0, found it on cuda:1"));
}

namespace {

/// Three parameters on cuda:0 with gradients, one of them strided (read through a contiguous
/// copy): the same values for every call.
std::vector<Tensor> parameters_with_grads() {
  manual_seed(5);
  const Device d = cuda_device(0);
  std::vector<Tensor> params{randn({3, 4}).to(d), randn({5}).to(d), randn({4, 3}).to(d)};
  for (Tensor& p : params) p.requires_grad_();
  params[0].mutable_grad() = randn({3, 4}).to(d);
  params[1].mutable_grad() = randn({5}).to(d);
  params[2].mutable_grad() = randn({3, 4}).to(d).t();  // strided
  return params;
}

std::vector<Tensor> values(const std::vector<Tensor>& params) {
  std::vector<Tensor> out;
  for (const Tensor& p : params) out.push_back(p.detach().cpu());
  return out;
}

/// For every allocation k of an optimizer's first step: with the k-th failing, step() raises
/// OutOfMemoryError and leaves every parameter as it was; the next step() then gives a clean
/// first step's values, and a second step a clean second step's (the state was not touched).
void expect_all_or_nothing(const std::function<std::unique_ptr<optim::Optimizer>(std::vector<Tensor>)>& make) {
  std::vector<std::vector<Tensor>> expected;
  int64_t allocations = 0;
  {
    const std::vector<Tensor> params = parameters_with_grads();
    const auto opt = make(params);
    cuda::synchronize(0);
    const int64_t before = cuda::memory_stats(0).at("allocation.all.allocated");
    opt->step();
    allocations = cuda::memory_stats(0).at("allocation.all.allocated") - before;
    expected.push_back(values(params));
    opt->step();
    expected.push_back(values(params));
  }
  ASSERT_GT(allocations, 0) << "a first step makes its state";
  for (int64_t k = 1; k <= allocations; ++k) {
    SCOPED_TRACE("allocation " + std::to_string(k) + " of " + std::to_string(allocations) + " fails");
    const std::vector<Tensor> params = parameters_with_grads();
    const std::vector<Tensor> initial = values(params);
    const auto opt = make(params);
    cuda::inject_oom_at(k, 0);
    EXPECT_THROW(opt->step(), OutOfMemoryError);
    cuda::inject_oom_at(0, 0);
    const std::vector<Tensor> after_failure = values(params);
    for (size_t i = 0; i < params.size(); ++i) {
      EXPECT_TRUE(test::same_bits(initial[i], after_failure[i])) << "parameter " << i << " changed";
    }
    opt->step();
    for (size_t i = 0; i < params.size(); ++i) {
      EXPECT_TRUE(test::same_bits(expected[0][i], params[i])) << "first step, parameter " << i;
    }
    opt->step();
    for (size_t i = 0; i < params.size(); ++i) {
      EXPECT_TRUE(test::same_bits(expected[1][i], params[i])) << "second step, parameter " << i;
    }
  }
}

}  // namespace

TEST(FusedOptim, AnSgdStepThatRunsOutOfMemoryChangesNothingAndCanBeRetried) {
  TIDE_REQUIRE_DEVICES(1);
  expect_all_or_nothing([](std::vector<Tensor> params) {
    return std::make_unique<optim::SGD>(std::move(params), SGDOptions(0.1).momentum(0.9));
  });
}

TEST(FusedOptim, AnAdamStepThatRunsOutOfMemoryChangesNothingAndCanBeRetried) {
  TIDE_REQUIRE_DEVICES(1);
  expect_all_or_nothing([](std::vector<Tensor> params) {
    return std::make_unique<optim::Adam>(std::move(params), AdamOptions(0.1).amsgrad(true));
  });
}

TEST(FusedOptim, AnAdamWStepThatRunsOutOfMemoryChangesNothingAndCanBeRetried) {
  TIDE_REQUIRE_DEVICES(1);
  expect_all_or_nothing([](std::vector<Tensor> params) {
    return std::make_unique<optim::AdamW>(std::move(params), AdamWOptions(0.1).amsgrad(true));
  });
}

TEST(FusedOptim, AnRmspropStepThatRunsOutOfMemoryChangesNothingAndCanBeRetried) {
  TIDE_REQUIRE_DEVICES(1);
  expect_all_or_nothing([](std::vector<Tensor> params) {
    return std::make_unique<optim::RMSprop>(std::move(params),
                                            RMSpropOptions(0.1).momentum(0.9).centered(true));
  });
}

TEST(FusedOptim, AnAdagradStepThatRunsOutOfMemoryChangesNothingAndCanBeRetried) {
  TIDE_REQUIRE_DEVICES(1);
  expect_all_or_nothing([](std::vector<Tensor> params) {
    return std::make_unique<optim::Adagrad>(std::move(params), AdagradOptions(0.1).lr_decay(0.1));
  });
}
