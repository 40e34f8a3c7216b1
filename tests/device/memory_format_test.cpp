// Layouts ops give on every device (Note [Memory formats] in src/tensor/memory_format.cpp):
// pointwise ops follow channels-last and other dense layouts as torch's TensorIterator does,
// convolution, pooling and batch norm keep channels-last, and gradients flow through them.
// Each case runs on the cpu, whose strides are checked against torch 1.13's, and on each cuda
// device the process has, which must give the cpu's strides and values (test::matches_cpu).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "device_helpers.h"
#include "support/gradcheck.h"
#include "tide/tide.h"

using namespace tide;
using test::cuda_device;
using test::matches_cpu;

namespace {

constexpr auto kCL = MemoryFormat::ChannelsLast;

struct LayoutCase {
  std::string name;
  std::function<Tensor(Device)> run;
  std::vector<int64_t> torch_strides;  // torch 1.13's for the same call
};

/// Distinct values, float32, contiguous NCHW, on `d`.
Tensor input(std::vector<int64_t> shape, Device d, uint64_t seed = 1) {
  manual_seed(seed);
  return randn(std::move(shape)).to(d);
}

Tensor nhwc(std::vector<int64_t> shape, Device d, uint64_t seed = 1) {
  return input(std::move(shape), d, seed).contiguous(kCL);
}

std::vector<LayoutCase> cases() {
  return {
      {"unary", [](Device d) { return nhwc({2, 3, 4, 5}, d).sin(); }, {60, 1, 15, 3}},
      {"unary to float", [](Device d) { return nhwc({2, 3, 4, 5}, d).to(kInt64).exp(); },
       {60, 1, 15, 3}},
      {"relu", [](Device d) { return nhwc({2, 3, 4, 5}, d).relu(); }, {60, 1, 15, 3}},
      {"binary, both channels-last",
       [](Device d) { return nhwc({2, 3, 4, 5}, d) + nhwc({2, 3, 4, 5}, d, 2); },
       {60, 1, 15, 3}},
      {"binary, channels-last first",
       [](Device d) { return nhwc({2, 3, 4, 5}, d) * input({2, 3, 4, 5}, d, 2); },
       {60, 1, 15, 3}},
      {"binary, contiguous first",
       [](Device d) { return input({2, 3, 4, 5}, d, 2) * nhwc({2, 3, 4, 5}, d); },
       {60, 20, 5, 1}},
      {"binary, broadcast per channel",
       [](Device d) { return nhwc({2, 3, 4, 5}, d) - input({3, 1, 1}, d, 2); }, {60, 1, 15, 3}},
      {"binary with a Scalar", [](Device d) { return nhwc({2, 3, 4, 5}, d) + 1.5; },
       {60, 1, 15, 3}},
      {"comparison", [](Device d) { return (nhwc({2, 3, 4, 5}, d) > 0).to(kFloat32); },
       {60, 1, 15, 3}},
      {"promotion",
       [](Device d) { return nhwc({2, 3, 4, 5}, d) + nhwc({2, 3, 4, 5}, d).to(kInt64); },
       {60, 1, 15, 3}},
      {"where",
       [](Device d) {
         const Tensor c = nhwc({2, 3, 4, 5}, d);
         return where(c > 0, c, c * 2);
       },
       {60, 1, 15, 3}},
      {"pointwise (addcmul)",
       [](Device d) {
         const Tensor c = nhwc({2, 3, 4, 5}, d);
         return addcmul(c, c, c, 0.5);
       },
       {60, 1, 15, 3}},
      {"sliced channels-last",
       [](Device d) { return nhwc({2, 3, 4, 5}, d).narrow(2, 1, 2) * 2; }, {30, 1, 15, 3}},
      {"transposed matrix", [](Device d) { return input({4, 5}, d).t().neg(); }, {1, 5}},
      {"conv2d, channels-last input",
       [](Device d) { return conv2d(nhwc({2, 3, 6, 6}, d), input({4, 3, 3, 3}, d, 2)); },
       {64, 1, 16, 4}},
      {"conv2d, channels-last weight",
       [](Device d) {
         return conv2d(input({2, 3, 6, 6}, d), nhwc({4, 3, 3, 3}, d, 2), input({4}, d, 3));
       },
       {64, 1, 16, 4}},
      {"conv2d, contiguous",
       [](Device d) { return conv2d(input({2, 3, 6, 6}, d), input({4, 3, 3, 3}, d, 2)); },
       {64, 16, 4, 1}},
      {"max_pool2d", [](Device d) { return max_pool2d(nhwc({2, 3, 6, 6}, d), 2); }, {27, 1, 9, 3}},
      {"max_pool2d indices",
       [](Device d) {
         return std::get<1>(max_pool2d_with_indices(nhwc({2, 3, 6, 6}, d), 2)).to(kFloat32);
       },
       {27, 1, 9, 3}},
      {"avg_pool2d", [](Device d) { return avg_pool2d(nhwc({2, 3, 6, 6}, d), 2); }, {27, 1, 9, 3}},
      {"adaptive_avg_pool2d",
       [](Device d) { return adaptive_avg_pool2d(nhwc({2, 3, 6, 6}, d), {2, 2}); }, {12, 1, 6, 3}},
      {"batch_norm, training",
       [](Device d) {
         return batch_norm(nhwc({2, 3, 6, 6}, d), ones({3}).to(d), zeros({3}).to(d),
                           zeros({3}).to(d), ones({3}).to(d), true, 0.1, 1e-5);
       },
       {108, 1, 18, 3}},
      {"batch_norm, eval",
       [](Device d) {
         return batch_norm(nhwc({2, 3, 6, 6}, d), ones({3}).to(d), zeros({3}).to(d),
                           zeros({3}).to(d), ones({3}).to(d), false, 0.1, 1e-5);
       },
       {108, 1, 18, 3}},
      {"conv2d input gradient",
       [](Device d) {
         Tensor x = nhwc({2, 3, 6, 6}, d).requires_grad_();
         conv2d(x, input({4, 3, 3, 3}, d, 2)).sum().backward();
         return x.grad();
       },
       {108, 1, 18, 3}},
      {"max_pool2d input gradient",
       [](Device d) {
         Tensor x = nhwc({2, 3, 6, 6}, d).requires_grad_();
         max_pool2d(x, 2).sum().backward();
         return x.grad();
       },
       {108, 1, 18, 3}},
  };
}

}  // namespace

