// The seeds' examples (../shared/seeds/cuda-semantics.en.rst and cuda-semantics.zh-notebook.md)
// translated to C++, producing the seeds' device placements, values and printed output.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "device_helpers.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"

using namespace tide;
using test::cuda_device;
using test::same_bits;
using ::testing::HasSubstr;

namespace {

const Device kCuda("cuda");
const Device kCuda0("cuda:0");
const Device kCuda1("cuda:1");
const Device kCuda2("cuda:2");

// Runs f, expecting tide::Error; returns its message.
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected tide::Error";
  return "";
}

}  // namespace

// cuda-semantics.en.rst, the first example, line by line.
TEST(Seeds, TheDeviceContextExamplePlacesEveryTensorAsTheSeedsSay) {
  TIDE_REQUIRE_DEVICES(3);
  cuda::DeviceGuard start(0);

  Tensor x = tensor({1., 2.}, TensorOptions(kCuda0));
  EXPECT_EQ(x.device(), kCuda0);
  Tensor y = tensor({1., 2.}).cuda();
  EXPECT_EQ(y.device(), kCuda0);

  Tensor a, b, b2, c, z, d, e, f;
  {
    cuda::DeviceGuard in_device_1(1);            // with torch.cuda.device(1):
    a = tensor({1., 2.}, TensorOptions(kCuda));  // allocates a tensor on GPU 1
    b = tensor({1., 2.}).cuda();                 // transfers a tensor from CPU to GPU 1
    b2 = tensor({1., 2.}).to(kCuda);
    EXPECT_EQ(a.device(), kCuda1);
    EXPECT_EQ(b.device(), kCuda1);
    EXPECT_EQ(b2.device(), kCuda1);

    c = a + b;
    EXPECT_EQ(c.device(), kCuda1);
    z = x + y;
    EXPECT_EQ(z.device(), kCuda0);

    // Even within a context, a device can be named (or an index given to .cuda).
    d = randn({2}, TensorOptions(kCuda2));
    e = randn({2}).to(kCuda2);
    f = randn({2}).cuda(kCuda2);
    EXPECT_EQ(d.device(), kCuda2);
    EXPECT_EQ(e.device(), kCuda2);
    EXPECT_EQ(f.device(), kCuda2);
    EXPECT_EQ(randn({2}).cuda(2).device(), kCuda2);
    EXPECT_EQ(cuda::current_device(), 1);
  }
  EXPECT_EQ(cuda::current_device(), 0);  // the context restored the device

  EXPECT_EQ(c.tolist<float>(), (std::vector<float>{2, 4}));
  EXPECT_EQ(z.tolist<float>(), (std::vector<float>{2, 4}));
  EXPECT_EQ(b2.tolist<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(c.str(), "tensor([2., 4.], device='cuda:1')");
  EXPECT_EQ(z.str(), "tensor([2., 4.], device='cuda:0')");
  EXPECT_EQ(c.device().str(), "cuda:1");  // the notebook prints "c.device is:  cuda:1"
  EXPECT_EQ(z.device().str(), "cuda:0");
  EXPECT_EQ(d.get_device(), 2);
}

// The zh notebook's variant of the same example: d, e and f on cuda:0 inside device(1).
TEST(Seeds, TheNotebookVariantPutsDEAndFOnCuda0InsideTheDevice1Context) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard start(0);
  cuda::DeviceGuard in_device_1(1);
  Tensor d = randn({2}, TensorOptions(kCuda0));
  Tensor e = randn({2}).to(kCuda0);
  Tensor f = randn({2}).cuda(kCuda0);
  EXPECT_EQ(d.device().str(), "cuda:0");
  EXPECT_EQ(e.device(), kCuda0);
  EXPECT_EQ(f.device(), kCuda0);
}

// The notebook: "Outside device is 0 / Inside device is 1 / Outside device is still 0".
TEST(Seeds, TheDeviceContextRestoresTheOutsideDevice) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard start(0);
  EXPECT_EQ(cuda::current_device(), 0);
  {
    cuda::DeviceGuard inside(1);
    EXPECT_EQ(cuda::current_device(), 1);
    EXPECT_EQ(empty({2}, TensorOptions(kCuda)).device(), kCuda1);
  }
  EXPECT_EQ(cuda::current_device(), 0);
  EXPECT_EQ(empty({2}, TensorOptions(kCuda)).device(), kCuda0);
}

