// Note [Size overflow]: every factory, view and reshape rejects sizes whose element count,
// byte size or strided extent does not fit in int64, naming itself in the message.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::error_of;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

constexpr int64_t kHuge = int64_t{1} << 62;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// The message names the function and says the size overflowed.
::testing::Matcher<std::string> overflow_in(const std::string& where) {
  return AllOf(HasSubstr("[" + where + "]"), HasSubstr("overflow"));
}

}  // namespace

TEST(SizeOverflow, EmptyRejectsAnElementCountThatOverflowsInt64) {
  EXPECT_THAT(error_of([] { empty({kHuge, kHuge}); }),
              AllOf(overflow_in("empty"),
                    HasSubstr("Storage size calculation overflowed with sizes=[4611686018427387904, "
                              "4611686018427387904]"),
                    HasSubstr("the number of elements does not fit in int64")));
}

TEST(SizeOverflow, EmptyRejectsAByteSizeThatOverflowsInt64) {
  // 2^62 elements fit in int64; 2^64 bytes of float32 do not.
  EXPECT_THAT(error_of([] { empty({kHuge}, dtype(kFloat32)); }),
              AllOf(overflow_in("empty"),
                    HasSubstr("4 bytes per element: the size in bytes does not fit in int64")));
}

TEST(SizeOverflow, AZeroSizeMakesAnyOtherSizesAnEmptyTensor) {
  Tensor t = empty({kHuge, kHuge, 0});
  EXPECT_EQ(t.numel(), 0);
  EXPECT_EQ(t.dim(), 3);
}

TEST(SizeOverflow, EmptyStridedRejectsElementCountAndExtentOverflow) {
  EXPECT_THAT(error_of([] { empty_strided({kHuge, kHuge}, {0, 0}); }),
              overflow_in("empty_strided"));
  // 1 + 2^62 + 2^62 elements reached: more than int64 holds.
  EXPECT_THAT(error_of([] { empty_strided({2, 2}, {kHuge, kHuge}); }),
              AllOf(overflow_in("empty_strided"), HasSubstr("strides=[")));
  EXPECT_THAT(error_of([] { empty_strided({kHuge}, {1}, dtype(kFloat64)); }),
              overflow_in("empty_strided"));
}

TEST(SizeOverflow, ZerosOnesAndFullNameThemselves) {
  EXPECT_THAT(error_of([] { zeros({kHuge, kHuge}); }), overflow_in("zeros"));
  EXPECT_THAT(error_of([] { ones({kHuge, 4}); }), overflow_in("ones"));
  EXPECT_THAT(error_of([] { full({kHuge, kHuge}, 1.5); }), overflow_in("full"));
}

TEST(SizeOverflow, RandomFactoriesNameThemselves) {
  EXPECT_THAT(error_of([] { rand({kHuge, kHuge}); }), overflow_in("rand"));
  EXPECT_THAT(error_of([] { randn({kHuge}); }), overflow_in("randn"));
  EXPECT_THAT(error_of([] { randint(0, 10, {kHuge, 2}); }), overflow_in("randint"));
}

TEST(SizeOverflow, ArangeRejectsALengthThatOverflows) {
  // 2^64 - 1 elements: more than int64 can count.
  EXPECT_THAT(error_of([] { arange(kMin, kMax); }), overflow_in("arange"));
  EXPECT_THAT(error_of([] { arange(0.0, 1e300); }), overflow_in("arange"));
  // int64 counts the elements, but their bytes overflow.
  EXPECT_THAT(error_of([] { arange(0, kMax); }), overflow_in("arange"));
}

TEST(SizeOverflow, LinspaceRejectsAStepCountWhoseBytesOverflow) {
  EXPECT_THAT(error_of([] { linspace(0, 1, kMax); }), overflow_in("linspace"));
}

TEST(SizeOverflow, NewFactoriesNameThemselves) {
  Tensor t = zeros({2});
  EXPECT_THAT(error_of([&] { t.new_empty({kHuge, kHuge}); }), overflow_in("Tensor::new_empty"));
  EXPECT_THAT(error_of([&] { t.new_zeros({kHuge, kHuge}); }), overflow_in("Tensor::new_zeros"));
  EXPECT_THAT(error_of([&] { t.new_ones({kHuge, kHuge}); }), overflow_in("Tensor::new_ones"));
  EXPECT_THAT(error_of([&] { t.new_full({kHuge, kHuge}, 2); }), overflow_in("Tensor::new_full"));
}

