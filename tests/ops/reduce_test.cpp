#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/error_of.h"
#include "support/iota.h"
#include "tide/tide.h"

using namespace tide;
using test::error_of;
using test::iota;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Tensor filled(std::vector<int64_t> sizes, float value) {
  Tensor t = empty(sizes);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = value;
  return t;
}

}  // namespace

// ---- sum

TEST(Sum, OfWholeTensorIsAZeroDimTensorOfTheInputsFloatDtype) {
  Tensor s = sum(tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}));
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.dtype(), kFloat32);
  EXPECT_EQ(s.item<float>(), 21.f);
  EXPECT_EQ(iota({2, 3}).sum().item<float>(), 15.f);
}

TEST(Sum, OfIntegersAndBoolsIsInt64) {
  Tensor i32 = tensor({1, 2, 3}, dtype(kInt32));
  EXPECT_EQ(sum(i32).dtype(), kInt64);
  EXPECT_EQ(sum(i32).item<int64_t>(), 6);
  Tensor b = tensor({true, false, true, true});
  EXPECT_EQ(sum(b).dtype(), kInt64);
  EXPECT_EQ(sum(b).item<int64_t>(), 3);
  Tensor u8 = full({300}, 200, dtype(kUInt8));
  EXPECT_EQ(sum(u8).item<int64_t>(), 60000);  // no uint8 wrap: accumulates in int64
  EXPECT_EQ(sum(u8, 0).dtype(), kInt64);
}

TEST(Sum, OfInt32DoesNotOverflowAtInt32Range) {
  Tensor a = full({4}, 2000000000, dtype(kInt32));
  EXPECT_EQ(sum(a).item<int64_t>(), 8000000000LL);
}

TEST(Sum, WithDtypeConvertsTheInputFirst) {
  Tensor a = tensor({1.5f, 2.5f, -1.5f});
  Tensor s = sum(a, kInt64);
  EXPECT_EQ(s.dtype(), kInt64);
  EXPECT_EQ(s.item<int64_t>(), 2);  // 1 + 2 - 1: each element truncated first, as torch
  Tensor d = sum(tensor({1, 2}), kFloat64);
  EXPECT_EQ(d.dtype(), kFloat64);
  EXPECT_EQ(d.item<double>(), 3.0);
  Tensor i32 = sum(tensor({1, 2}), kInt32);
  EXPECT_EQ(i32.dtype(), kInt32);
  EXPECT_EQ(i32.item<int32_t>(), 3);
}

TEST(Sum, OfHalfAndBFloat16AccumulatesInFloat) {
  // 4096 ones: a float16 running sum would stall at 2048.
  Tensor h = ones({4096}, dtype(kFloat16));
  EXPECT_EQ(sum(h).dtype(), kFloat16);
  EXPECT_EQ(sum(h).item<float>(), 4096.f);
  Tensor b = ones({3, 1000}, dtype(kBFloat16));
  EXPECT_EQ(sum(b, 1).dtype(), kBFloat16);
  EXPECT_THAT(sum(b, 1).tolist<float>(), ElementsAre(1000.f, 1000.f, 1000.f));
}