// The notebook's device-agnostic creation: new_* keep the tensor's device and dtype.
TEST(Seeds, NewFullAndNewTensorPrintAsTheNotebookShows) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::DeviceGuard start(0);
  Tensor x_cpu = empty({2});
  Tensor x_gpu = empty({2}, TensorOptions(kCuda));
  Tensor x_cpu_long = empty({2}, TensorOptions(kInt64));

  Tensor y_cpu = x_cpu.new_full({3, 2}, 0.3);
  EXPECT_EQ(y_cpu.str(),
            "tensor([[0.3000, 0.3000],\n"
            "        [0.3000, 0.3000],\n"
            "        [0.3000, 0.3000]])");

  Tensor y_gpu = x_gpu.new_full({3, 2}, -5);
  EXPECT_EQ(y_gpu.device(), kCuda0);
  EXPECT_EQ(y_gpu.dtype(), kFloat32);
  EXPECT_EQ(y_gpu.str(),
            "tensor([[-5., -5.],\n"
            "        [-5., -5.],\n"
            "        [-5., -5.]], device='cuda:0')");

  Tensor y_cpu_long = x_cpu_long.new_tensor({{1, 2, 3}});
  EXPECT_EQ(y_cpu_long.str(), "tensor([[1, 2, 3]])");

  // new_tensor on a cuda tensor keeps its device and dtype too (as torch).
  Tensor x_gpu_int = empty({2}, TensorOptions(kCuda).dtype(kInt32));
  EXPECT_EQ(x_gpu_int.new_tensor({1, 2}).str(),
            "tensor([1, 2], device='cuda:0', dtype=tide.int32)");
  std::ostringstream os;
  os << y_gpu;
  EXPECT_EQ(os.str(), y_gpu.str());
}

TEST(Seeds, NewFullOnAnotherDeviceStaysThereWhateverTheCurrentDevice) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard start(0);
  Tensor x_gpu1 = empty({2}, TensorOptions(kCuda1));
  Tensor y = x_gpu1.new_full({2, 2}, -5);
  EXPECT_EQ(y.str(),
            "tensor([[-5., -5.],\n"
            "        [-5., -5.]], device='cuda:1')");
  EXPECT_EQ(x_gpu1.new_zeros({1}).device(), kCuda1);
  EXPECT_EQ(x_gpu1.new_ones({1}).device(), kCuda1);
  EXPECT_EQ(x_gpu1.new_empty({1}).device(), kCuda1);
}

TEST(Seeds, OnesLikeAndZerosLikeKeepDeviceAndDtype) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::DeviceGuard start(0);
  Tensor x_cpu = empty({2, 3});
  Tensor x_gpu = empty({2, 3}, TensorOptions(kCuda));
  Tensor y_cpu = ones_like(x_cpu);
  Tensor y_gpu = zeros_like(x_gpu);
  EXPECT_EQ(y_cpu.str(),
            "tensor([[1., 1., 1.],\n"
            "        [1., 1., 1.]])");
  EXPECT_EQ(y_gpu.str(),
            "tensor([[0., 0., 0.],\n"
            "        [0., 0., 0.]], device='cuda:0')");
  Tensor x_long = empty({2}, TensorOptions(kCuda).dtype(kInt64));
  EXPECT_EQ(ones_like(x_long).str(), "tensor([1, 1], device='cuda:0')");
  EXPECT_EQ(zeros_like(x_long).dtype(), kInt64);
  {
    // The like-tensor's device wins over the current device.
    cuda::DeviceGuard other(test::other_device(0));
    EXPECT_EQ(ones_like(x_gpu).device(), kCuda0);
    EXPECT_EQ(full_like(x_gpu, 2).str(),
              "tensor([[2., 2., 2.],\n"
              "        [2., 2., 2.]], device='cuda:0')");
  }
}

TEST(Seeds, OpsOnTwoDevicesRaiseTorchsCrossDeviceError) {
  TIDE_REQUIRE_DEVICES(2);
  Tensor a = ones({2}, TensorOptions(kCuda0));
  Tensor b = ones({2}, TensorOptions(kCuda1));
  const std::string kWords =
      "Expected all tensors to be on the same device, but found at least two devices, ";
  EXPECT_THAT(error_of([&] { (void)(a + b); }), HasSubstr(kWords + "cuda:0 and cuda:1!"));
  EXPECT_THAT(error_of([&] { (void)(b * a); }), HasSubstr(kWords + "cuda:1 and cuda:0!"));
  EXPECT_THAT(error_of([&] { (void)matmul(a, b); }), HasSubstr(kWords));
  EXPECT_THAT(error_of([&] { (void)cat({a, b}); }), HasSubstr(kWords));
  EXPECT_THAT(error_of([&] { (void)where(a.gt(0), a, b); }), HasSubstr(kWords));
  EXPECT_THAT(error_of([&] { (void)maximum(a, b); }), HasSubstr(kWords));
  EXPECT_THAT(error_of([&] { (void)a.index_select(0, tensor({0}, TensorOptions(kCuda1))); }),
              HasSubstr(kWords));
  EXPECT_THAT(
      error_of([&] {
        (void)nll_loss(ones({2, 2}, TensorOptions(kCuda0)), tensor({0, 1}, TensorOptions(kCuda1)));
      }),
      HasSubstr(kWords));
  EXPECT_THAT(error_of([&] { a.add_(b); }), HasSubstr(kWords));
  // Copy-like methods are the exception: they move data between devices.
  EXPECT_EQ(b.copy_(a * 3).tolist<float>(), (std::vector<float>{3, 3}));
  EXPECT_EQ(a.to(kCuda1).device(), kCuda1);
}

