// Issue 25's differentiable reductions and scans: autograd's gradients against central
// differences in float64 (tests/support/gradcheck.h), including the points torch treats
// specially: zeros in prod and cumprod, ties in amax/amin (split evenly, checked by value
// since the max is not differentiable there), a zero vector's norm.

#include <gtest/gtest.h>

#include <limits>

#include "support/gradcheck.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::gradcheck;
using test::rnd;
using V = const std::vector<Tensor>&;

bool near(const Tensor& a, const Tensor& b) {
  return (a - b).abs().max().item<double>() < 1e-12;
}

/// rnd with some elements set to exactly 0 (flat positions `at`).
Tensor with_zeros(std::vector<int64_t> shape, uint64_t seed, const std::vector<int64_t>& at) {
  Tensor t = rnd(shape, seed).reshape({-1});
  for (int64_t i : at) t.narrow(0, i, 1).fill_(0);
  return t.reshape(shape);
}

TEST(ReduceGradcheck, ProdWholeAndAlongADim) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].prod(); }, {rnd({3, 4}, 1)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].prod(1); }, {rnd({3, 4}, 2)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].prod(0, true); }, {rnd({3, 4}, 3)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].prod(0); }, {rnd({}, 4)}));
}

TEST(ReduceGradcheck, ProdWithOneOrTwoZerosInASlice) {
  // Row 0 has one zero (its gradient is the product of the others), row 1 two (all zero).
  EXPECT_TRUE(gradcheck([](V x) { return x[0].prod(1); }, {with_zeros({2, 4}, 5, {1, 4, 6})}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].prod(); }, {with_zeros({2, 3}, 6, {2})}));
  // Two zeros in the whole tensor: every gradient is 0.
  Tensor x = with_zeros({2, 3}, 7, {0, 4}).requires_grad_();
  x.prod().backward();
  EXPECT_TRUE(near(x.grad(), zeros({2, 3}, dtype(kFloat64))));
}

TEST(ReduceGradcheck, AmaxAminOverDimLists) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].amax({1}); }, {rnd({3, 4}, 8)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].amin({0, 2}, true); }, {rnd({2, 3, 4}, 9)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].amax(); }, {rnd({2, 3}, 10)}));
}

TEST(ReduceGradcheck, AmaxSplitsTheGradientEvenlyAmongTies) {
  // torch: amax's gradient is shared by every element equal to the max (max() too).
  Tensor x = tensor({{1.0, 3.0, 3.0}, {2.0, 5.0, 5.0}}, dtype(kFloat64)).requires_grad_();
  amax(x, {1}).sum().backward();
  EXPECT_TRUE(near(x.grad(), tensor({{0.0, 0.5, 0.5}, {0.0, 0.5, 0.5}}, dtype(kFloat64))));
}

TEST(ReduceGradcheck, VarStdAndTheirMeanForms) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].var(); }, {rnd({3, 4}, 11)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].std({1}, false, true); }, {rnd({3, 4}, 12)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].var({0, 2}, std::optional<int64_t>(2)); },
                        {rnd({3, 2, 4}, 13)}));
  EXPECT_TRUE(gradcheck([](V x) {
    auto [s, m] = std_mean(x[0], {1}, 1);
    return s + m;
  }, {rnd({3, 4}, 14)}));
}

TEST(ReduceGradcheck, VectorNormForEveryOrd) {
  for (double p : {2.0, 1.0, 3.0, 0.5, std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity()}) {
    SCOPED_TRACE(p);
    EXPECT_TRUE(gradcheck([p](V x) { return linalg_vector_norm(x[0], p); }, {rnd({3, 4}, 15)}));
    EXPECT_TRUE(gradcheck([p](V x) { return linalg_vector_norm(x[0], p, {1}, true); },
                          {rnd({3, 4}, 16)}));
  }
  EXPECT_TRUE(gradcheck([](V x) { return x[0].norm(2, {0, 1}); }, {rnd({2, 3, 2}, 17)}));
}

TEST(ReduceGradcheck, NormOfAZeroVectorHasAZeroGradient) {
  // torch masks the 0/0 of x / norm: a zero vector gets 0, not NaN.
  Tensor x = zeros({3}, dtype(kFloat64)).requires_grad_();
  x.norm().backward();
  EXPECT_TRUE(near(x.grad(), zeros({3}, dtype(kFloat64))));
  Tensor y = zeros({3}, dtype(kFloat64)).requires_grad_();
  (linalg_vector_norm(y, 0) + 1).backward();
  EXPECT_TRUE(near(y.grad(), zeros({3}, dtype(kFloat64))));
}

TEST(ReduceGradcheck, LogsumexpIsTheSoftmax) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].logsumexp({1}); }, {rnd({3, 4}, 18)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].logsumexp({0, 1}, true); }, {rnd({3, 4}, 19)}));
  Tensor x = rnd({2, 5}, 20).requires_grad_();
  logsumexp(x, {1}).sum().backward();
  EXPECT_TRUE(near(x.grad(), softmax(x.detach(), 1)));
}

TEST(ReduceGradcheck, CumsumAndCumprodAlongEachDim) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].cumsum(1); }, {rnd({3, 4}, 21)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].cumsum(0); }, {rnd({3, 4}, 22)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].cumprod(1); }, {rnd({3, 4}, 23)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].cumprod(-1); }, {rnd({2, 3, 4}, 24)}));
}

TEST(ReduceGradcheck, CumprodWithZeros) {
  // One zero, two zeros, and a zero first in its line.
  EXPECT_TRUE(gradcheck([](V x) { return x[0].cumprod(1); },
                        {with_zeros({3, 5}, 25, {2, 6, 8, 10})}));
}

TEST(ReduceGradcheck, SortTopkKthvalueMedianModeThroughTheirIndices) {
  // Random inputs have no ties, so each selection is differentiable.
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].sort(1)); }, {rnd({3, 4}, 26)}));
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].sort(0, true)); }, {rnd({3, 4}, 27)}));
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].topk(2, 1)); }, {rnd({3, 5}, 28)}));
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].topk(2, 0, false)); }, {rnd({3, 5}, 29)}));
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].kthvalue(2, 1)); }, {rnd({3, 5}, 30)}));
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].median(1, true)); }, {rnd({3, 5}, 31)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].median(); }, {rnd({3, 5}, 32)}));
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].mode(0)); }, {rnd({3, 5}, 33)}));
}

TEST(ReduceGradcheck, CummaxCumminSumTheGradientOfARun) {
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].cummax(1)); }, {rnd({3, 6}, 34)}));
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].cummin(0)); }, {rnd({5, 2}, 35)}));
  // [1, 3, 2, 5]: out = [1, 3, 3, 5] comes from positions [0, 1, 1, 3].
  Tensor x = tensor({1.0, 3.0, 2.0, 5.0}, dtype(kFloat64)).requires_grad_();
  (std::get<0>(x.cummax(0)) * tensor({1.0, 10.0, 100.0, 1000.0}, dtype(kFloat64))).sum().backward();
  EXPECT_TRUE(near(x.grad(), tensor({1.0, 110.0, 0.0, 1000.0}, dtype(kFloat64))));
}

}  // namespace
}  // namespace tide
