// Every op with a derivative, checked against central differences on cpu in float64
// (tests/support/gradcheck.h). Inputs are random (fixed seed) away from the points where an op
// is not differentiable (abs and relu at 0, ties of max, clamp's bounds) with probability 1.

#include "support/gradcheck.h"
#include "support/table_samples.h"

#include <gtest/gtest.h>

#include "tide/tide.h"

namespace tide {
namespace {

using test::gradcheck;
using test::rnd;
using V = const std::vector<Tensor>&;

Tensor positive(std::vector<int64_t> shape, uint64_t seed) {
  manual_seed(seed);
  return rand(std::move(shape), dtype(kFloat64)) + 0.5;
}

TEST(Gradcheck, AddSubWithAlphaAndBroadcasting) {
  EXPECT_TRUE(gradcheck([](V x) { return add(x[0], x[1], 2.5); }, {rnd({2, 3}, 1), rnd({3}, 2)}));
  EXPECT_TRUE(
      gradcheck([](V x) { return sub(x[0], x[1], 0.5); }, {rnd({2, 1}, 3), rnd({2, 3}, 4)}));
  EXPECT_TRUE(gradcheck([](V x) { return add(x[0], 3.0, 2.0) + sub(x[0], 1.0); }, {rnd({4}, 5)}));
  EXPECT_TRUE(gradcheck([](V x) { return 2.0 - x[0]; }, {rnd({4}, 6)}));
}

TEST(Gradcheck, MulDivAndScalarForms) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0] * x[1]; }, {rnd({2, 3}, 7), rnd({1, 3}, 8)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0] / x[1]; }, {rnd({2, 3}, 9), positive({2, 3}, 10)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0] * 3.0 + x[0] / 4.0; }, {rnd({3}, 11)}));
  EXPECT_TRUE(gradcheck([](V x) { return 2.0 / x[0]; }, {positive({3}, 12)}));
}

TEST(Gradcheck, MixedDtypeOperandsGetGradientsInTheirOwnDtype) {
  // float64 * float32: the float32 operand is a constant here; the float64 one's gradient is
  // computed in the promoted dtype and cast back.
  const Tensor c = rnd({3}, 13).to(kFloat32);
  EXPECT_TRUE(gradcheck([c](V x) { return x[0] * c; }, {rnd({3}, 14)}));
}

TEST(Gradcheck, PowInAllThreeForms) {
  EXPECT_TRUE(
      gradcheck([](V x) { return pow(x[0], x[1]); }, {positive({2, 3}, 15), rnd({2, 3}, 16)}));
  EXPECT_TRUE(gradcheck([](V x) { return pow(x[0], 3); }, {rnd({4}, 17)}));
  EXPECT_TRUE(gradcheck([](V x) { return pow(x[0], 0.5); }, {positive({4}, 18)}));
  EXPECT_TRUE(gradcheck([](V x) { return pow(2.0, x[0]); }, {rnd({4}, 19)}));
}

TEST(Gradcheck, MaximumMinimumWhereClamp) {
  EXPECT_TRUE(gradcheck([](V x) { return maximum(x[0], x[1]); }, {rnd({2, 3}, 20), rnd({3}, 21)}));
  EXPECT_TRUE(
      gradcheck([](V x) { return minimum(x[0], x[1]); }, {rnd({2, 3}, 22), rnd({2, 3}, 23)}));
  const Tensor cond = gt(rnd({2, 3}, 24), 0);
  EXPECT_TRUE(
      gradcheck([cond](V x) { return where(cond, x[0], x[1]); }, {rnd({2, 3}, 25), rnd({3}, 26)}));
  EXPECT_TRUE(gradcheck([cond](V x) { return where(cond, x[0], 1.5); }, {rnd({2, 3}, 27)}));
  EXPECT_TRUE(gradcheck([cond](V x) { return where(cond, -1.5, x[0]); }, {rnd({2, 3}, 28)}));
  EXPECT_TRUE(gradcheck([](V x) { return clamp(x[0], -0.5, 0.5); }, {rnd({10}, 29)}));
  EXPECT_TRUE(gradcheck([](V x) { return clamp(x[0], std::nullopt, 0.3); }, {rnd({10}, 30)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].clamp(-0.2); }, {rnd({10}, 31)}));
}

