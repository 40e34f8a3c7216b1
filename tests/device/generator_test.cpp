// tide::Generator on every device of the configuration (Note [Generators] in
// include/tide/generator.h): a generator's draws happen on the op's device, the same state gives
// the cpu's numbers there (bit for bit on simulated GPUs and for integer draws; within the
// dtype's tolerance for real GPUs' floating transforms, tests/device/device_helpers.h), they
// leave the device's default generator alone, and a generator of the wrong device type is
// refused with torch's words.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "device_helpers.h"
#include "tensor/generator.h"
#include "tensor/random_fills.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/generator.h"
#include "tide/ops.h"
#include "tide/random.h"
#include "tide/sampling.h"

namespace tide {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

/// One random op of every kind, drawn on `device` from `g`.
std::vector<Tensor> draws_on(Device device, Generator& g) {
  const TensorOptions on = tide::device(device);
  const TensorOptions f64 = on.dtype(kFloat64);
  std::vector<Tensor> out;
  out.push_back(rand({7}, g, on));
  out.push_back(randn({3, 5}, g, f64));
  out.push_back(randint(-5, 100, {9}, g, on));
  out.push_back(randperm(12, g, on));
  out.push_back(rand_like(zeros({4}, on), g));
  out.push_back(randn_like(zeros({4}, f64), g));
  out.push_back(multinomial(tensor({1.0, 2.0, 0.0, 4.0}).to(device), 6, true, g));
  out.push_back(multinomial(tensor({1.0, 2.0, 0.0, 4.0}).to(device), 3, false, g));
  out.push_back(normal(zeros({5}, f64), ones({5}, f64), g));
  out.push_back(normal(2.0, 1.5, {3}, g, f64));
  out.push_back(bernoulli(full({8}, 0.5, f64), g));
  out.push_back(bernoulli(zeros({8}, f64), 0.25, g));
  out.push_back(poisson(full({6}, 2.5, f64), g));
  Tensor t = empty({6}, f64);
  out.push_back(detail::uniform_from(t, -2, 2, g).clone());
  out.push_back(detail::normal_from(t, 1, 3, g).clone());
  out.push_back(detail::random_from(t, 0, 50, g).clone());
  out.push_back(detail::bernoulli_from(t, 0.5, g).clone());
  return out;
}

TEST(Generator, TheSameStateGivesTheCpusNumbersOnEveryDevice) {
  Generator cpu_gen;
  cpu_gen.manual_seed(2024);
  const std::vector<Tensor> expected = draws_on(Device(kCPU), cpu_gen);
  for (int i = 0; i < cuda::device_count(); ++i) {
    SCOPED_TRACE("cuda:" + std::to_string(i));
    const Device device = test::cuda_device(i);
    cuda::DeviceGuard other(test::other_device(i));  // ops ignore the current device
    Generator g{Device(kCUDA)};
    g.manual_seed(2024);
    const std::vector<Tensor> got = draws_on(device, g);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].device(), device) << "draw " << k;
      EXPECT_TRUE(test::matches_cpu(expected[k], got[k])) << "draw " << k;
    }
    EXPECT_EQ(g.state().offset(), cpu_gen.state().offset());
  }
}

TEST(Generator, DrawsWithAGeneratorLeaveTheDevicesDefaultGeneratorAlone) {
  for (int i = 0; i < cuda::device_count(); ++i) {
    SCOPED_TRACE("cuda:" + std::to_string(i));
    const Device device = test::cuda_device(i);
    manual_seed(6);
    const Tensor expected = rand({5}, tide::device(device));
    manual_seed(6);
    Generator g(device);
    g.manual_seed(6);
    rand({100}, g, tide::device(device));
    randperm(10, g, tide::device(device));
    Tensor z = zeros({4}, tide::device(device));
    detail::normal_from(z, 0, 1, g);
    // the default generator still starts where manual_seed left it, and gives g's first numbers
    EXPECT_TRUE(test::same_bits(expected, rand({5}, tide::device(device))));
    EXPECT_EQ(default_generator(device).state().offset(), 2u);
  }
}

