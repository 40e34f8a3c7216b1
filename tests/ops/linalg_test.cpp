#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"
#include "tide/tensor.h"

using namespace tide;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

namespace {

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

/// A (rows x cols) float64 tensor of small distinct values, reproducible without random numbers.
Tensor pattern(int64_t rows, int64_t cols, int seed, Dtype dt = kFloat64) {
  std::vector<double> v(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((static_cast<int>(i) * 7 + seed * 13) % 11 - 5);
  Tensor t = empty({rows, cols}, dtype(kFloat64));
  for (size_t i = 0; i < v.size(); ++i) t.data_ptr<double>()[i] = v[i];
  return t.to(dt);
}

/// Reference product of two 2-D tensors, computed naively in double.
std::vector<double> naive_mm(const Tensor& a, const Tensor& b) {
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  std::vector<double> av = values(a), bv = values(b), c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += av[i * k + p] * bv[p * n + j];
  return c;
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

}  // namespace

TEST(Mm, MultipliesSmallMatricesAsComputedByHand) {
  Tensor a = tensor({{1., 2., 3.}, {4., 5., 6.}});
  Tensor b = tensor({{7., 8.}, {9., 10.}, {11., 12.}});
  Tensor c = mm(a, b);
  EXPECT_EQ(c.sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(c.dtype(), kFloat32);
  EXPECT_EQ(c.tolist<float>(), (std::vector<float>{58, 64, 139, 154}));
  EXPECT_EQ(a.mm(b).tolist<float>(), c.tolist<float>());
}

TEST(Mm, Float64UsesDoublePrecision) {
  Tensor a = tensor({{1.0 + 1e-12, 1.0}}, dtype(kFloat64));
  Tensor b = tensor({{1.0}, {-1.0}}, dtype(kFloat64));
  EXPECT_NEAR(mm(a, b).item<double>(), 1e-12, 1e-15);
}

TEST(Mm, TransposedOperandsGiveTheSameProductAsContiguousCopies) {
  for (Dtype dt : {kFloat32, kFloat64}) {
    Tensor at = pattern(5, 4, 1, dt);  // a = at.t() is 4x5 with unit row stride
    Tensor bt = pattern(3, 5, 2, dt);  // b = bt.t() is 5x3
    Tensor a = at.t(), b = bt.t();
    ASSERT_FALSE(a.is_contiguous());
    std::vector<double> want = naive_mm(a.contiguous(), b.contiguous());
    expect_close(values(mm(a, b)), want, 1e-4);
    expect_close(values(mm(a, b.contiguous())), want, 1e-4);
    expect_close(values(mm(a.contiguous(), b)), want, 1e-4);
  }
}

TEST(Mm, OperandsWithoutAUnitStrideAreCopiedFirst) {
  Tensor big = pattern(8, 10, 3);
  Tensor a = big.slice(0, 0, 8, 2).slice(1, 0, 10, 2);  // 4x5, strides (20, 2)
  Tensor b = pattern(5, 3, 4).t().contiguous().t();     // 5x3 transposed layout
  expect_close(values(mm(a, b)), naive_mm(a.contiguous(), b.contiguous()), 1e-9);
}

TEST(Mm, RowAndColumnViewsOfBiggerMatricesWork) {
  Tensor big = pattern(6, 7, 5);
  Tensor row = big.narrow(0, 2, 1);           // 1x7 with row stride 7
  Tensor col = big.narrow(1, 3, 1).narrow(0, 0, 6);  // 6x1 with row stride 7
  expect_close(values(mm(row, pattern(7, 2, 1))), naive_mm(row, pattern(7, 2, 1)), 1e-9);
  expect_close(values(mm(pattern(3, 6, 2), col)), naive_mm(pattern(3, 6, 2), col.contiguous()), 1e-9);
}

TEST(Mm, LargeProductMatchesNaiveReference) {
  manual_seed(0);
  Tensor a = randn({130, 70}, dtype(kFloat64));
  Tensor b = randn({70, 90}, dtype(kFloat64));
  expect_close(values(mm(a, b)), naive_mm(a, b), 1e-9);
}

TEST(Mm, EmptyInnerDimensionGivesZeros) {
  Tensor c = mm(empty({2, 0}), empty({0, 3}));
  EXPECT_EQ(c.sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(c.tolist<float>(), std::vector<float>(6, 0.0f));
  EXPECT_EQ(mm(empty({0, 3}), ones({3, 2})).sizes(), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(mm(empty({2, 0}, dtype(kInt64)), empty({0, 2}, dtype(kInt64))).tolist<int64_t>(),
            std::vector<int64_t>(4, 0));
}

TEST(Mm, Int64ProductIsExact) {
  Tensor a = tensor({{1, 2}, {3, 4}, {5, 6}});
  Tensor b = tensor({{1000000000000, -1}, {2, 3}});
  Tensor c = mm(a, b);
  EXPECT_EQ(c.dtype(), kInt64);
  EXPECT_EQ(c.tolist<int64_t>(),
            (std::vector<int64_t>{1000000000004, 5, 3000000000008, 9, 5000000000012, 13}));
}

TEST(Mm, IntegerLoopMatchesReferenceAcrossItsBlocks) {
  // 300 columns and 200 reduction steps cross the loop's 256-column and 128-step blocks.
  Tensor a = pattern(37, 200, 1, kInt64);
  Tensor b = pattern(200, 300, 2, kInt64);
  expect_close(values(mm(a, b)), naive_mm(a, b), 0);
  expect_close(values(mm(pattern(9, 5, 3, kInt32), pattern(7, 5, 4, kInt32).t())),
               naive_mm(pattern(9, 5, 3), pattern(7, 5, 4).t()), 0);
  expect_close(values(mm(tensor({{1, 2}}, dtype(kUInt8)), tensor({{3}, {4}}, dtype(kUInt8)))), {11}, 0);
}

TEST(Mm, Float16AndBFloat16MatchAFloat32Reference) {
  manual_seed(1);
  Tensor a = randn({33, 40}), b = randn({40, 17});
  for (Dtype dt : {kFloat16, kBFloat16}) {
    Tensor ah = a.to(dt), bh = b.to(dt);
    Tensor c = mm(ah, bh);
    EXPECT_EQ(c.dtype(), dt);
    // the reference multiplies the already-rounded inputs in float
    std::vector<double> want = naive_mm(ah.to(kFloat32), bh.to(kFloat32));
    const double tol = dt == kFloat16 ? 2e-2 : 0.15;
    std::vector<double> got = values(c);
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_NEAR(got[i], want[i], tol * std::max(1.0, std::abs(want[i]))) << name(dt) << " " << i;
    }
    expect_close(values(mm(ah.t().contiguous().t(), bh)), got, 0);
  }
}

TEST(Matmul, OneDByOneDIsADotProduct) {
  Tensor c = matmul(tensor({1., 2., 3.}), tensor({4., 5., 6.}));
  EXPECT_EQ(c.dim(), 0);
  EXPECT_EQ(c.item<float>(), 32.0f);
  Tensor strided = tensor({1., 0., 2., 0., 3., 0.}).slice(0, 0, 6, 2);
  EXPECT_EQ(matmul(strided, tensor({4., 5., 6.})).item<float>(), 32.0f);
  EXPECT_EQ(matmul(empty({0}), empty({0})).item<float>(), 0.0f);
}

TEST(Matmul, TwoDByOneDIsAMatrixVectorProduct) {
  Tensor c = matmul(tensor({{1., 2.}, {3., 4.}, {5., 6.}}), tensor({1., -1.}));
  EXPECT_EQ(c.sizes(), (std::vector<int64_t>{3}));
  EXPECT_EQ(c.tolist<float>(), (std::vector<float>{-1, -1, -1}));
}

TEST(Matmul, OneDByTwoDPrependsAndRemovesADim) {
  Tensor c = matmul(tensor({1., 2., 3.}), tensor({{1., 0.}, {0., 1.}, {1., 1.}}));
  EXPECT_EQ(c.sizes(), (std::vector<int64_t>{2}));
  EXPECT_EQ(c.tolist<float>(), (std::vector<float>{4, 5}));
}

TEST(Matmul, BatchedTimesMatrixFoldsTheBatch) {
  Tensor a = pattern(6, 4, 1).view({2, 3, 4});
  Tensor b = pattern(4, 5, 2);
  Tensor c = matmul(a, b);
  EXPECT_EQ(c.sizes(), (std::vector<int64_t>{2, 3, 5}));
  expect_close(values(c), naive_mm(pattern(6, 4, 1), b), 1e-12);
  Tensor v = matmul(a, tensor({1., 0., 0., 1.}, dtype(kFloat64)));
  EXPECT_EQ(v.sizes(), (std::vector<int64_t>{2, 3}));
}

TEST(Matmul, BatchDimsBroadcast) {
  Tensor a = pattern(2 * 1 * 3, 4, 1).view({2, 1, 3, 4});
  Tensor b = pattern(5 * 4, 2, 2).view({5, 4, 2});
  Tensor c = matmul(a, b);
  ASSERT_EQ(c.sizes(), (std::vector<int64_t>{2, 5, 3, 2}));
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 5; ++j) {
      expect_close(values(c.select(0, i).select(0, j)), naive_mm(a.select(0, i).select(0, 0), b.select(0, j)),
                   1e-12);
    }
  }
}

TEST(Matmul, MatrixOrVectorTimesBatchBroadcastsTheFirstOperand) {
  Tensor a = pattern(3, 4, 1);
  Tensor b = pattern(2 * 4, 5, 2).view({2, 4, 5});
  Tensor c = matmul(a, b);
  ASSERT_EQ(c.sizes(), (std::vector<int64_t>{2, 3, 5}));
  for (int64_t i = 0; i < 2; ++i) expect_close(values(c.select(0, i)), naive_mm(a, b.select(0, i)), 1e-12);
  Tensor v = matmul(tensor({1., 1., 1., 1.}, dtype(kFloat64)), b);
  ASSERT_EQ(v.sizes(), (std::vector<int64_t>{2, 5}));
  expect_close(values(v.select(0, 1)), naive_mm(tensor({{1., 1., 1., 1.}}, dtype(kFloat64)), b.select(0, 1)),
               1e-12);
  Tensor w = matmul(b.transpose(1, 2), tensor({1., 0., 0., 0.}, dtype(kFloat64)));
  ASSERT_EQ(w.sizes(), (std::vector<int64_t>{2, 5}));
  expect_close(values(w.select(0, 0)), values(b.select(0, 0).select(0, 0)), 0);
}

TEST(Matmul, TransposedBatchesAreUsedInPlace) {
  Tensor a = pattern(3 * 4, 2, 1).view({3, 4, 2}).transpose(1, 2);  // (3, 2, 4)
  Tensor b = pattern(3 * 4, 5, 2).view({3, 4, 5});
  Tensor c = a.matmul(b);
  for (int64_t i = 0; i < 3; ++i) {
    expect_close(values(c.select(0, i)), naive_mm(a.select(0, i).contiguous(), b.select(0, i)), 1e-12);
  }
}

TEST(Matmul, Int64BatchedProduct) {
  Tensor a = tensor({{{1, 2}, {3, 4}}, {{0, 1}, {1, 0}}});
  Tensor b = tensor({{5, 6}, {7, 8}});
  EXPECT_EQ(matmul(a, b).tolist<int64_t>(), (std::vector<int64_t>{19, 22, 43, 50, 7, 8, 5, 6}));
  EXPECT_EQ(matmul(b, a).tolist<int64_t>(), (std::vector<int64_t>{23, 34, 31, 46, 6, 5, 8, 7}));
}

TEST(Bmm, MultipliesEachBatch) {
  Tensor a = pattern(2 * 3, 4, 1).view({2, 3, 4});
  Tensor b = pattern(2 * 4, 2, 2).view({2, 4, 2});
  Tensor c = bmm(a, b);
  ASSERT_EQ(c.sizes(), (std::vector<int64_t>{2, 3, 2}));
  for (int64_t i = 0; i < 2; ++i) expect_close(values(c.select(0, i)), naive_mm(a.select(0, i), b.select(0, i)), 1e-12);
  EXPECT_EQ(a.bmm(b).tolist<double>(), c.tolist<double>());
  Tensor h = bmm(a.to(kFloat16), b.to(kFloat16));
  EXPECT_EQ(h.dtype(), kFloat16);
  expect_close(values(h), values(c), 1e-2);
}

TEST(Bmm, ExpandedBatchesNeedNoCopy) {
  Tensor a = pattern(3, 4, 1).unsqueeze(0).expand({5, 3, 4});
  Tensor b = pattern(4, 2, 2).unsqueeze(0).expand({5, 4, 2});
  Tensor c = bmm(a, b);
  for (int64_t i = 0; i < 5; ++i) expect_close(values(c.select(0, i)), naive_mm(pattern(3, 4, 1), pattern(4, 2, 2)), 1e-12);
}

TEST(Bmm, EmptyBatchGivesAnEmptyResult) {
  EXPECT_EQ(bmm(empty({0, 2, 3}), empty({0, 3, 4})).sizes(), (std::vector<int64_t>{0, 2, 4}));
}

TEST(Addmm, ScalesSelfAndTheProduct) {
  Tensor self = tensor({{1., 1.}, {1., 1.}});
  Tensor m1 = tensor({{1., 2.}, {3., 4.}});
  Tensor m2 = tensor({{1., 0.}, {0., 1.}});
  EXPECT_EQ(addmm(self, m1, m2).tolist<float>(), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(addmm(self, m1, m2, 2, 3).tolist<float>(), (std::vector<float>{5, 8, 11, 14}));
  EXPECT_EQ(self.addmm(m1, m2, 0.5, -1).tolist<float>(), (std::vector<float>{-0.5, -1.5, -2.5, -3.5}));
}

TEST(Addmm, SelfBroadcastsToTheResult) {
  Tensor bias = tensor({10., 20., 30.});
  Tensor m1 = tensor({{1., 2.}, {3., 4.}});
  Tensor m2 = tensor({{1., 0., 1.}, {0., 1., 1.}});
  EXPECT_EQ(addmm(bias, m1, m2).tolist<float>(), (std::vector<float>{11, 22, 33, 13, 24, 37}));
  EXPECT_EQ(addmm(tensor({{1.}, {2.}}), m1, m2).tolist<float>(), (std::vector<float>{2, 3, 4, 5, 6, 9}));
  EXPECT_EQ(addmm(scalar_tensor(1.0), m1, m2).tolist<float>(), (std::vector<float>{2, 3, 4, 4, 5, 8}));
}

TEST(Addmm, ZeroBetaIgnoresSelfEvenIfNaN) {
  Tensor self = full({2, 2}, NAN);
  Tensor c = addmm(self, tensor({{1., 2.}, {3., 4.}}), tensor({{1., 0.}, {0., 1.}}), 0, 1);
  EXPECT_EQ(c.tolist<float>(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(Addmm, EmptyInnerDimensionGivesBetaTimesSelf) {
  Tensor c = addmm(tensor({{1., 2.}}), empty({1, 0}), empty({0, 2}), 3, 1);
  EXPECT_EQ(c.tolist<float>(), (std::vector<float>{3, 6}));
}

TEST(Addmm, IntegerAndHalfDtypes) {
  Tensor c = addmm(tensor({1, 2}), tensor({{1, 2}, {3, 4}}), tensor({{5, 6}, {7, 8}}), 2, 3);
  EXPECT_EQ(c.tolist<int64_t>(), (std::vector<int64_t>{59, 70, 131, 154}));
  Tensor h = addmm(tensor({1., 2.}, dtype(kFloat16)), tensor({{1., 2.}, {3., 4.}}, dtype(kFloat16)),
                   tensor({{5., 6.}, {7., 8.}}, dtype(kFloat16)), 2, 3);
  EXPECT_EQ(values(h), (std::vector<double>{59, 70, 131, 154}));
}

TEST(LinalgErrors, MmNeedsMatrices) {
  EXPECT_THAT([] { mm(ones({2}), ones({2, 2})); },
              ThrowsMessage<Error>(HasSubstr("[mm] self must be a matrix")));
  EXPECT_THAT([] { mm(ones({2, 2}), ones({2, 2, 2})); },
              ThrowsMessage<Error>(HasSubstr("[mm] mat2 must be a matrix")));
}

TEST(LinalgErrors, MmNamesBothShapesWhenInnerSizesDiffer) {
  EXPECT_THAT([] { mm(ones({2, 3}), ones({4, 5})); },
              ThrowsMessage<Error>(HasSubstr("[mm] mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)")));
  EXPECT_THAT([] { matmul(ones({2, 3}), ones({4, 5})); },
              ThrowsMessage<Error>(HasSubstr("[matmul] mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)")));
  EXPECT_THAT([] { matmul(ones({3}), ones({4, 5})); },
              ThrowsMessage<Error>(HasSubstr("mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)")));
  EXPECT_THAT([] { matmul(ones({2, 2, 3}), ones({4, 5})); },
              ThrowsMessage<Error>(HasSubstr("mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)")));
}

TEST(LinalgErrors, OperandsMustShareADtype) {
  EXPECT_THAT([] { mm(ones({2, 3}), ones({3, 2}, dtype(kFloat64))); },
              ThrowsMessage<Error>(HasSubstr("[mm] expected m1 and m2 to have the same dtype, but got: float != double")));
  EXPECT_THAT([] { matmul(ones({2, 2, 3}, dtype(kInt64)), ones({2, 3, 2})); },
              ThrowsMessage<Error>(HasSubstr("[matmul] expected m1 and m2 to have the same dtype, but got: long int != float")));
  EXPECT_THAT([] { bmm(ones({1, 2, 3}, dtype(kFloat16)), ones({1, 3, 2})); },
              ThrowsMessage<Error>(HasSubstr("[bmm] expected m1 and m2 to have the same dtype, but got: c10::Half != float")));
}

TEST(LinalgErrors, BoolProductsAreNotImplemented) {
  EXPECT_THAT([] { mm(ones({2, 2}, dtype(kBool)), ones({2, 2}, dtype(kBool))); },
              ThrowsMessage<Error>(HasSubstr("[mm] \"addmm_impl_cpu_\" not implemented for 'Bool'")));
}

TEST(LinalgErrors, MatmulNeedsAtLeastOneDim) {
  EXPECT_THAT([] { matmul(scalar_tensor(1.0), ones({2, 2})); },
              ThrowsMessage<Error>(HasSubstr("[matmul] both arguments to matmul need to be at least 1D, but they are 0D and 2D")));
}

TEST(LinalgErrors, DotNeedsEqualLengthsAndDtypes) {
  EXPECT_THAT([] { matmul(ones({3}), ones({4})); },
              ThrowsMessage<Error>(HasSubstr("[matmul] inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 elements respectively")));
  EXPECT_THAT([] { matmul(ones({3}), ones({3}, dtype(kFloat64))); },
              ThrowsMessage<Error>(HasSubstr("[matmul] dot : expected both vectors to have same dtype, but found Float and Double")));
}

TEST(LinalgErrors, MatrixVectorNeedsMatchingLength) {
  EXPECT_THAT([] { matmul(ones({2, 3}), ones({4})); },
              ThrowsMessage<Error>(HasSubstr("[matmul] size mismatch, got input (2), mat (2x3), vec (4)")));
}

TEST(LinalgErrors, BatchedMatmulChecksInnerSizesAndBatchBroadcast) {
  EXPECT_THAT([] { matmul(ones({2, 3, 4}), ones({2, 5, 6})); },
              ThrowsMessage<Error>(HasSubstr("[matmul] Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5].")));
  EXPECT_THAT([] { matmul(ones({2, 3, 4}), ones({3, 4, 6})); },
              ThrowsMessage<Error>(HasSubstr("[matmul] The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0")));
}

TEST(LinalgErrors, BmmNeedsThreeDimsAndMatchingBatches) {
  EXPECT_THAT([] { bmm(ones({2, 3}), ones({1, 3, 2})); },
              ThrowsMessage<Error>(HasSubstr("[bmm] batch1 must be a 3D tensor")));
  EXPECT_THAT([] { bmm(ones({1, 2, 3}), ones({3, 2})); },
              ThrowsMessage<Error>(HasSubstr("[bmm] batch2 must be a 3D tensor")));
  EXPECT_THAT([] { bmm(ones({2, 2, 3}), ones({3, 3, 2})); },
              ThrowsMessage<Error>(HasSubstr("[bmm] Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [3, 3].")));
}

TEST(LinalgErrors, AddmmChecksMatricesSelfShapeAndDtype) {
  EXPECT_THAT([] { addmm(ones({2}), ones({2}), ones({2, 2})); },
              ThrowsMessage<Error>(HasSubstr("[addmm] mat1 must be a matrix, got 1-D tensor")));
  EXPECT_THAT([] { addmm(ones({2}), ones({2, 2}), ones({2})); },
              ThrowsMessage<Error>(HasSubstr("[addmm] mat2 must be a matrix, got 1-D tensor")));
  EXPECT_THAT([] { addmm(ones({2}), ones({2, 3}), ones({4, 2})); },
              ThrowsMessage<Error>(HasSubstr("[addmm] mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)")));
  EXPECT_THAT([] { addmm(ones({3}), ones({2, 2}), ones({2, 5})); },
              ThrowsMessage<Error>(HasSubstr("[addmm] The expanded size of the tensor (5) must match the existing size (3) at non-singleton dimension 1.  Target sizes: (2, 5).  Tensor sizes: (3,)")));
  EXPECT_THAT([] { addmm(ones({1, 2, 2}), ones({2, 2}), ones({2, 2})); },
              ThrowsMessage<Error>(HasSubstr("[addmm] self must broadcast to the result's shape (2, 2) but has 3 dims")));
  EXPECT_THAT([] { addmm(ones({2}, dtype(kFloat64)), ones({2, 2}), ones({2, 2})); },
              ThrowsMessage<Error>(HasSubstr("[addmm] self and mat2 must have the same dtype, but got double and float")));
  EXPECT_THAT([] { addmm(ones({2}), ones({2, 2}), ones({2, 2}, dtype(kFloat64))); },
              ThrowsMessage<Error>(HasSubstr("[addmm] expected m1 and m2 to have the same dtype, but got: float != double")));
}

TEST(LinalgErrors, UndefinedOperandsAreRejected) {
  EXPECT_THAT([] { matmul(Tensor(), ones({2})); },
              ThrowsMessage<Error>(HasSubstr("[matmul] expected a defined tensor for the first operand")));
  EXPECT_THAT([] { addmm(Tensor(), ones({2, 2}), ones({2, 2})); },
              ThrowsMessage<Error>(HasSubstr("[addmm] expected a defined tensor for self")));
}