TEST(Gradcheck, UnaryOps) {
  EXPECT_TRUE(gradcheck([](V x) { return neg(x[0]); }, {rnd({5}, 32)}));
  EXPECT_TRUE(gradcheck([](V x) { return abs(x[0]); }, {rnd({5}, 33)}));
  EXPECT_TRUE(gradcheck([](V x) { return exp(x[0]); }, {rnd({5}, 34)}));
  EXPECT_TRUE(gradcheck([](V x) { return log(x[0]); }, {positive({5}, 35)}));
  EXPECT_TRUE(gradcheck([](V x) { return sqrt(x[0]); }, {positive({5}, 36)}));
  EXPECT_TRUE(gradcheck([](V x) { return relu(x[0]); }, {rnd({8}, 37)}));
  EXPECT_TRUE(gradcheck([](V x) { return sigmoid(x[0]); }, {rnd({5}, 38)}));
  EXPECT_TRUE(gradcheck([](V x) { return tanh(x[0]); }, {rnd({5}, 39)}));
  EXPECT_TRUE(gradcheck([](V x) { return -x[0]; }, {rnd({5}, 40)}));
}

// Every op table sample with derivatives (tests/support/table_samples.h), and its in-place form
// on a copy of operand 0 (the shared formula, with self's value saved before the write).
TEST(Gradcheck, TableSamplesAndTheirInPlaceForms) {
  uint64_t seed = 1000;
  const std::vector<std::vector<int64_t>> shapes = {{2, 3}, {3}, {2, 1}};
  for (const test::TableSample& s : test::table_samples()) {
    if (s.differentiable.empty()) continue;
    SCOPED_TRACE(s.name);
    manual_seed(seed++);
    std::vector<Tensor> in;
    for (int i = 0; i < s.tensors; ++i) in.push_back(test::sample_input(s.domains[i], shapes[i], kFloat64));
    EXPECT_TRUE(gradcheck([&s](V x) { return s.op(x); }, in));
    if (s.inplace) {
      // in place needs self of the broadcast shape
      in[0] = test::sample_input(s.domains[0], {2, 3}, kFloat64);
      EXPECT_TRUE(gradcheck([&s](V x) {
        std::vector<Tensor> copy = x;
        copy[0] = x[0].clone();
        return s.inplace(copy);
      }, in));
    }
  }
}

TEST(Gradcheck, SumAndMeanOverAllAndSomeDims) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].sum(); }, {rnd({2, 3}, 41)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].sum(1); }, {rnd({2, 3}, 42)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].sum({0, 2}, true); }, {rnd({2, 3, 4}, 43)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].sum(-1, false, kFloat32).to(kFloat64); },
                        {rnd({2, 3}, 44)}, 1e-3, 1e-3, 1e-2));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].mean(); }, {rnd({2, 3}, 45)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].mean(0, true); }, {rnd({2, 3}, 46)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].mean({1, 2}); }, {rnd({2, 3, 4}, 47)}));
}

TEST(Gradcheck, MaxMinWholeTensorAndAlongADim) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].max(); }, {rnd({2, 3}, 48)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].min(); }, {rnd({2, 3}, 49)}));
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].max(1)); }, {rnd({3, 4}, 50)}));
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(x[0].min(0, true)); }, {rnd({3, 4}, 51)}));
  EXPECT_TRUE(gradcheck([](V x) { return std::get<0>(max(x[0], -1)); }, {rnd({2, 3, 4}, 52)}));
}

TEST(Gradcheck, WholeTensorMaxSplitsTheGradientAmongTies) {
  Tensor x = tensor({1.0, 3.0, 3.0, 2.0}, dtype(kFloat64)).requires_grad_();
  x.max().backward();
  EXPECT_EQ(x.grad().tolist<double>(), (std::vector<double>{0, 0.5, 0.5, 0}));
}

TEST(Gradcheck, MatrixProducts) {
  EXPECT_TRUE(gradcheck([](V x) { return mm(x[0], x[1]); }, {rnd({2, 3}, 53), rnd({3, 4}, 54)}));
  EXPECT_TRUE(
      gradcheck([](V x) { return bmm(x[0], x[1]); }, {rnd({2, 2, 3}, 55), rnd({2, 3, 2}, 56)}));
  EXPECT_TRUE(gradcheck([](V x) { return addmm(x[0], x[1], x[2], 0.5, 2.0); },
                        {rnd({4}, 57), rnd({2, 3}, 58), rnd({3, 4}, 59)}));
  EXPECT_TRUE(gradcheck([](V x) { return addmm(x[0], x[1], x[2]); },
                        {rnd({2, 4}, 60), rnd({2, 3}, 61), rnd({3, 4}, 62)}));
}