TEST(Seeds, ACpuTensorWithDimsNextToACudaTensorIsACrossDeviceError) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor a = ones({2}, TensorOptions(kCuda0));
  Tensor c = ones({2});
  EXPECT_THAT(error_of([&] { (void)(a + c); }),
              HasSubstr("[add] Expected all tensors to be on the same device, but found at least "
                        "two devices, cuda:0 and cpu!"));
  EXPECT_THAT(error_of([&] { (void)(c - a); }), HasSubstr("cpu and cuda:0!"));
  // A 1-element tensor with one dim is not a scalar either.
  EXPECT_THAT(error_of([&] { (void)(a * tensor({2.})); }), HasSubstr("cuda:0 and cpu!"));
}

TEST(Seeds, AZeroDimCpuTensorIsAcceptedAsAScalarNextToACudaTensor) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::DeviceGuard start(0);
  Tensor a = tensor({1., 2., 3.}, TensorOptions(Device("cuda:0")));
  Tensor two = tensor(2.);  // 0-dim, cpu
  ASSERT_EQ(two.dim(), 0);
  ASSERT_TRUE(two.is_cpu());
  Tensor sum = a + two;
  EXPECT_EQ(sum.device(), kCuda0);
  EXPECT_EQ(sum.tolist<float>(), (std::vector<float>{3, 4, 5}));
  EXPECT_EQ((two * a).tolist<float>(), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ((a / two).device(), kCuda0);
  EXPECT_EQ(a.pow(two).tolist<float>(), (std::vector<float>{1, 4, 9}));
  EXPECT_EQ(maximum(a, two).tolist<float>(), (std::vector<float>{2, 2, 3}));
  EXPECT_EQ(a.gt(two).tolist<bool>(), (std::vector<bool>{false, false, true}));
  EXPECT_EQ(where(a.gt(1), a, tensor(0.)).tolist<float>(), (std::vector<float>{0, 2, 3}));
  // A float64 0-dim tensor does not promote a float32 tensor (torch's rule for 0-dim operands).
  EXPECT_EQ((a * tensor(2., TensorOptions(kFloat64))).dtype(), kFloat32);
  // An int64 tensor times a float 0-dim tensor is float.
  Tensor ints = tensor({1, 2}, TensorOptions(kCuda0));
  EXPECT_EQ((ints * tensor(0.5)).str(), "tensor([0.5000, 1.0000], device='cuda:0')");
  // A 0-dim cuda tensor on another device is not a wrapped number.
  if (cuda::device_count() >= 2) {
    EXPECT_THAT(error_of([&] { (void)(a + tensor(2., TensorOptions(kCuda1))); }),
                HasSubstr("cuda:0 and cuda:1!"));
  }
  // In place too.
  a.mul_(two);
  EXPECT_EQ(a.tolist<float>(), (std::vector<float>{2, 4, 6}));
}

