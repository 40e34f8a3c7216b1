#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::error_of;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Factories, TensorInfersDtypeAsTorch) {
  EXPECT_EQ(tensor({1., 2.}).dtype(), kFloat32);
  EXPECT_EQ(tensor({{1, 2, 3}}).dtype(), kInt64);
  EXPECT_THAT(tensor({{1, 2, 3}}).sizes(), ElementsAre(1, 3));
  EXPECT_EQ(tensor({true, false}).dtype(), kBool);
  EXPECT_EQ(tensor({1, 2.5}).dtype(), kFloat32);
  Tensor s = tensor(3.5);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.dtype(), kFloat32);
  EXPECT_EQ(s.item<float>(), 3.5f);
  EXPECT_THAT(tensor({}).sizes(), ElementsAre(0));
  EXPECT_EQ(tensor({}).dtype(), kFloat32);
  EXPECT_EQ(tensor({1, 2}, dtype(kInt32)).dtype(), kInt32);
}

TEST(Factories, RaggedNestedListIsAnError) {
  EXPECT_THAT(error_of([] { tensor({{1, 2}, {3}}); }), HasSubstr("expected sequence of length 2 at dim 1 (got 1)"));
  EXPECT_THAT(error_of([] { tensor({{1, 2}, 3}); }), HasSubstr("found a number"));
}

TEST(Factories, ZerosOnesFullAndDtypes) {
  EXPECT_THAT(zeros({2, 2}).tolist<float>(), ElementsAre(0, 0, 0, 0));
  EXPECT_THAT(ones({3}, dtype(kInt32)).tolist<int32_t>(), ElementsAre(1, 1, 1));
  EXPECT_EQ(full({2}, 7).dtype(), kInt64);
  EXPECT_EQ(full({2}, 0.5).dtype(), kFloat32);
  EXPECT_EQ(full({2}, true).dtype(), kBool);
  EXPECT_THAT(full({2}, -5., dtype(kFloat64)).tolist<double>(), ElementsAre(-5, -5));
  EXPECT_THAT(error_of([] { zeros({2, -1}); }), HasSubstr("negative dimension -1"));
}

TEST(Factories, LikeAndNewKeepDtypeAndDevice) {
  Tensor x = ones({2}, dtype(kInt64));
  EXPECT_EQ(zeros_like(x).dtype(), kInt64);
  EXPECT_EQ(ones_like(x, dtype(kFloat64)).dtype(), kFloat64);
  EXPECT_THAT(full_like(x, 3).tolist<int64_t>(), ElementsAre(3, 3));
  Tensor y = x.new_full({3, 1}, -5);
  EXPECT_EQ(y.dtype(), kInt64);
  EXPECT_THAT(y.sizes(), ElementsAre(3, 1));
  EXPECT_EQ(x.new_tensor({{1, 2, 3}}).dtype(), kInt64);
  EXPECT_EQ(zeros({1}).new_tensor({1, 2}).dtype(), kFloat32);  // dtype of *this, as torch
  EXPECT_THAT(x.new_zeros({2}).tolist<int64_t>(), ElementsAre(0, 0));
  EXPECT_THAT(x.new_ones({1}).tolist<int64_t>(), ElementsAre(1));
  EXPECT_EQ(x.new_empty({4}).numel(), 4);
}

TEST(Factories, CudaWithoutBackendNamesDeviceCountAndWhatToDo) {
  std::string msg = error_of([] { zeros({2}, device("cuda:1")); });
  EXPECT_THAT(msg, HasSubstr("cuda:1"));
  EXPECT_THAT(msg, HasSubstr("device_count() is 0"));
  EXPECT_THAT(msg, HasSubstr("TIDE_SIM_DEVICES"));
  EXPECT_THAT(error_of([] { zeros({2}, device("cpu:1")); }), HasSubstr("cpu has a single device"));
}

TEST(Factories, FromBlobWrapsAndCallsDeleter) {
  bool deleted = false;
  std::vector<float> buf{1, 2, 3, 4};
  {
    Tensor t = from_blob(buf.data(), {2, 2}, {}, [&](void* p) {
      EXPECT_EQ(p, buf.data());
      deleted = true;
    });
    EXPECT_EQ(t.index({1, 0}).item<float>(), 3);
    Tensor view = t.t();
    t = Tensor();
    EXPECT_FALSE(deleted);
  }
  EXPECT_TRUE(deleted);
}

TEST(Factories, EmptyStridedHasRequestedGeometry) {
  Tensor t = empty_strided({2, 3}, {1, 2});
  EXPECT_THAT(t.strides(), ElementsAre(1, 2));
  EXPECT_FALSE(t.is_contiguous());
}