TEST(Gradcheck, MatmulInEveryCase) {
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> cases = {
      {{3}, {3}},
      {{2, 3}, {3}},
      {{3}, {3, 2}},
      {{2, 3}, {3, 4}},
      {{2, 2, 3}, {3}},
      {{2, 2, 3}, {3, 2}},
      {{2, 2, 3}, {2, 3, 2}},
      {{3}, {2, 3, 2}},
      {{2, 1, 2, 3}, {3, 3, 2}}};
  uint64_t seed = 63;
  for (const auto& [sa, sb] : cases) {
    EXPECT_TRUE(
        gradcheck([](V x) { return matmul(x[0], x[1]); }, {rnd(sa, seed), rnd(sb, seed + 1)}))
        << "shapes " << sa.size() << "-D @ " << sb.size() << "-D";
    seed += 2;
  }
}

TEST(Gradcheck, ViewOps) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].view({3, 2}); }, {rnd({2, 3}, 80)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].t().reshape({6}); }, {rnd({2, 3}, 81)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].flatten(); }, {rnd({2, 3, 2}, 82)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].transpose(0, 2); }, {rnd({2, 3, 4}, 83)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].permute({2, 0, 1}); }, {rnd({2, 3, 4}, 84)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].narrow(1, 1, 2); }, {rnd({2, 4}, 85)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].slice(0, 1, std::nullopt, 2); }, {rnd({5, 2}, 86)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].select(1, -1); }, {rnd({2, 3}, 87)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0][1]; }, {rnd({3, 2}, 88)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].index({Slice(), 1}); }, {rnd({3, 2}, 89)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].unsqueeze(1); }, {rnd({3}, 90)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].squeeze(); }, {rnd({1, 3, 1}, 91)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].squeeze(0); }, {rnd({1, 3}, 92)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].expand({2, 3, 4}); }, {rnd({3, 1}, 93)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].expand_as(x[1]) * x[1]; },
                        {rnd({1, 4}, 94), rnd({3, 4}, 95)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].t().contiguous(); }, {rnd({2, 3}, 96)}));
}

TEST(Gradcheck, ChunkSplitCatStack) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].chunk(2, 1)[1]; }, {rnd({2, 5}, 97)}));
  EXPECT_TRUE(gradcheck(
      [](V x) {
        auto parts = x[0].split(std::vector<int64_t>{1, 3}, 0);
        return parts[0] * 2 + parts[1].sum(0, true);
      },
      {rnd({4, 2}, 98)}));
  EXPECT_TRUE(gradcheck(
      [](V x) {
        return cat({x[0], x[1], x[0]}, 1);
      },
      {rnd({2, 2}, 99), rnd({2, 3}, 100)}));
  EXPECT_TRUE(gradcheck(
      [](V x) {
        return stack({x[0], x[1]}, 1);
      },
      {rnd({2, 3}, 101), rnd({2, 3}, 102)}));
}

TEST(Gradcheck, IndexSelectWithRepeatedIndices) {
  const Tensor idx = tensor({2, 0, 2, 1});
  EXPECT_TRUE(gradcheck([idx](V x) { return x[0].index_select(0, idx); }, {rnd({3, 2}, 103)}));
  EXPECT_TRUE(gradcheck([idx](V x) { return index_select(x[0], 1, idx); }, {rnd({2, 3, 2}, 104)}));
  EXPECT_TRUE(gradcheck([idx](V x) { return index_select(x[0], 0, idx); }, {rnd({3}, 105)}));
}

TEST(Gradcheck, CopiesAcrossDtypes) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].clone() * 2; }, {rnd({3}, 106)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].to(kFloat32).to(kFloat64); }, {rnd({3}, 107)}, 1e-3,
                        1e-3, 1e-3));
  EXPECT_TRUE(gradcheck(
      [](V x) {
        Tensor buf = zeros({3}, dtype(kFloat64));
        buf.copy_(x[0]);
        return buf * x[0];
      },
      {rnd({3}, 108)}));
}