// torch's wrapped-number rule belongs to elementwise ops only: everywhere else a 0-dim cpu
// tensor next to a cuda one is a cross-device error, never a host pointer handed to a kernel.
TEST(Seeds, AZeroDimCpuTensorIsACrossDeviceErrorOutsideElementwiseOps) {
  TIDE_REQUIRE_DEVICES(1);
  const Tensor x = tensor({1., 2., 3.}, TensorOptions(kCuda0));
  const Tensor logits = tensor({{1., 2.}, {3., 4.}}, TensorOptions(kCuda0));
  const Tensor cpu_index = tensor(int64_t{0});  // 0-dim, cpu
  ASSERT_EQ(cpu_index.dim(), 0);
  const std::string kWords =
      "Expected all tensors to be on the same device, but found at least two devices, cuda:0 "
      "and cpu! (when checking argument for argument ";
  EXPECT_THAT(error_of([&] { (void)x.index_select(0, cpu_index); }),
              HasSubstr("[index_select] " + kWords + "index in method wrapper__index_select)"));
  EXPECT_THAT(error_of([&] { (void)index_select(x, 0, cpu_index); }),
              HasSubstr(kWords + "index in method wrapper__index_select)"));
  // An unbatched (C,) input takes a 0-dim target.
  EXPECT_THAT(error_of([&] { (void)nll_loss(x.log_softmax(0), cpu_index); }),
              HasSubstr("[nll_loss] " + kWords + "target in method wrapper__nll_loss)"));
  EXPECT_THAT(error_of([&] { (void)cross_entropy(x, cpu_index); }),
              HasSubstr("[cross_entropy] " + kWords + "target"));
  const Tensor cuda_target = tensor({0, 1}, TensorOptions(kCuda0));
  EXPECT_THAT(error_of([&] { (void)cross_entropy(logits, cuda_target, tensor(1.)); }),
              HasSubstr(kWords + "weight"));
  EXPECT_THAT(error_of([&] { (void)nll_loss(logits, cuda_target, tensor(1.)); }),
              HasSubstr(kWords + "weight"));
  EXPECT_THAT(error_of([&] { (void)addmm(tensor(1.), logits, logits); }),
              HasSubstr("[addmm] Expected all tensors to be on the same device, but found at least "
                        "two devices, cpu and cuda:0! (when checking argument for argument mat1"));
  EXPECT_THAT(error_of([&] { (void)mm(logits, tensor(2.)); }), HasSubstr(kWords + "mat2"));
  EXPECT_THAT(error_of([&] { (void)matmul(x, tensor(2.)); }), HasSubstr(kWords + "mat2"));
  Tensor cpu_out = tensor(0.);
  EXPECT_THAT(error_of([&] { sum_out(cpu_out, x); }),
              HasSubstr("[sum_out] Expected all tensors to be on the same device, but found at "
                        "least two devices, cpu and cuda:0! (when checking argument for argument self"));
  EXPECT_THAT(error_of([&] { (void)cat({x, tensor(2.)}); }), HasSubstr(kWords + "tensors"));
  // Nothing was enqueued: the device keeps working, and the same calls on one device run.
  EXPECT_EQ(x.index_select(0, cpu_index.cuda(0)).tolist<float>(), (std::vector<float>{1}));
  EXPECT_EQ(cross_entropy(logits, cuda_target).device(), kCuda0);
  EXPECT_EQ(cpu_out.item<float>(), 0.f);
}

TEST(Seeds, GetDeviceIsMinusOneOnCpuAndTheIndexOnCuda) {
  EXPECT_EQ(empty({1}).get_device(), -1);
  EXPECT_EQ(tensor({1., 2.}).get_device(), -1);
  TIDE_REQUIRE_DEVICES(1);
  for (int d = 0; d < cuda::device_count(); ++d) {
    cuda::DeviceGuard other(test::other_device(d));
    EXPECT_EQ(empty({1}, TensorOptions(cuda_device(d))).get_device(), d);
    EXPECT_EQ(tensor({1., 2.}).cuda(d).get_device(), d);
    EXPECT_EQ(empty({1}, TensorOptions(kCuda)).get_device(), test::other_device(d));
  }
  EXPECT_EQ(empty({1}, TensorOptions(kCuda0)).cpu().get_device(), -1);
}

TEST(Seeds, WithoutDevicesCudaTensorsRaiseAndCpuWorks) {
  if (cuda::device_count() > 0) GTEST_SKIP() << "only without cuda devices";
  EXPECT_FALSE(cuda::is_available());
  Tensor x = tensor({1., 2.});
  EXPECT_EQ((x + x).tolist<float>(), (std::vector<float>{2, 4}));
  EXPECT_THAT(error_of([&] { (void)x.cuda(); }), HasSubstr("no cuda device is available"));
  EXPECT_THAT(error_of([&] { (void)empty({2}, TensorOptions(kCuda0)); }),
              HasSubstr("cannot use device cuda:0: no cuda device is available"));
}

TEST(Seeds, RandomValuesMoveUnchangedBetweenDevices) {
  TIDE_REQUIRE_DEVICES(1);
  manual_seed(0);
  Tensor host = randn({2});
  Tensor dev = host.cuda(cuda::device_count() - 1);
  EXPECT_TRUE(same_bits(host, dev));
  EXPECT_TRUE(same_bits(host, dev.to(kCuda0).cpu()));
}
