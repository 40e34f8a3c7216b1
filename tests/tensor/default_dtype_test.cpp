// The default dtype's effect on factories, inference and printing (Note [Default dtype]).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "support/defaults_guard.h"
#include "tide/tide.h"

using namespace tide;
using test::DefaultDtypeGuard;
using ::testing::ElementsAre;

TEST(DefaultDtype, FactoriesWithoutADtypeCreateIt) {
  DefaultDtypeGuard f64(kFloat64);
  EXPECT_EQ(empty({2}).dtype(), kFloat64);
  EXPECT_EQ(zeros({2}).dtype(), kFloat64);
  EXPECT_EQ(ones({2}).dtype(), kFloat64);
  EXPECT_EQ(empty_strided({2}, {1}).dtype(), kFloat64);
  EXPECT_EQ(rand({2}).dtype(), kFloat64);
  EXPECT_EQ(randn({2}).dtype(), kFloat64);
  EXPECT_EQ(linspace(0, 1, 3).dtype(), kFloat64);
  EXPECT_EQ(scalar_tensor(1).dtype(), kFloat64);  // torch.scalar_tensor(1) is tensor(1.)
  EXPECT_EQ(randint(0, 3, {2}).dtype(), kInt64);   // not a floating factory
  std::vector<double> buf{1.5, 2.5};
  EXPECT_THAT(from_blob(buf.data(), {2}).tolist<double>(), ElementsAre(1.5, 2.5));
}

TEST(DefaultDtype, AnExplicitDtypeWins) {
  DefaultDtypeGuard f64(kFloat64);
  EXPECT_EQ(zeros({2}, dtype(kFloat32)).dtype(), kFloat32);
  EXPECT_EQ(tensor({1.5}, dtype(kFloat16)).dtype(), kFloat16);
  EXPECT_EQ(arange(0.5, 2, 1, dtype(kFloat32)).dtype(), kFloat32);
  EXPECT_EQ(full({1}, 0.5, dtype(kFloat32)).dtype(), kFloat32);
}

TEST(DefaultDtype, InferenceGivesItToFloatingValuesOnly) {
  DefaultDtypeGuard f64(kFloat64);
  EXPECT_EQ(tensor({1., 2.}).dtype(), kFloat64);
  EXPECT_EQ(tensor({1, 2.5}).dtype(), kFloat64);
  EXPECT_EQ(tensor(3.5).dtype(), kFloat64);
  EXPECT_EQ(tensor({}).dtype(), kFloat64);  // torch.tensor([]) has the default dtype
  EXPECT_EQ(tensor({{1, 2, 3}}).dtype(), kInt64);
  EXPECT_EQ(tensor({true, false}).dtype(), kBool);
  EXPECT_EQ(full({2}, 0.5).dtype(), kFloat64);
  EXPECT_EQ(full({2}, 7).dtype(), kInt64);
  EXPECT_EQ(full({2}, true).dtype(), kBool);
  EXPECT_EQ(arange(0.5, 3).dtype(), kFloat64);
  EXPECT_EQ(arange(3).dtype(), kInt64);
  // The values are computed in the new dtype, not rounded through float32.
  EXPECT_THAT(tensor({0.1}).tolist<double>(), ElementsAre(0.1));
  EXPECT_THAT(arange(0.1, 0.3, 0.1).tolist<double>(), ElementsAre(0.1, 0.1 + 0.1));
}

TEST(DefaultDtype, HalfDefaultsWorkAsTorchs) {
  DefaultDtypeGuard f16(kFloat16);
  EXPECT_EQ(zeros({2}).dtype(), kFloat16);
  EXPECT_EQ(tensor({0.5}).dtype(), kFloat16);
  EXPECT_THAT(tensor({0.5}).to(kFloat32).tolist<float>(), ElementsAre(0.5f));
}

TEST(DefaultDtype, LikeAndNewKeepTheirSourcesDtype) {
  Tensor f32 = ones({2});
  DefaultDtypeGuard f64(kFloat64);
  EXPECT_EQ(zeros_like(f32).dtype(), kFloat32);
  EXPECT_EQ(rand_like(f32).dtype(), kFloat32);
  EXPECT_EQ(full_like(f32, 0.5).dtype(), kFloat32);
  EXPECT_EQ(zeros_like(f32, TensorOptions()).dtype(), kFloat32);  // options without a dtype
  EXPECT_EQ(f32.new_zeros({1}).dtype(), kFloat32);
  EXPECT_EQ(f32.new_full({1}, 0.5).dtype(), kFloat32);
  EXPECT_EQ(f32.new_tensor({1.5}).dtype(), kFloat32);
  EXPECT_EQ(f32.to(TensorOptions()).dtype(), kFloat32);  // .to without a dtype keeps it
}

TEST(DefaultDtype, PrintingOmitsTheDefaultDtypeAsTorch) {
  Tensor f32 = tensor({1.5, 2.});
  Tensor empty32 = zeros({0});
  EXPECT_EQ(f32.str(), "tensor([1.5000, 2.0000])");
  DefaultDtypeGuard f64(kFloat64);
  EXPECT_EQ(tensor({1.5, 2.}).str(), "tensor([1.5000, 2.0000])");
  EXPECT_EQ(f32.str(), "tensor([1.5000, 2.0000], dtype=tide.float32)");
  EXPECT_EQ(zeros({0}).str(), "tensor([])");
  EXPECT_EQ(empty32.str(), "tensor([], dtype=tide.float32)");
  EXPECT_EQ(tensor({1, 2}).str(), "tensor([1, 2])");
}