TEST(Gradcheck, SoftmaxAndLogSoftmax) {
  EXPECT_TRUE(gradcheck([](V x) { return softmax(x[0], 1); }, {rnd({2, 4}, 109)}));
  EXPECT_TRUE(gradcheck([](V x) { return softmax(x[0], 0); }, {rnd({3, 2}, 110)}));
  EXPECT_TRUE(gradcheck([](V x) { return log_softmax(x[0], -1); }, {rnd({2, 4}, 111)}));
}

TEST(Gradcheck, NllLossAndCrossEntropyWithWeightsIgnoreIndexAndReductions) {
  const Tensor target = tensor({1, 0, 3, 1, 2});
  const Tensor ignored = tensor({1, -100, 3, 1, -100});
  const Tensor weight = tensor({0.5, 2.0, 1.0, 3.0}, dtype(kFloat64));
  for (Reduction r : {Reduction::Mean, Reduction::Sum, Reduction::None}) {
    EXPECT_TRUE(gradcheck([&](V x) { return nll_loss(log_softmax(x[0], 1), target, {}, r); },
                          {rnd({5, 4}, 112)}));
    EXPECT_TRUE(
        gradcheck([&](V x) { return nll_loss(x[0], ignored, weight, r); }, {rnd({5, 4}, 113)}));
    EXPECT_TRUE(
        gradcheck([&](V x) { return cross_entropy(x[0], target, weight, r); }, {rnd({5, 4}, 114)}));
    EXPECT_TRUE(gradcheck([&](V x) { return cross_entropy(x[0], ignored, {}, r, -100); },
                          {rnd({5, 4}, 115)}));
    EXPECT_TRUE(gradcheck([&](V x) { return cross_entropy(x[0], tensor(int64_t{2}), weight, r); },
                          {rnd({4}, 116)}));
  }
}

TEST(Gradcheck, CrossEntropyWithProbabilitiesSmoothingAndSpatialInputs) {
  const Tensor weight = tensor({0.5, 2.0, 1.0, 3.0}, dtype(kFloat64));
  const Tensor probs = softmax(rnd({5, 4}, 130), 1);
  const Tensor ignored = tensor({1, -100, 3, 1, -100});
  const Tensor spatial = tensor({{0, 3, -100}, {2, 1, 1}});
  for (Reduction r : {Reduction::Mean, Reduction::Sum, Reduction::None}) {
    EXPECT_TRUE(gradcheck([&](V x) { return cross_entropy(x[0], x[1], weight, r, -100, 0.2); },
                          {rnd({5, 4}, 131), probs}));
    EXPECT_TRUE(gradcheck([&](V x) { return cross_entropy(x[0], ignored, weight, r, -100, 0.1); },
                          {rnd({5, 4}, 132)}));
    EXPECT_TRUE(gradcheck([&](V x) { return cross_entropy(x[0], spatial, weight, r, -100, 0.3); },
                          {rnd({2, 4, 3}, 133)}));
  }
}

TEST(Gradcheck, RegressionAndBinaryLosses) {
  // Differences kept away from the kinks (0 for l1, beta and delta for the smooth ones).
  const Tensor target = rnd({3, 4}, 140);
  const Tensor labels = tensor({{0.0, 1.0, 0.5, 1.0}, {1.0, 0.0, 0.0, 1.0}, {0.25, 1.0, 0.0, 0.0}},
                               dtype(kFloat64));
  const Tensor w = positive({4}, 141);
  for (Reduction r : {Reduction::Mean, Reduction::Sum, Reduction::None}) {
    EXPECT_TRUE(gradcheck([&](V x) { return mse_loss(x[0], x[1], r); },
                          {rnd({3, 4}, 142), rnd({3, 4}, 143)}));
    EXPECT_TRUE(gradcheck([&](V x) { return l1_loss(x[0], target, r); }, {rnd({3, 4}, 144)}));
    EXPECT_TRUE(
        gradcheck([&](V x) { return smooth_l1_loss(x[0], target, r, 0.7); }, {rnd({3, 4}, 145)}));
    EXPECT_TRUE(
        gradcheck([&](V x) { return huber_loss(x[0], target, r, 0.6); }, {rnd({3, 4}, 146)}));
    EXPECT_TRUE(gradcheck([&](V x) { return binary_cross_entropy(sigmoid(x[0]), labels, w, r); },
                          {rnd({3, 4}, 147)}));
    EXPECT_TRUE(gradcheck(
        [&](V x) { return binary_cross_entropy_with_logits(x[0], labels, w, x[1], r); },
        {rnd({3, 4}, 148), positive({4}, 149)}));
    EXPECT_TRUE(gradcheck([&](V x) { return kl_div(log_softmax(x[0], 1), x[1], r); },
                          {rnd({3, 4}, 150), positive({3, 4}, 151)}));
    EXPECT_TRUE(gradcheck([&](V x) { return kl_div(x[0], x[1], r, /*log_target=*/true); },
                          {rnd({3, 4}, 152), rnd({3, 4}, 153)}));
  }
}

