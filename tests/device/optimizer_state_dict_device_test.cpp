// Optimizer::state_dict / load_state_dict on every cuda device (Note [Optimizer state_dict] and
// Note [Param groups] in tide/optim/optimizer.h), for SGD, Adam, AdamW, RMSprop and Adagrad
// with two param groups of different options: a run saved with torch_save after some steps
// and loaded into a fresh optimizer over fresh parameters resumes exactly where the
// uninterrupted run goes (bit for bit on one device); the loaded state lives on its
// parameter's device and in its dtype, wherever it was saved from (torch's load_state_dict
// casts it), "step" excepted, which stays a cpu tensor as torch's. The cpu-only cases are
// tests/optim/optimizer_state_dict_test.cpp.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device_helpers.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/optim.h"
#include "tide/torch_format.h"

using namespace tide;
using optim::AdagradOptions;
using optim::AdamOptions;
using optim::AdamWOptions;
using optim::RMSpropOptions;
using optim::SGDOptions;
using test::cuda_device;
using test::other_device;

namespace {

/// An optimizer of one kind over two param groups: `first` and `second`.
struct Case {
  std::string name;
  std::function<std::unique_ptr<optim::Optimizer>(std::vector<Tensor> first,
                                                  std::vector<Tensor> second)>
      make;
};

template <class Opt, class Options>
Case grouped(std::string name, Options first, Options second) {
  return {std::move(name), [=](std::vector<Tensor> a, std::vector<Tensor> b) {
            auto opt = std::make_unique<Opt>(std::move(a), first);
            opt->add_param_group(std::move(b), second);
            return std::unique_ptr<optim::Optimizer>(std::move(opt));
          }};
}

/// Every optimizer, its second group's options unlike its first's in every way that changes
/// the state (amsgrad, nesterov, centering, the initial accumulator) or the update.
std::vector<Case> every_optimizer() {
  return {
      grouped<optim::SGD>("SGD", SGDOptions(0.1).momentum(0.9),
                          SGDOptions(0.03).momentum(0.5).nesterov(true).weight_decay(0.01)),
      grouped<optim::Adam>("Adam", AdamOptions(0.05).betas({0.8, 0.99}),
                           AdamOptions(0.01).amsgrad(true).weight_decay(0.1)),
      grouped<optim::AdamW>("AdamW", AdamWOptions(0.05),
                            AdamWOptions(0.02).weight_decay(0.1).amsgrad(true)),
      grouped<optim::RMSprop>("RMSprop", RMSpropOptions(0.01).momentum(0.3),
                              RMSpropOptions(0.005).centered(true).alpha(0.9)),
      grouped<optim::Adagrad>("Adagrad", AdagradOptions(0.1).lr_decay(0.01),
                              AdagradOptions(0.05).initial_accumulator_value(0.5).weight_decay(0.1)),
  };
}

/// Four parameters on `device`: group 0 a (2, 3) and a (2,), group 1 a (5,) and a (1, 4).
std::vector<Tensor> four_params(Device device) {
  const TensorOptions f32 = TensorOptions().dtype(kFloat32);
  std::vector<Tensor> out{arange(6, f32).reshape({2, 3}) / 4 - 0.5, tensor({0.25f, -1.5f}),
                          arange(5, f32) / 3 - 0.75, arange(4, f32).reshape({1, 4}) / -5 + 0.1};
  for (Tensor& p : out) p = p.to(device).requires_grad_();
  return out;
}

/// Copies of `params` on `device` in `dtype`: the fresh parameters a resumed run starts from.
std::vector<Tensor> copies_on(const std::vector<Tensor>& params, Device device,
                              Dtype dtype = kFloat32) {
  std::vector<Tensor> out;
  for (const Tensor& p : params) {
    out.push_back(p.detach().to(device, dtype, false, /*copy=*/true).requires_grad_());
  }
  return out;
}

std::unique_ptr<optim::Optimizer> make_over(const Case& c, const std::vector<Tensor>& p) {
  return c.make({p[0], p[1]}, {p[2], p[3]});
}

/// One step with the gradient of sum(w * w * k) for each parameter.
void step_once(optim::Optimizer& opt, std::vector<Tensor>& params, float k) {
  opt.zero_grad();
  for (Tensor& w : params) (w * w * k).sum().backward();
  opt.step();
}

// A path of its own per test and process: ctest runs this binary in several configurations.
std::string temp_path(const std::string& stem) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = ::testing::TempDir() + "tide_optim_state_dict_" +
                          std::to_string(getpid()) + "_" + info->name();
  std::filesystem::create_directories(dir);
  return dir + "/" + stem + ".pt";
}

/// Whether `actual` (run on `actual_device`) agrees with `expected` (run on `expected_device`):
/// the same bits when both ran on one device (the same launches in the same order), else
/// test::matches_cpu with the cpu's as the expected values (the same bits on simulated GPUs).
::testing::AssertionResult agree(const Tensor& expected, Device expected_device,
                                 const Tensor& actual, Device actual_device) {
  if (expected_device == actual_device) return test::same_bits(expected, actual);
  return actual_device.is_cpu() ? test::matches_cpu(actual, expected)
                                : test::matches_cpu(expected, actual);
}