TEST(Sum, OfEmptyTensorIsZero) {
  EXPECT_EQ(sum(empty({0})).item<float>(), 0.f);
  EXPECT_EQ(sum(empty({0}, dtype(kInt32))).item<int64_t>(), 0);
  Tensor z = sum(empty({2, 0, 3}), 1);
  EXPECT_THAT(z.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(z.tolist<float>(), ElementsAre(0, 0, 0, 0, 0, 0));
  EXPECT_THAT(sum(empty({0, 3}), 1).sizes(), ElementsAre(0));
}

TEST(Sum, OverTheLastDim) {
  Tensor s = sum(iota({2, 3}), 1);
  EXPECT_THAT(s.sizes(), ElementsAre(2));
  EXPECT_THAT(s.tolist<float>(), ElementsAre(3.f, 12.f));
}

TEST(Sum, OverTheFirstDim) {
  Tensor s = sum(iota({2, 3}), 0);
  EXPECT_THAT(s.sizes(), ElementsAre(3));
  EXPECT_THAT(s.tolist<float>(), ElementsAre(3.f, 5.f, 7.f));
}

TEST(Sum, OverAMiddleDimWithKeepdim) {
  // iota(2,3,2): [[0 1][2 3][4 5]], [[6 7][8 9][10 11]]
  Tensor s = sum(iota({2, 3, 2}), 1, true);
  EXPECT_THAT(s.sizes(), ElementsAre(2, 1, 2));
  EXPECT_THAT(s.tolist<float>(), ElementsAre(6.f, 9.f, 24.f, 27.f));
}

TEST(Sum, AcceptsNegativeDims) {
  EXPECT_THAT(sum(iota({2, 3}), -1).tolist<float>(), ElementsAre(3.f, 12.f));
  EXPECT_THAT(sum(iota({2, 3}), -2).tolist<float>(), ElementsAre(3.f, 5.f, 7.f));
}

TEST(Sum, OverSeveralDims) {
  Tensor a = iota({2, 3, 2});
  Tensor s = sum(a, std::vector<int64_t>{0, 2});  // not adjacent: the permuting path
  EXPECT_THAT(s.sizes(), ElementsAre(3));
  EXPECT_THAT(s.tolist<float>(), ElementsAre(0 + 1 + 6 + 7.f, 2 + 3 + 8 + 9.f, 4 + 5 + 10 + 11.f));
  Tensor k = sum(a, std::vector<int64_t>{-1, 0}, true);
  EXPECT_THAT(k.sizes(), ElementsAre(1, 3, 1));
  EXPECT_THAT(k.tolist<float>(), ElementsAre(14.f, 22.f, 30.f));
  Tensor adj = sum(a, std::vector<int64_t>{1, 2});
  EXPECT_THAT(adj.tolist<float>(), ElementsAre(15.f, 51.f));
}

TEST(Sum, OverAnEmptyDimListReducesEverything) {
  Tensor s = sum(iota({2, 3}), std::vector<int64_t>{});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.item<float>(), 15.f);
}

TEST(Sum, OfZeroDimTensorAcceptsDimZeroAndMinusOne) {
  Tensor a = tensor(2.5);
  EXPECT_EQ(sum(a).item<float>(), 2.5f);
  EXPECT_EQ(sum(a, 0).item<float>(), 2.5f);
  EXPECT_EQ(sum(a, -1, true).dim(), 0);
}

TEST(Sum, OfNonContiguousInputs) {
  Tensor t = iota({2, 3}).t();  // (3, 2): [[0 3][1 4][2 5]]
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_THAT(sum(t, 0).tolist<float>(), ElementsAre(3.f, 12.f));
  EXPECT_THAT(sum(t, 1).tolist<float>(), ElementsAre(3.f, 5.f, 7.f));
  EXPECT_EQ(sum(t).item<float>(), 15.f);
  Tensor strided = iota({4, 6}).slice(1, 0, 6, 2);  // columns 0, 2, 4
  EXPECT_THAT(sum(strided, 1).tolist<float>(), ElementsAre(6.f, 24.f, 42.f, 60.f));
  Tensor p = iota({2, 3, 4}).permute({2, 0, 1});  // (4, 2, 3)
  Tensor s = sum(p, std::vector<int64_t>{0, 2});
  EXPECT_THAT(s.tolist<float>(), ElementsAre(66.f, 210.f));
}

TEST(Sum, OfManyElementsIsAccurate) {
  // 16M + 3 elements of 0.1: a naive float running sum is off by far more than 1.
  const int64_t n = (int64_t{1} << 24) + 3;
  Tensor a = filled({n}, 0.1f);
  EXPECT_NEAR(sum(a).item<float>(), static_cast<double>(n) * 0.1f, 2.0);
  EXPECT_NEAR(mean(a).item<float>(), 0.1f, 1e-6);
}

TEST(Sum, OfManyElementsIsDeterministic) {
  Tensor a = empty({3000001});
  float* p = a.data_ptr<float>();
  for (int64_t i = 0; i < a.numel(); ++i) p[i] = static_cast<float>((i * 7919) % 1000) * 1e-3f;
  const float first = sum(a).item<float>();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(sum(a).item<float>(), first);
}

