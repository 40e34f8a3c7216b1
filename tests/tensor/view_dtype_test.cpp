// Tensor::view(Dtype): torch's view(dtype), the same bytes read as another dtype (Note [A view
// as another dtype] in src/tensor/views.cpp). Figures and messages are torch 1.13's.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::error_of;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

Tensor bytes(int64_t n) { return arange(n, TensorOptions().dtype(kInt64)).to(kUInt8); }

}  // namespace

TEST(ViewDtype, EqualElementSizesKeepTheGeometryAndReinterpretTheBits) {
  Tensor x = ones({2, 3});
  Tensor v = x.view(kInt32);
  EXPECT_EQ(v.dtype(), kInt32);
  EXPECT_THAT(v.sizes(), ElementsAre(2, 3));
  EXPECT_TRUE(v.storage().is_alias_of(x.storage()));
  int32_t one_bits = 0;
  const float one = 1.0f;
  std::memcpy(&one_bits, &one, sizeof one_bits);
  EXPECT_EQ(v.tolist<int32_t>(), std::vector<int32_t>(6, one_bits));  // 1065353216
  EXPECT_EQ(ones({2}, TensorOptions().dtype(kBool)).view(kUInt8).tolist<uint8_t>(),
            (std::vector<uint8_t>{1, 1}));
}

TEST(ViewDtype, ANarrowerDtypeLengthensTheLastDimAndScalesTheOtherStrides) {
  Tensor v = zeros({2, 3}).view(kFloat16);
  EXPECT_THAT(v.sizes(), ElementsAre(2, 6));
  EXPECT_THAT(v.strides(), ElementsAre(6, 1));
  Tensor s = zeros({4, 3}).narrow(0, 1, 2).view(kBFloat16);
  EXPECT_EQ(s.storage_offset(), 6);
}

TEST(ViewDtype, AWiderDtypeShortensTheLastDimAndWritesShowInTheBase) {
  Tensor b = bytes(16).reshape({2, 8});
  Tensor v = b.view(kFloat32);
  EXPECT_THAT(v.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(v.strides(), ElementsAre(2, 1));
  v.fill_(0.0);
  EXPECT_EQ(b.sum().item<int64_t>(), 0);
  Tensor w = bytes(32).reshape({2, 16}).narrow(1, 0, 8).view(kFloat64);
  EXPECT_THAT(w.sizes(), ElementsAre(2, 1));
  EXPECT_THAT(w.strides(), ElementsAre(2, 1));
}

TEST(ViewDtype, IsNotDifferentiableAsTorchs) {
  Tensor x = ones({3}).requires_grad_();
  EXPECT_FALSE(x.view(kInt32).requires_grad());
  EXPECT_FALSE(x.view(kFloat32).requires_grad());
}

TEST(ViewDtype, MisuseNamesTorchsConditionAndTheValueFound) {
  EXPECT_THAT(error_of([] { zeros({2, 3}).t().view(kFloat16); }),
              HasSubstr("[Tensor::view] self.stride(-1) must be 1 to view float32 as float16 "
                        "(different element sizes), but got 3"));
  EXPECT_THAT(error_of([] { bytes(6).reshape({2, 3}).view(kFloat16); }),
              HasSubstr("self.size(-1) must be divisible by 2 to view uint8 as float16 "
                        "(different element sizes), but got 3"));
  EXPECT_THAT(error_of([] { full({}, 1.0).view(kFloat16); }),
              HasSubstr("self.dim() cannot be 0 to view float32 as float16"));
  EXPECT_THAT(error_of([] { bytes(8).narrow(0, 1, 4).view(kFloat16); }),
              HasSubstr("self.storage_offset() must be divisible by 2 to view uint8 as float16 "
                        "(different element sizes), but got 1"));
  EXPECT_THAT(error_of([] { bytes(16).reshape({4, 4}).narrow(1, 0, 2).view(kFloat32); }),
              HasSubstr("self.size(-1) must be divisible by 4"));
  EXPECT_THAT(error_of([] { bytes(12).reshape({2, 6}).narrow(1, 0, 4).view(kFloat32); }),
              HasSubstr("self.stride(0) must be divisible by 4 to view uint8 as float32 "
                        "(different element sizes), but got 6"));
}

TEST(ViewDtype, ABracedListStillMeansSizes) {
  EXPECT_EQ(ones({1}).view({}).dim(), 0);  // not view(Dtype{}): Note in tide/tensor.h
  EXPECT_THAT(ones({6}).view({2, 3}).sizes(), ElementsAre(2, 3));
}