/// Every state tensor of `opt` is on its parameter's device `device`, in `dtype`; "step" is a
/// 0-dim float32 cpu tensor (torch keeps it there: load_state_dict does not move it).
void expect_state_on(const optim::Optimizer& opt, Device device, Dtype dtype = kFloat32) {
  for (size_t i = 0; i < opt.parameters().size(); ++i) {
    const optim::ParamState state = opt.param_state(i);
    EXPECT_FALSE(state.empty()) << "parameter " << i << " has state after the load";
    for (const auto& [name, t] : state) {
      SCOPED_TRACE("parameter " + std::to_string(i) + "'s " + name);
      ASSERT_TRUE(t.defined());
      if (name == "step") {
        EXPECT_EQ(t.device(), Device(kCPU));
        EXPECT_EQ(t.dtype(), kFloat32);
        EXPECT_EQ(t.dim(), 0);
      } else {
        EXPECT_EQ(t.device(), device);
        EXPECT_EQ(t.dtype(), dtype);
      }
    }
  }
}

/// Trains `c` on `from` for three steps, saves its state_dict with torch_save and loads it
/// (tensors where they were saved, as torch.load without map_location) into a fresh optimizer
/// over copies of the parameters on `to`; then both runs take two more steps, which must
/// agree, parameters and state.
void expect_resumes(const Case& c, Device from, Device to) {
  SCOPED_TRACE(c.name + " saved on " + from.str() + ", resumed on " + to.str());
  std::vector<Tensor> params = four_params(from);
  const std::unique_ptr<optim::Optimizer> original = make_over(c, params);
  for (int i = 0; i < 3; ++i) step_once(*original, params, 1.0f + static_cast<float>(i));
  const std::string path = temp_path(c.name + "_" + from.str() + "_" + to.str());
  torch_save(original->state_dict(), path);

  std::vector<Tensor> again = copies_on(params, to);
  const std::unique_ptr<optim::Optimizer> resumed = make_over(c, again);
  const IValue loaded = torch_load(path);
  ASSERT_EQ(loaded.at("param_groups").to_list().size(), 2u);
  resumed->load_state_dict(loaded);
  expect_state_on(*resumed, to);

  for (float k : {0.5f, 2.0f}) {
    step_once(*original, params, k);
    step_once(*resumed, again, k);
  }
  for (size_t i = 0; i < params.size(); ++i) {
    EXPECT_EQ(again[i].device(), to);
    EXPECT_TRUE(agree(params[i].detach(), from, again[i].detach(), to)) << "parameter " << i;
    const optim::ParamState want = original->param_state(i), got = resumed->param_state(i);
    ASSERT_EQ(got.size(), want.size()) << "parameter " << i;
    for (size_t e = 0; e < want.size(); ++e) {
      EXPECT_EQ(got[e].first, want[e].first);
      const Device state_from = want[e].first == "step" ? Device(kCPU) : from;
      const Device state_to = got[e].first == "step" ? Device(kCPU) : to;
      EXPECT_TRUE(agree(want[e].second, state_from, got[e].second, state_to))
          << "parameter " << i << "'s " << want[e].first;
    }
  }
}

}  // namespace

TEST(OptimizerStateDictDevice, EveryOptimizerWithTwoGroupsResumesOnItsDeviceBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  const int d = cuda::device_count() - 1;
  // Another device current: saving, loading and stepping follow the parameters' device.
  cuda::DeviceGuard other(other_device(d));
  for (const Case& c : every_optimizer()) expect_resumes(c, cuda_device(d), cuda_device(d));
}

TEST(OptimizerStateDictDevice, AStateSavedFromCpuParametersLoadsOntoDeviceParameters) {
  TIDE_REQUIRE_DEVICES(1);
  const Device gpu = cuda_device(cuda::device_count() - 1);
  for (const Case& c : every_optimizer()) expect_resumes(c, Device(kCPU), gpu);
}

TEST(OptimizerStateDictDevice, AStateSavedFromDeviceParametersLoadsOntoCpuParameters) {
  TIDE_REQUIRE_DEVICES(1);
  const Device gpu = cuda_device(cuda::device_count() - 1);
  for (const Case& c : every_optimizer()) expect_resumes(c, gpu, Device(kCPU));
}

TEST(OptimizerStateDictDevice, AStateSavedOnOneDeviceLoadsOntoParametersOnAnother) {
  TIDE_REQUIRE_DEVICES(2);
  const int last = cuda::device_count() - 1;
  for (const Case& c : every_optimizer()) expect_resumes(c, cuda_device(last), cuda_device(0));
}

// torch's load_state_dict casts floating state to its parameter's dtype as well as its device.
TEST(OptimizerStateDictDevice, AFloat32StateLoadsOntoFloat64DeviceParametersInTheirDtype) {
  TIDE_REQUIRE_DEVICES(1);
  const Device gpu = cuda_device(cuda::device_count() - 1);
  for (const Case& c : every_optimizer()) {
    SCOPED_TRACE(c.name);
    std::vector<Tensor> params = four_params(Device(kCPU));
    const std::unique_ptr<optim::Optimizer> original = make_over(c, params);
    step_once(*original, params, 1.0f);
    const std::vector<char> bytes = pickle_save(original->state_dict());

    std::vector<Tensor> again = copies_on(params, gpu, kFloat64);
    const std::unique_ptr<optim::Optimizer> resumed = make_over(c, again);
    resumed->load_state_dict(pickle_load(std::string_view(bytes.data(), bytes.size())));
    expect_state_on(*resumed, gpu, kFloat64);
    step_once(*resumed, again, 1.0f);
    expect_state_on(*resumed, gpu, kFloat64);
    // The float64 run from the float32 state stays close to the float32 run.
    step_once(*original, params, 1.0f);
    for (size_t i = 0; i < params.size(); ++i) {
      const std::vector<double> want = params[i].detach().to(kFloat64).tolist<double>();
      const std::vector<double> got = again[i].detach().cpu().tolist<double>();
      ASSERT_EQ(got.size(), want.size());
      for (size_t e = 0; e < want.size(); ++e) EXPECT_NEAR(got[e], want[e], 1e-5) << i << ", " << e;
    }
  }
}