TEST(Generator, CudaDefaultGeneratorsAreTheOnesManualSeedSeeds) {
  for (int i = 0; i < cuda::device_count(); ++i) {
    SCOPED_TRACE("cuda:" + std::to_string(i));
    cuda::DeviceGuard current(i);
    Generator g = default_generator(Device(kCUDA));  // the current device's
    EXPECT_EQ(g.device(), test::cuda_device(i));
    EXPECT_TRUE(g == default_generator(test::cuda_device(i)));
    manual_seed(55);
    EXPECT_EQ(g.initial_seed(), 55u);
    // Seeding it alone changes the device's draws, not the cpu's.
    g.manual_seed(56);
    EXPECT_EQ(initial_seed(), 55u);
    Generator reference;
    reference.manual_seed(56);
    EXPECT_TRUE(test::matches_cpu(rand({6}, reference), rand({6}, tide::device(test::cuda_device(i)))));
  }
}

TEST(Generator, AGeneratorOfAnotherDeviceTypeIsRefusedWithTorchsWords) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "needs a cuda device";
  const Device device = test::cuda_device(0);
  Generator cpu_gen;
  const std::string expected = "Expected a 'cuda' device type for generator but found 'cpu'";
  EXPECT_THAT([&] { rand({2}, cpu_gen, tide::device(device)); },
              ThrowsMessage<Error>(HasSubstr("[rand] " + expected)));
  EXPECT_THAT([&] { randperm(4, cpu_gen, tide::device(device)); },
              ThrowsMessage<Error>(HasSubstr("[randperm] " + expected)));
  EXPECT_THAT([&] { bernoulli(zeros({2}, tide::device(device)), cpu_gen); },
              ThrowsMessage<Error>(HasSubstr("[bernoulli] " + expected)));
  Tensor t = zeros({2}, tide::device(device));
  EXPECT_THAT([&] { detail::uniform_from(t, 0, 1, cpu_gen); },
              ThrowsMessage<Error>(HasSubstr("[Tensor::uniform_] " + expected)));
  EXPECT_THAT([&] { detail::uniform_from(t, 0, 1, cpu_gen); },
              ThrowsMessage<Error>(HasSubstr("the draw is on cuda:0 and the generator on cpu")));
  Generator cuda_gen(device);
  EXPECT_THAT([&] { rand({2}, cuda_gen); },  // a cpu draw
              ThrowsMessage<Error>(HasSubstr("Expected a 'cpu' device type for generator but "
                                             "found 'cuda'")));
  // As torch: the type must match, not the index (one cuda generator serves every GPU).
  if (cuda::device_count() > 1) {
    EXPECT_EQ(rand({3}, cuda_gen, tide::device(test::cuda_device(1))).device(),
              test::cuda_device(1));
  }
}

TEST(Generator, GeneratorDrawsOnADeviceFollowTheirDistributions) {
  for (int i = 0; i < cuda::device_count(); ++i) {
    SCOPED_TRACE("cuda:" + std::to_string(i));
    const TensorOptions f64 = tide::device(test::cuda_device(i)).dtype(kFloat64);
    Generator g{Device(kCUDA)};
    g.manual_seed(77);
    // 20000 draws: margins of about five standard deviations
    const Tensor u = rand({20000}, g, f64);
    EXPECT_NEAR(u.mean().item<double>(), 0.5, 0.011);
    EXPECT_GE(u.min().item<double>(), 0.0);
    EXPECT_LT(u.max().item<double>(), 1.0);
    const Tensor z = randn({20000}, g, f64);
    EXPECT_NEAR(z.mean().item<double>(), 0.0, 0.036);
    EXPECT_NEAR(z.std().item<double>(), 1.0, 0.03);
    const Tensor b = bernoulli(full({20000}, 0.3, f64), g);
    EXPECT_NEAR(b.mean().item<double>(), 0.3, 0.017);
  }
}

}  // namespace
}  // namespace tide