TEST(Gradcheck, MarginLosses) {
  const Tensor sign = tensor({1.0, -1.0, 1.0, -1.0, -1.0}, dtype(kFloat64));
  const Tensor pair_sign = tensor({1.0, -1.0, -1.0}, dtype(kFloat64));
  for (Reduction r : {Reduction::Mean, Reduction::Sum, Reduction::None}) {
    EXPECT_TRUE(gradcheck([&](V x) { return margin_ranking_loss(x[0], x[1], sign, 0.3, r); },
                          {rnd({5}, 160), rnd({5}, 161)}));
    EXPECT_TRUE(gradcheck([&](V x) { return cosine_embedding_loss(x[0], x[1], pair_sign, -0.9, r); },
                          {rnd({3, 4}, 162), rnd({3, 4}, 163)}));
  }
}

TEST(Gradcheck, Activations) {
  EXPECT_TRUE(gradcheck([](V x) { return gelu(x[0]); }, {rnd({3, 4}, 170) * 2.0}));
  EXPECT_TRUE(gradcheck([](V x) { return gelu(x[0], "tanh"); }, {rnd({3, 4}, 171) * 2.0}));
  EXPECT_TRUE(gradcheck([](V x) { return silu(x[0]) + mish(x[0]); }, {rnd({3, 4}, 172) * 2.0}));
  // beta x crosses the threshold on both sides: the linear part and log(1 + e^(beta x)).
  EXPECT_TRUE(gradcheck([](V x) { return softplus(x[0], 2.0, 1.0); }, {rnd({3, 4}, 173)}));
  EXPECT_TRUE(gradcheck([](V x) { return leaky_relu(x[0], 0.2) + elu(x[0], 0.7, 1.5, 0.5); },
                        {rnd({3, 4}, 174)}));
  EXPECT_TRUE(gradcheck([](V x) { return hardtanh(x[0], -0.5, 0.8); }, {rnd({3, 4}, 175)}));
  EXPECT_TRUE(gradcheck([](V x) { return prelu(x[0], x[1]); }, {rnd({2, 3, 4}, 176), rnd({3}, 177)}));
  EXPECT_TRUE(gradcheck([](V x) { return prelu(x[0], x[1]); }, {rnd({2, 3}, 178), rnd({1}, 179)}));
}

TEST(Gradcheck, NormsEmbeddingAndDistances) {
  EXPECT_TRUE(gradcheck([](V x) { return layer_norm(x[0], {3, 4}, x[1], x[2]); },
                        {rnd({2, 3, 4}, 180), rnd({3, 4}, 181), rnd({3, 4}, 182)}));
  EXPECT_TRUE(gradcheck([](V x) { return group_norm(x[0], 2, x[1], x[2]); },
                        {rnd({2, 4, 3}, 183), rnd({4}, 184), rnd({4}, 185)}));
  const Tensor idx = tensor({{0, 4, 2}, {2, 2, 1}});
  // No padding_idx: its row's zero gradient is by design, not the numeric derivative (tested
  // below).
  EXPECT_TRUE(gradcheck([&](V x) { return embedding(x[0], idx); }, {rnd({5, 3}, 186)}));
  EXPECT_TRUE(gradcheck([](V x) { return normalize(x[0]) + normalize(x[0], 3.0, 0); },
                        {rnd({3, 4}, 187)}));
  EXPECT_TRUE(gradcheck([](V x) { return cosine_similarity(x[0], x[1]); },
                        {rnd({3, 4}, 188), rnd({3, 4}, 189)}));
  EXPECT_TRUE(gradcheck([](V x) { return pairwise_distance(x[0], x[1], 1.5); },
                        {rnd({3, 4}, 190), rnd({3, 4}, 191)}));
}