TEST(SizeOverflow, FromBlobRejectsSizesAndStridesThatOverflow) {
  float data[4] = {};
  EXPECT_THAT(error_of([&] { from_blob(data, {kHuge, kHuge}); }), overflow_in("from_blob"));
  EXPECT_THAT(error_of([&] {
                from_blob(data, std::vector<int64_t>{2, 2}, std::vector<int64_t>{kHuge, kHuge});
              }),
              overflow_in("from_blob"));
  EXPECT_THAT(error_of([&] { from_blob(data, {kHuge}, dtype(kFloat32)); }),
              overflow_in("from_blob"));
}

TEST(SizeOverflow, ViewRejectsAShapeWhoseProductWrapsToTheElementCount) {
  // 2^32 * 2^32 wraps to 0, the element count of an empty tensor.
  Tensor t = empty({0});
  EXPECT_THAT(error_of([&] { t.view({int64_t{1} << 32, int64_t{1} << 32}); }),
              AllOf(overflow_in("Tensor::view"), HasSubstr("is invalid for input of size 0")));
  Tensor four = zeros({4});
  EXPECT_THAT(error_of([&] { four.view({-1, kHuge, 4}); }), overflow_in("Tensor::view"));
}

TEST(SizeOverflow, ReshapeRejectsAShapeWhoseProductOverflows) {
  Tensor t = empty({0});
  EXPECT_THAT(error_of([&] { t.reshape({int64_t{1} << 32, int64_t{1} << 32}); }),
              AllOf(overflow_in("Tensor::reshape"), HasSubstr("is invalid for input of size 0")));
  EXPECT_THAT(error_of([&] { zeros({2, 2}).t().reshape({kHuge, -1, kHuge}); }),
              overflow_in("Tensor::reshape"));
  // A zero among the sizes makes the product zero, as torch.
  EXPECT_EQ(t.reshape({kHuge, kHuge, 0}).numel(), 0);
}

TEST(SizeOverflow, ExpandRejectsSizesThatOverflow) {
  Tensor t = zeros({1, 1});
  EXPECT_THAT(error_of([&] { t.expand({kHuge, kHuge}); }), overflow_in("Tensor::expand"));
  EXPECT_THAT(error_of([&] { t.expand({kHuge, kHuge, 1, 1}); }), overflow_in("Tensor::expand"));
  EXPECT_EQ(t.expand({kHuge, 1}).numel(), kHuge);  // representable: a stride-0 view, no memory
}

TEST(SizeOverflow, CatAndStackRejectAResultThatOverflows) {
  Tensor long_view = zeros({1}).expand({kHuge});  // 2^62 elements, no memory
  EXPECT_THAT(error_of([&] { cat({long_view, long_view}); }),
              AllOf(overflow_in("cat"), HasSubstr("tensor number 1")));
  // stack concatenates unsqueezed inputs: a (2, 2^62) result has 2^63 elements.
  EXPECT_THAT(error_of([&] { stack({long_view, long_view}); }), HasSubstr("overflow"));
}

TEST(SizeOverflow, ARepresentableButImpossibleSizeIsOutOfMemory) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizer allocators abort on huge requests instead of returning null";
#else
  // 2^60 bytes fit in int64 but exceed any host's address space: the allocator refuses them.
  EXPECT_THROW(empty({int64_t{1} << 60}, dtype(kUInt8)), OutOfMemoryError);
#endif
}

TEST(SizeOverflow, TheProcessKeepsWorkingAfterAnOverflowError) {
  EXPECT_THROW(empty({kHuge, kHuge}), Error);
  EXPECT_THROW(zeros({1}).view({int64_t{1} << 32, int64_t{1} << 32}), Error);
  Tensor t = ones({2, 3});
  EXPECT_EQ(t.sum().item<float>(), 6.0f);
  EXPECT_EQ(t.view({3, 2}).size(0), 3);
}
