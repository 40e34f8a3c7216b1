// Comparison operators on GPUs: the cpu's bool results, on the operands' device (Note
// [Comparison operators and C++20] in tide/tensor.h).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "device_helpers.h"
#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::cuda_device;
using test::error_of;
using test::same_bits;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TensorCompare, EveryFormOnAGpuMatchesTheCpu) {
  TIDE_REQUIRE_DEVICES(1);
  const int dev = cuda::device_count() - 1;  // the last device, not the current one
  const Device d = cuda_device(dev);
  Tensor a = tensor({0.5, 1., 2.});
  Tensor b = tensor({2., 1., 0.5});
  Tensor ga = a.to(d), gb = b.to(d);
  const std::pair<Tensor, Tensor> cases[] = {
      {a == b, ga == gb},     {a != b, ga != gb},     {a < b, ga < gb},
      {a <= b, ga <= gb},     {a > b, ga > gb},       {a >= b, ga >= gb},
      {a == 0.5, ga == 0.5},  {0.5 == a, 0.5 == ga},  {a != 1, ga != 1},
      {1 != a, 1 != ga},      {2 < a, 2 < ga},        {2 <= a, 2 <= ga},
      {a > 1, ga > 1},        {1 > a, 1 > ga},        {a >= 1, ga >= 1},
      {1 >= a, 1 >= ga},      {~(a > 1), ~(ga > 1)},
  };
  for (const auto& [cpu, gpu] : cases) {
    EXPECT_EQ(gpu.device(), d);
    EXPECT_EQ(gpu.dtype(), kBool);
    EXPECT_TRUE(same_bits(cpu, gpu));
  }
  EXPECT_THAT((ga == 0.5).tolist<bool>(), ElementsAre(true, false, false));
  EXPECT_THAT((2 < ga).tolist<bool>(), ElementsAre(false, false, false));
  EXPECT_THAT((ga != gb).tolist<bool>(), ElementsAre(true, false, true));
}

TEST(TensorCompare, AZeroDimCpuTensorIsAScalarOperand) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor g = tensor({1, 2, 3}, "cuda:0");
  Tensor r = g > tensor(1.5);
  EXPECT_EQ(r.device(), cuda_device(0));
  EXPECT_THAT(r.tolist<bool>(), ElementsAre(false, true, true));
}

TEST(TensorCompare, OperandsOnTwoDevicesAreAnErrorWithTorchsWording) {
  TIDE_REQUIRE_DEVICES(2);
  Tensor a = zeros({2}, "cuda:0");
  Tensor b = zeros({2}, "cuda:1");
  EXPECT_THAT(error_of([&] { (void)(a == b); }),
              HasSubstr("Expected all tensors to be on the same device, but found at least two "
                        "devices, cuda:0 and cuda:1!"));
  EXPECT_THAT(error_of([&] { (void)(a < zeros({2})); }), HasSubstr("cuda:0 and cpu"));
}