TEST(Gradcheck, EmbeddingGivesThePaddingRowNoGradient) {
  Tensor table = ones({3, 2}).requires_grad_();
  embedding(table, tensor({0, 1, 1, 2}), 1).sum().backward();
  EXPECT_EQ(table.grad().tolist<float>(), (std::vector<float>{1, 1, 0, 0, 1, 1}));
}

TEST(Gradcheck, ActivationsStayFiniteWhereTheirExpOverflows) {
  // The branch where() does not take still runs: its exp must not overflow into 0 * inf.
  Tensor x = tensor({100.f, -100.f, 0.5f}).requires_grad_();
  (softplus(x) + elu(x) + mish(x)).sum().backward();
  for (float g : x.grad().tolist<float>()) EXPECT_TRUE(std::isfinite(g)) << g;
}

TEST(Gradcheck, BinaryCrossEntropyStaysFiniteAtSaturatedProbabilities) {
  // sigmoid rounds to exactly 1 in float32 for large scores: torch clamps log(1 - p) at -100,
  // and the gradient must not turn into 0 * inf = nan.
  Tensor x = tensor({20.f, -20.f, 0.f}).requires_grad_();
  Tensor loss = binary_cross_entropy(sigmoid(x), tensor({1.f, 0.f, 1.f}));
  loss.backward();
  for (float g : x.grad().tolist<float>()) EXPECT_TRUE(std::isfinite(g)) << g;
  EXPECT_TRUE(std::isfinite(loss.item<float>()));
}

TEST(Gradcheck, InPlaceOpsOnNonLeaves) {
  EXPECT_TRUE(gradcheck(
      [](V x) {
        Tensor y = x[0] * 1.0;
        y.add_(x[1], 2.0).mul_(x[1]).sub_(1.5).div_(x[2]).mul_(3.0);
        return y;
      },
      {rnd({3}, 117), rnd({3}, 118), positive({3}, 119)}));
  EXPECT_TRUE(gradcheck(
      [](V x) {
        Tensor y = x[0] * 2.0;  // MulBackward1 saves nothing, so y may be modified
        y += x[1];
        y -= x[1] * 0.5;
        y *= 2.0;
        y /= 4.0;
        return y;
      },
      {rnd({3}, 120), rnd({3}, 121)}));
  EXPECT_TRUE(gradcheck(
      [](V x) {
        Tensor y = x[0] * 2;
        y.fill_(x[1].sum());
        return y + x[0];
      },
      {rnd({3}, 122), rnd({2}, 123)}));
}

TEST(Gradcheck, InPlaceOpsOnViews) {
  EXPECT_TRUE(gradcheck(
      [](V x) {
        Tensor y = x[0] * 1.0;
        y.narrow(1, 1, 2).mul_(x[1]);          // a view written with an operand
        y.select(1, 0).add_(x[2].exp(), 0.5);  // another view of the same base
        y.t()[2].div_(x[2]);                   // a view of a view
        return y * y;
      },
      {rnd({3, 4}, 128), rnd({3, 2}, 129), positive({3}, 130)}));
  EXPECT_TRUE(gradcheck(
      [](V x) {
        Tensor y = x[0] * 2.0;
        Tensor row = y[1];
        y.mul_(x[1]);  // the base written in place after the view was taken
        return row * 3 + y.sum(0);
      },
      {rnd({2, 3}, 131), rnd({2, 3}, 132)}));
}

TEST(Gradcheck, ACompositeTrainingStep) {
  const Tensor target = tensor({0, 2, 1});
  EXPECT_TRUE(gradcheck(
      [&](V x) {
        const Tensor h = relu(addmm(x[2], x[0], x[1].t()));
        return cross_entropy(h.matmul(x[3]), target);
      },
      {rnd({3, 4}, 124), rnd({5, 4}, 125), rnd({5}, 126), rnd({5, 3}, 127)}));
}

}  // namespace
}  // namespace tide