TEST(MemoryFormatLayouts, TheCpuGivesTorchsStridesAndTheNchwValues) {
  for (const LayoutCase& c : cases()) {
    SCOPED_TRACE(c.name);
    const Tensor r = c.run(Device(kCPU));
    EXPECT_EQ(r.strides(), c.torch_strides);
    // the values do not depend on the layout: the same op on NCHW copies of the inputs
    const Tensor plain = r.contiguous();
    EXPECT_TRUE(plain.is_contiguous());
    EXPECT_TRUE(plain.equal(r));
  }
}

TEST(MemoryFormatLayouts, ChannelsLastOpsGiveTheValuesOfTheirNchwForms) {
  const Device cpu(kCPU);
  const Tensor x = input({2, 3, 6, 6}, cpu), w = input({4, 3, 3, 3}, cpu, 2);
  EXPECT_TRUE(allclose(conv2d(x.contiguous(kCL), w), conv2d(x, w), 1e-5, 1e-5));
  EXPECT_TRUE(max_pool2d(x.contiguous(kCL), 2).equal(max_pool2d(x, 2)));
  EXPECT_TRUE((x.contiguous(kCL) * x).equal(x * x));
  EXPECT_TRUE(x.contiguous(kCL).sin().equal(x.sin()));
}

TEST(MemoryFormatLayouts, EveryGpuGivesTheCpusStridesAndValues) {
  TIDE_REQUIRE_DEVICES(1);
  for (int dev = 0; dev < cuda::device_count(); ++dev) {
    for (const LayoutCase& c : cases()) {
      SCOPED_TRACE(c.name + " on cuda:" + std::to_string(dev));
      const Tensor expected = c.run(Device(kCPU));
      const Tensor got = c.run(cuda_device(dev));
      EXPECT_EQ(got.device(), cuda_device(dev));
      EXPECT_EQ(got.strides(), expected.strides());
      EXPECT_TRUE(matches_cpu(expected, got));
    }
  }
}

TEST(MemoryFormatLayouts, GradientsOfChannelsLastInputsMatchFiniteDifferences) {
  using V = const std::vector<Tensor>&;
  const auto cl = [](const Tensor& t) { return t.contiguous(kCL); };
  EXPECT_TRUE(test::gradcheck(
      [&](V x) { return conv2d(cl(x[0]), x[1], x[2], 1, 1); },
      {test::rnd({2, 2, 4, 4}, 1), test::rnd({3, 2, 3, 3}, 2), test::rnd({3}, 3)}));
  EXPECT_TRUE(test::gradcheck([&](V x) { return conv2d(x[0], cl(x[1])); },
                              {test::rnd({1, 2, 4, 4}, 4), test::rnd({2, 2, 2, 2}, 5)}));
  EXPECT_TRUE(test::gradcheck([&](V x) { return max_pool2d(cl(x[0]), 2); },
                              {test::rnd({2, 2, 4, 4}, 6)}));
  EXPECT_TRUE(test::gradcheck([&](V x) { return avg_pool2d(cl(x[0]), 2, 1, 1); },
                              {test::rnd({1, 3, 4, 4}, 7)}));
  EXPECT_TRUE(test::gradcheck([&](V x) { return adaptive_avg_pool2d(cl(x[0]), {3, 2}); },
                              {test::rnd({1, 2, 5, 4}, 8)}));
  EXPECT_TRUE(test::gradcheck(
      [&](V x) {
        return batch_norm(cl(x[0]), x[1], x[2], Tensor(), Tensor(), true, 0.1, 1e-5);
      },
      {test::rnd({2, 3, 2, 2}, 9), test::rnd({3}, 10), test::rnd({3}, 11)}));
  EXPECT_TRUE(test::gradcheck([&](V x) { return (cl(x[0]) * x[1]).sin(); },
                              {test::rnd({2, 3, 2, 2}, 12), test::rnd({2, 3, 2, 2}, 13)}));
}