TEST(Sum, OfLargeColumnsAndRowsMatchesSmallCases) {
  Tensor a = ones({1000, 700});
  Tensor c = sum(a, 0);
  EXPECT_THAT(c.sizes(), ElementsAre(700));
  for (float v : c.tolist<float>()) ASSERT_EQ(v, 1000.f);
  Tensor r = sum(a, 1);
  for (float v : r.tolist<float>()) ASSERT_EQ(v, 700.f);
  Tensor big = ones({3, 300000});
  EXPECT_THAT(sum(big, 1).tolist<float>(), ElementsAre(300000.f, 300000.f, 300000.f));
}

TEST(Sum, PropagatesNaN) {
  EXPECT_TRUE(std::isnan(sum(tensor({1.f, kNaN, 2.f})).item<float>()));
}

TEST(Sum, RejectsBadDims) {
  EXPECT_THAT(error_of([] { sum(iota({2, 3}), 2); }),
              HasSubstr("[sum] Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
  EXPECT_THAT(error_of([] { sum(iota({2, 3}), std::vector<int64_t>{1, -1}); }),
              HasSubstr("[sum] dim 1 appears multiple times in the list of dims"));
  EXPECT_THAT(error_of([] { sum(Tensor()); }), HasSubstr("[sum] expected a defined tensor"));
}

TEST(SumOut, WritesIntoOutInOutsDtype) {
  Tensor out = empty({}, dtype(kFloat64));
  sum_out(out, tensor({1, 2, 3}));
  EXPECT_EQ(out.item<double>(), 6.0);
  EXPECT_THAT(error_of([] {
                Tensor o = empty({2});
                sum_out(o, tensor({1.f}));
              }),
              HasSubstr("[sum_out] out must hold exactly one element"));
}

// ---- mean

TEST(Mean, OfWholeTensorAndPerDim) {
  Tensor a = iota({2, 3});
  EXPECT_EQ(mean(a).item<float>(), 2.5f);
  EXPECT_THAT(mean(a, 1).tolist<float>(), ElementsAre(1.f, 4.f));
  EXPECT_THAT(mean(a, 0, true).sizes(), ElementsAre(1, 3));
  EXPECT_THAT(mean(a, 0, true).tolist<float>(), ElementsAre(1.5f, 2.5f, 3.5f));
  EXPECT_EQ(a.mean(std::vector<int64_t>{0, 1}).item<float>(), 2.5f);
  EXPECT_EQ(mean(iota({4}, kFloat64)).item<double>(), 1.5);
  EXPECT_EQ(mean(iota({4}, kFloat16)).dtype(), kFloat16);
  EXPECT_EQ(mean(iota({4}, kFloat16)).item<float>(), 1.5f);
}

TEST(Mean, OfIntegersWithAFloatDtype) {
  Tensor m = mean(tensor({1, 2}), kFloat32);
  EXPECT_EQ(m.dtype(), kFloat32);
  EXPECT_EQ(m.item<float>(), 1.5f);
}

TEST(Mean, OfEmptyTensorIsNaN) { EXPECT_TRUE(std::isnan(mean(empty({0})).item<float>())); }

TEST(Mean, RejectsIntegerInputLikeTorch) {
  std::string e = error_of([] { mean(tensor({1, 2})); });
  EXPECT_THAT(e, HasSubstr("[mean] mean(): could not infer output dtype. Input dtype must be "
                           "either a floating point or complex dtype. Got: Long"));
  EXPECT_THAT(e, HasSubstr("kFloat32"));
  EXPECT_THAT(error_of([] { mean(tensor({1.f}), kInt32); }),
              HasSubstr("Optional dtype must be either a floating point or complex dtype. Got: Int"));
  EXPECT_THAT(error_of([] { tensor({true}).mean(0); }), HasSubstr("Got: Bool"));
}

// ---- max / min

TEST(Max, OfWholeTensorKeepsTheDtype) {
  Tensor a = tensor({{3, 7, 1}, {7, -2, 5}});
  EXPECT_EQ(max(a).dtype(), kInt64);
  EXPECT_EQ(max(a).dim(), 0);
  EXPECT_EQ(max(a).item<int64_t>(), 7);
  EXPECT_EQ(min(a).item<int64_t>(), -2);
  EXPECT_EQ(tensor({false, true}).max().item<bool>(), true);
  EXPECT_EQ(iota({5}, kFloat16).max().item<float>(), 4.f);
}

TEST(Max, PropagatesNaN) {
  Tensor a = tensor({1.f, kNaN, 5.f});
  EXPECT_TRUE(std::isnan(max(a).item<float>()));
  EXPECT_TRUE(std::isnan(min(a).item<float>()));
}

TEST(Max, OverADimReturnsValuesAndFirstIndices) {
  Tensor a = tensor({{1.f, 5.f, 5.f}, {7.f, 2.f, 7.f}});
  auto [v, i] = max(a, 1);
  EXPECT_THAT(v.tolist<float>(), ElementsAre(5.f, 7.f));
  EXPECT_EQ(i.dtype(), kInt64);
  EXPECT_THAT(i.tolist<int64_t>(), ElementsAre(1, 0));  // ties: first index
  auto [v0, i0] = max(a, 0);
  EXPECT_THAT(v0.tolist<float>(), ElementsAre(7.f, 5.f, 7.f));
  EXPECT_THAT(i0.tolist<int64_t>(), ElementsAre(1, 0, 1));
  auto [mv, mi] = a.min(-1, true);
  EXPECT_THAT(mv.sizes(), ElementsAre(2, 1));
  EXPECT_THAT(mv.tolist<float>(), ElementsAre(1.f, 2.f));
  EXPECT_THAT(mi.sizes(), ElementsAre(2, 1));
  EXPECT_THAT(mi.tolist<int64_t>(), ElementsAre(0, 1));
}

TEST(Max, OverADimReportsTheFirstNaN) {
  Tensor a = tensor({{1.f, kNaN, kNaN}, {4.f, 3.f, 2.f}});
  auto [v, i] = max(a, 1);
  EXPECT_TRUE(std::isnan(v.tolist<float>()[0]));
  EXPECT_THAT(i.tolist<int64_t>(), ElementsAre(1, 0));
  auto [mv, mi] = min(a.t(), 0);  // columns of the transpose: the strided path
  EXPECT_THAT(mi.tolist<int64_t>(), ElementsAre(1, 2));
  EXPECT_EQ(mv.tolist<float>()[1], 2.f);
}

TEST(Max, OverADimOfNonContiguousInput) {
  Tensor t = iota({3, 4}).t();  // (4, 3), t[i][j] = 4j + i
  auto [v, i] = max(t, 1);
  EXPECT_THAT(v.tolist<float>(), ElementsAre(8.f, 9.f, 10.f, 11.f));
  EXPECT_THAT(i.tolist<int64_t>(), ElementsAre(2, 2, 2, 2));
  auto [v0, i0] = min(t, 0);
  EXPECT_THAT(v0.tolist<float>(), ElementsAre(0.f, 4.f, 8.f));
  EXPECT_THAT(i0.tolist<int64_t>(), ElementsAre(0, 0, 0));
}

TEST(Max, OfALongRowFindsTheFirstExtremumAcrossChunks) {
  Tensor a = zeros({1000000});
  float* p = a.data_ptr<float>();
  p[123456] = 9.f;
  p[900000] = 9.f;
  p[700001] = -3.f;
  EXPECT_EQ(argmax(a).item<int64_t>(), 123456);
  EXPECT_EQ(argmin(a).item<int64_t>(), 700001);
  EXPECT_EQ(max(a).item<float>(), 9.f);
  p[999999] = kNaN;
  p[500000] = kNaN;
  EXPECT_EQ(argmax(a).item<int64_t>(), 500000);
}

TEST(Max, OfALongTensorSeesEveryLaneAndAnyNaN) {
  Tensor a = zeros({1000003});
  float* p = a.data_ptr<float>();
  p[777777] = 5.f;
  p[1000002] = -7.f;  // in the tail after the last full group of lanes
  EXPECT_EQ(max(a).item<float>(), 5.f);
  EXPECT_EQ(min(a).item<float>(), -7.f);
  EXPECT_EQ(max(a.to(kInt32)).item<int32_t>(), 5);
  EXPECT_EQ(min(a.to(kFloat64)).item<double>(), -7.0);
  p[400001] = kNaN;
  EXPECT_TRUE(std::isnan(max(a).item<float>()));
  EXPECT_TRUE(std::isnan(min(a).item<float>()));
  EXPECT_TRUE(std::isnan(max(a.to(kFloat16)).item<float>()));
}

TEST(Max, OfAZeroDimTensorOverDimZero) {
  auto [v, i] = max(tensor(4.f), 0);
  EXPECT_EQ(v.dim(), 0);
  EXPECT_EQ(v.item<float>(), 4.f);
  EXPECT_EQ(i.item<int64_t>(), 0);
}

TEST(Max, OverANonEmptyDimOfAnEmptyTensorIsEmpty) {
  auto [v, i] = max(empty({0, 3}), 1);
  EXPECT_THAT(v.sizes(), ElementsAre(0));
  EXPECT_THAT(i.sizes(), ElementsAre(0));
}

TEST(Max, RejectsEmptyInputLikeTorch) {
  EXPECT_THAT(error_of([] { max(empty({0})); }),
              HasSubstr("[max] max(): Expected reduction dim to be specified for input.numel() "
                        "== 0. Specify the reduction dim with the 'dim' argument."));
  EXPECT_THAT(error_of([] { min(empty({2, 0})); }),
              HasSubstr("[min] min(): Expected reduction dim to be specified"));
  EXPECT_THAT(error_of([] { max(empty({2, 0}), 1); }),
              HasSubstr("[max] max(): Expected reduction dim 1 to have non-zero size."));
  EXPECT_THAT(error_of([] { max(iota({2}), 1); }), HasSubstr("[max] Dimension out of range"));
}

// ---- argmax / argmin

TEST(Argmax, OfWholeTensorIsTheFlatIndex) {
  Tensor a = tensor({{1, 9, 3}, {9, 0, -4}});
  EXPECT_EQ(argmax(a).dtype(), kInt64);
  EXPECT_EQ(argmax(a).dim(), 0);
  EXPECT_EQ(argmax(a).item<int64_t>(), 1);
  EXPECT_EQ(argmin(a).item<int64_t>(), 5);
  EXPECT_EQ(a.t().argmax().item<int64_t>(), 1);  // flat index in the transposed (logical) order
  EXPECT_EQ(a.t().argmin().item<int64_t>(), 5);
}

TEST(Argmax, OverADim) {
  Tensor a = tensor({{1.f, 9.f, 3.f}, {9.f, 0.f, 9.f}});
  EXPECT_THAT(argmax(a, 1).tolist<int64_t>(), ElementsAre(1, 0));
  EXPECT_THAT(argmin(a, 0).tolist<int64_t>(), ElementsAre(0, 1, 0));
  EXPECT_THAT(a.argmax(-1, true).sizes(), ElementsAre(2, 1));
  EXPECT_THAT(argmax(iota({2, 3, 4}), 1).tolist<int64_t>(), ElementsAre(2, 2, 2, 2, 2, 2, 2, 2));
}

TEST(Argmax, PicksTheFirstNaN) {
  Tensor a = tensor({3.f, kNaN, 7.f, kNaN});
  EXPECT_EQ(argmax(a).item<int64_t>(), 1);
  EXPECT_EQ(argmin(a).item<int64_t>(), 1);
}

TEST(Argmax, RejectsEmptyInputAndBoolLikeTorch) {
  EXPECT_THAT(error_of([] { argmax(empty({0})); }),
              HasSubstr("[argmax] argmax(): Expected reduction dim to be specified for "
                        "input.numel() == 0."));
  EXPECT_THAT(error_of([] { argmin(empty({3, 0}), 1); }),
              HasSubstr("[argmin] argmin(): Expected reduction dim 1 to have non-zero size."));
  EXPECT_THAT(error_of([] { argmax(tensor({true, false})); }),
              HasSubstr("\"argmax_cpu\" not implemented for 'Bool'"));
}
