// Every core op on every cuda device against the same op on cpu (as ggml's test-backend-ops):
// simulated GPUs run the cpu kernels, so results must match bit for bit; real GPUs must match
// as test::matches_cpu says (bit for bit except floating results, which must be close). Each op runs with
// another device current, and once more on a non-default current stream of its device, and
// its results must live on the operands' device (the seeds: "the results will be always
// placed on the same device as the tensor").

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "device_helpers.h"
#include "support/cudnn_switches_guard.h"
#include "support/table_samples.h"
#include "tide/autograd.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"

using namespace tide;
using test::cuda_device;
using test::other_device;
using test::same_bits;

namespace {

using Tensors = std::vector<Tensor>;
using OpFn = std::function<Tensors(const Tensors&)>;

Tensors on(const Tensors& inputs, Device device) {
  Tensors out;
  for (const Tensor& t : inputs) out.push_back(t.defined() ? t.to(device) : t);
  return out;
}

/// Which results must equal the cpu's bit for bit on real GPUs as well: results that only move
/// or select data, and Philox uniform and integer draws (Note [Random transforms]). The others
/// follow test::matches_cpu (close floating results on real GPUs); simulated GPUs give the
/// cpu's bits for every result either way.
struct Exact {
  bool all = false;
  std::vector<size_t> results;
  bool operator()(size_t i) const {
    return all || std::find(results.begin(), results.end(), i) != results.end();
  }
};
const Exact kAllExact{true, {}};

void expect_results_match(const Tensors& expected, const Tensors& got, int device,
                          const Exact& exact) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].device(), cuda_device(device)) << "result " << i;
    EXPECT_TRUE(exact(i) ? same_bits(expected[i], got[i]) : test::matches_cpu(expected[i], got[i]))
        << "result " << i;
  }
}

/// Runs `op` on the cpu inputs, then on copies of them on every cuda device, (1) with another
/// device current and (2) also with a pooled stream current on the operands' device, and
/// expects the cpu's results on the operands' device: bit for bit on simulated GPUs, as
/// test::matches_cpu and `exact` say on real GPUs.
void expect_matches_cpu(const std::string& what, const Tensors& inputs, const OpFn& op,
                        const Exact& exact = {}) {
  SCOPED_TRACE(what);
  const Tensors expected = op(inputs);
  for (const Tensor& t : expected) ASSERT_TRUE(t.is_cpu());
  for (int d = 0; d < cuda::device_count(); ++d) {
    SCOPED_TRACE("on cuda:" + std::to_string(d));
    const Tensors moved = on(inputs, cuda_device(d));
    {
      cuda::DeviceGuard other(other_device(d));
      const Tensors got = op(moved);
      EXPECT_EQ(cuda::current_device(), other_device(d));
      expect_results_match(expected, got, d, exact);
    }
    {
      cuda::DeviceGuard other(other_device(d));
      const cuda::Stream side(d);
      cuda::set_stream(side);
      const Tensors got = op(moved);
      // Read back on the side stream, where the results were computed.
      expect_results_match(expected, got, d, exact);
      cuda::set_stream(cuda::default_stream(d));
    }
  }
}

/// Inputs with a fixed seed (cpu).
struct Inputs {
  Inputs() {
    manual_seed(2024);
    a = randn({3, 4});
    b = randn({4});
    c = randn({3, 1});
    ia = randint(-5, 6, {3, 4});
    ib = randint(1, 6, {4});
    x = randn({4, 5, 6});
  }
  Tensor a, b, c, ia, ib, x;
};

}  // namespace

TEST(OpsVsCpu, ArithmeticWithScalarsAndBroadcastingMatchesCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  Inputs in;
  const Tensors fl{in.a, in.b, in.c};
  expect_matches_cpu("add", fl, [](const Tensors& t) {
    return Tensors{add(t[0], t[1]), add(t[0], t[2], 2.5), t[0] + 1.5, 2 + t[0], t[2] + t[1]};
  });
  expect_matches_cpu("sub", fl, [](const Tensors& t) {
    return Tensors{sub(t[0], t[1]), t[0].sub(t[2], 0.5), t[0] - 3, 1 - t[0], -t[0]};
  });
  expect_matches_cpu("mul", fl, [](const Tensors& t) {
    return Tensors{mul(t[0], t[1]), t[2] * t[1], t[0] * 0.1, 3 * t[0]};
  });
  expect_matches_cpu("div", fl, [](const Tensors& t) {
    return Tensors{div(t[0], t[1]), t[0] / t[2], t[0] / 3, 1 / t[0], t[0] / 0.0};
  });
  expect_matches_cpu("in place", fl, [](const Tensors& t) {
    Tensor x = t[0].clone();
    x.add_(t[1]).mul_(2).sub_(t[2], 3).div_(t[1]);
    x += 1;
    x *= t[2];
    return Tensors{x};
  });
  expect_matches_cpu("integer arithmetic and promotion", {in.ia, in.ib, in.a},
                     [](const Tensors& t) {
                       return Tensors{t[0] + t[1], t[0] * 3,    t[0] - t[1], t[0] / t[1],
                                      t[0] / 2,    t[0] + t[2], t[0] * 0.5};
                     });
  expect_matches_cpu("out variants", fl, [](const Tensors& t) {
    Tensor out = empty({3, 4}, TensorOptions(t[0].device()));
    add_out(out, t[0], t[1], 2);
    Tensor out2 = empty({3, 4}, TensorOptions(t[0].device()));
    div_out(out2, t[0], t[2]);
    return Tensors{out, out2};
  });
}

TEST(OpsVsCpu, PowMaximumMinimumComparisonsWhereAndClampMatchCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  Inputs in;
  // A NaN and signed zeros, so the kernels' NaN and zero handling is compared too.
  Tensor special = tensor({std::numeric_limits<double>::quiet_NaN(), -0.0, 0.0, 1.0});
  expect_matches_cpu("pow", {in.a, in.b, in.ia}, [](const Tensors& t) {
    return Tensors{pow(t[0].abs() + 0.5, t[1]),
                   pow(t[0], 2),
                   pow(t[0], 0.5),
                   pow(2, t[0]),
                   t[2].pow(2),
                   t[0].pow(t[1])};
  });
  expect_matches_cpu(
      "maximum and minimum", {in.a, in.b, in.c, in.ia, special}, [](const Tensors& t) {
        return Tensors{maximum(t[0], t[1]), minimum(t[0], t[2]), t[3].maximum(t[3].neg()),
                       maximum(t[4], t[4].neg()), minimum(t[4], t[4].neg())};
      });
  expect_matches_cpu("comparisons", {in.a, in.b, in.ia, special}, [](const Tensors& t) {
    return Tensors{eq(t[0], t[1]), ne(t[0], t[0]), lt(t[0], t[1]), le(t[0], 0),
                   gt(t[0], 0.25), ge(t[2], 0),    t[2].eq(3),     t[2].ne(t[2]),
                   t[3].eq(t[3]),  t[3].lt(1),     t[3].ge(0)};
  });
  expect_matches_cpu("where", {in.a, in.b, in.c}, [](const Tensors& t) {
    return Tensors{where(t[0].gt(0), t[0], t[1]), where(t[2].gt(0), t[0], 0.0),
                   where(t[1].lt(0), 1.0, t[0]), t[0].where(t[0].lt(t[2]), t[2])};
  }, kAllExact);
  expect_matches_cpu("clamp", {in.a, in.ia}, [](const Tensors& t) {
    return Tensors{clamp(t[0], -0.5, 0.5), clamp(t[0], 0), clamp(t[0], std::nullopt, 0.3),
                   t[1].clamp(-2, 2)};
  });
}

TEST(OpsVsCpu, UnaryOpsMatchCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  Inputs in;
  // Negative inputs to log and sqrt give NaN: compared bit for bit as well.
  expect_matches_cpu("unary", {in.x, in.ia}, [](const Tensors& t) {
    return Tensors{neg(t[0]),  abs(t[0]),   exp(t[0]),   log(t[0]),     log(t[0].abs()),
                   sqrt(t[0]), t[0].sqrt(), relu(t[0]),  sigmoid(t[0]), tanh(t[0]),
                   t[1].neg(), t[1].abs(),  t[1].relu(), exp(t[1])};
  });
}

// Every op table sample (tests/support/table_samples.h), with its in-place and out= forms:
// operands of shapes [3, 5], [5] and [3, 1] (broadcast); out in the result's dtype (the goldens
// check other out dtypes).
TEST(OpsVsCpu, TableSamplesMatchCpuInEveryForm) {
  TIDE_REQUIRE_DEVICES(1);
  manual_seed(2025);
  const std::vector<std::vector<int64_t>> shapes = {{3, 5}, {5}, {3, 1}};
  for (const test::TableSample& s : test::table_samples()) {
    Tensors in;
    for (int i = 0; i < s.tensors; ++i) in.push_back(test::sample_input(s.domains[i], shapes[i], s.dtype));
    expect_matches_cpu(s.name, in, [&s](const Tensors& t) {
      const Tensor result = s.op(t);
      Tensors results{result};
      if (s.inplace) {
        Tensors copy = t;
        copy[0] = t[0].clone();
        results.push_back(s.inplace(copy));
      }
      if (s.out) {
        Tensor out = empty_like(result);
        results.push_back(s.out(t, out));
      }
      return results;
    });
  }
}

TEST(OpsVsCpu, ReductionsWholeAndPerDimMatchCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  Inputs in;
  expect_matches_cpu("sum and mean", {in.x, in.ia}, [](const Tensors& t) {
    return Tensors{t[0].sum(),
                   t[0].sum(1),
                   t[0].sum(1, true),
                   sum(t[0], std::vector<int64_t>{0, 2}),
                   sum(t[0], std::vector<int64_t>{0, 2}, true),
                   t[0].sum(-1, false, kFloat64),
                   t[0].mean(),
                   t[0].mean(0),
                   mean(t[0], 2, true),
                   t[1].sum(),
                   t[1].sum(0, true)};
  });
  expect_matches_cpu("max, min, argmax, argmin", {in.x}, [](const Tensors& t) {
    auto [vmax, imax] = t[0].max(1, true);
    auto [vmin, imin] = min(t[0], 2);
    return Tensors{t[0].max(),
                   t[0].min(),
                   vmax,
                   imax,
                   vmin,
                   imin,
                   t[0].argmax(),
                   argmax(t[0], 0, true),
                   t[0].argmax(-1),
                   t[0].argmin(),
                   argmin(t[0], 1)};
  });
  // Large enough that a cpu kernel might split the work across threads: the simulated device
  // must still agree to the bit.
  manual_seed(5);
  expect_matches_cpu("large sums", {randn({300, 400})}, [](const Tensors& t) {
    return Tensors{t[0].sum(), t[0].sum(0), t[0].sum(1), t[0].mean(), t[0].max()};
  });
}

TEST(OpsVsCpu, MatmulMmBmmAndAddmmMatchCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  manual_seed(7);
  const Tensors in{randn({3, 4}),    randn({4, 5}), randn({2, 3, 4}),
                   randn({2, 4, 5}), randn({5}),    randn({4})};
  expect_matches_cpu("linear algebra", in, [](const Tensors& t) {
    return Tensors{mm(t[0], t[1]),
                   t[0].matmul(t[1]),
                   matmul(t[5], t[5]),  // dot product, 0-dim
                   matmul(t[0], t[5]),  // matrix @ vector
                   matmul(t[5], t[1]),  // vector @ matrix
                   matmul(t[2], t[1]),  // batched @ matrix
                   bmm(t[2], t[3]),
                   addmm(t[4], t[0], t[1]),
                   addmm(t[4], t[0], t[1], 0.5, 2),
                   t[1].t().mm(t[0].t()),  // transposed operands
                   t[4].addmm(t[0], t[1], 0, 1)};
  });
}

TEST(OpsVsCpu, SoftmaxAndLogSoftmaxMatchCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  Inputs in;
  expect_matches_cpu("softmax", {in.x, in.a}, [](const Tensors& t) {
    return Tensors{softmax(t[0], 1), t[0].softmax(-1), log_softmax(t[0], 0), t[1].log_softmax(1),
                   softmax(t[1] * 100, 1)};
  });
}

TEST(OpsVsCpu, CatStackChunkSplitAndIndexSelectMatchCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  Inputs in;
  const Tensor idx = tensor({2, 0, 2, 1});
  const Tensor idx32 = tensor({3, 3, 0}).to(kInt32);
  expect_matches_cpu("cat and stack", {in.a, in.a * 2, in.c}, [](const Tensors& t) {
    return Tensors{cat({t[0], t[1]}, 0), cat({t[0], t[2]}, 1), tide::stack({t[0], t[1]}, 1),
                   tide::stack({t[0], t[1]})};
  }, kAllExact);
  // Strided and converting inputs take the copy loops inside cat's kernel, which must run in
  // the kernel's place on the stream (a copy_ op issued there ran after the caller's read).
  expect_matches_cpu("cat of strided and converting inputs", {in.a, in.x, in.ia},
                     [](const Tensors& t) {
    return Tensors{cat({t[0].narrow(1, 0, 3), t[0]}, 1),
                   cat({t[1].transpose(0, 1), t[1].narrow(0, 0, 2).transpose(0, 1)}, 1),
                   cat({t[0], t[2]}, 0)};
  }, kAllExact);
  expect_matches_cpu("chunk and split", {in.x}, [](const Tensors& t) {
    Tensors out = chunk(t[0], 3, 1);
    for (const Tensor& p : split(t[0], 2, 2)) out.push_back(p);
    for (const Tensor& p : t[0].split(std::vector<int64_t>{1, 3}, 0)) out.push_back(p + 0);
    return out;
  }, kAllExact);
  expect_matches_cpu("index_select", {in.x, idx, idx32}, [](const Tensors& t) {
    return Tensors{index_select(t[0], 0, t[1]), t[0].index_select(1, t[2]),
                   t[0].index_select(-1, t[1]), t[0].transpose(0, 2).index_select(1, t[1])};
  }, kAllExact);
}

TEST(OpsVsCpu, NllLossAndCrossEntropyWithWeightsMatchCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  manual_seed(11);
  const Tensor logits = randn({6, 4});
  const Tensor target = tensor({0, 3, 1, 2, 3, -100});  // -100: the default ignore_index
  const Tensor weight = tensor({0.5, 2.0, 1.0, 0.25});
  const Tensor one = randn({4});
  const Tensor one_target = tensor(2);
  const Tensor target3 = tensor({0, 3, 1, 2, 3, 1});  // 3 is ignored below
  expect_matches_cpu("losses", {logits, target, weight, one, one_target, target3},
                     [](const Tensors& t) {
                       const Tensor lp = log_softmax(t[0], 1);
                       return Tensors{nll_loss(lp, t[1]),
                                      nll_loss(lp, t[1], t[2]),
                                      nll_loss(lp, t[1], t[2], Reduction::Sum),
                                      nll_loss(lp, t[1], t[2], Reduction::None),
                                      cross_entropy(t[0], t[1]),
                                      cross_entropy(t[0], t[1], t[2]),
                                      cross_entropy(t[0], t[5], t[2], Reduction::None, 3),
                                      cross_entropy(t[0], t[5], t[2], Reduction::Mean, 3),
                                      cross_entropy(t[3], t[4], t[2])};
                     });
}

TEST(OpsVsCpu, ConvolutionPoolingAndBatchNormForwardAndBackwardMatchCpu) {
  TIDE_REQUIRE_DEVICES(1);
  manual_seed(12);
  const Tensors in{randn({2, 4, 9, 8}), randn({6, 2, 3, 3}), randn({6}), randn({4}),
                   randn({4}), rand({4}) + 0.5};
  const OpFn op = [](const Tensors& t) {
    Tensor x = t[0].detach().requires_grad_();
    Tensor w = t[1].detach().requires_grad_();
    Tensor b = t[2].detach().requires_grad_();
    // Running statistics are updated in place: each run gets its own.
    Tensor mean = t[3].clone(), var = t[5].clone();
    const Tensor conv = conv2d(x, w, b, 1, {1, 2}, 1, 2);
    const Tensor same = conv2d(x, w, {}, 1, "same", 2, 2);
    auto [pooled, indices] = max_pool2d_with_indices(conv, 3, 2, 1, 1, true);
    const Tensor avg = avg_pool2d(same, 2, 1, 1, false, false);
    const Tensor adaptive = adaptive_avg_pool2d(x, {3, 5});
    const Tensor norm = batch_norm(x, t[4], t[3], mean, var, true, 0.1, 1e-5);
    const Tensor loss =
        pooled.sum() + (avg * avg).sum() + adaptive.sum() + (norm * norm).sum();
    const Tensors g = autograd::grad({loss}, {x, w, b});
    return Tensors{conv.detach(), same.detach(), pooled.detach(), indices, avg.detach(),
                   adaptive.detach(), norm.detach(), mean, var, g[0], g[1], g[2]};
  };
  // Real GPUs run cuDNN: in true float32 (TF32 would miss the cpu's values by ~1e-3), with its
  // heuristic, then with timed and deterministic algorithms (Note [cuDNN algorithms]).
  // Simulated GPUs ignore the switches and give the cpu's bits.
  test::CudnnSwitchesGuard exact_float32(/*benchmark=*/false, /*deterministic=*/false,
                                         /*allow_tf32=*/false);
  expect_matches_cpu("conv2d, poolings, batch_norm and their gradients", in, op);
  test::CudnnSwitchesGuard timed(/*benchmark=*/true, /*deterministic=*/true,
                                 /*allow_tf32=*/false);
  expect_matches_cpu("the same with cudnn benchmark and deterministic", in, op);
  // "same" with an even kernel pads asymmetrically: real GPUs pad explicitly for cuDNN.
  expect_matches_cpu("conv2d padding same with an even kernel", {in[0], randn({3, 4, 2, 4})},
                     [](const Tensors& t) {
                       Tensor x = t[0].detach().requires_grad_();
                       const Tensor y = conv2d(x, t[1], {}, 1, "same");
                       return Tensors{y.detach(), autograd::grad({y.sum()}, {x})[0]};
                     });
}

TEST(OpsVsCpu, Issue26LossesAndActivationsMatchCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  manual_seed(12);
  const Tensor logits = randn({6, 4});
  const Tensor probs = softmax(randn({6, 4}), 1);
  const Tensor target = tensor({0, 3, 1, 2, 3, -100});
  const Tensor weight = tensor({0.5, 2.0, 1.0, 0.25});
  const Tensor spatial = randn({2, 4, 3});
  const Tensor spatial_target = tensor({{0, 3, -100}, {2, 1, 1}});
  const Tensor labels = gt(randn({6, 4}), 0).to(kFloat32);
  const Tensor sign = tensor({1.f, -1.f, 1.f, -1.f, 1.f, -1.f});
  expect_matches_cpu(
      "issue 26 losses",
      {logits, probs, target, weight, spatial, spatial_target, labels, sign},
      [](const Tensors& t) {
        const Tensor p = sigmoid(t[0]);
        return Tensors{cross_entropy(t[0], t[1], t[3], Reduction::Mean, -100, 0.1),
                       cross_entropy(t[0], t[2], t[3], Reduction::None, -100, 0.2),
                       cross_entropy(t[4], t[5], t[3], Reduction::Mean, -100, 0.3),
                       l1_loss(t[0], t[1]),
                       smooth_l1_loss(t[0], t[1], Reduction::None, 0.5),
                       huber_loss(t[0], t[1], Reduction::Sum, 0.5),
                       binary_cross_entropy(p, t[6], t[3]),
                       binary_cross_entropy_with_logits(t[0], t[6], {}, t[3], Reduction::None),
                       kl_div(log_softmax(t[0], 1), t[1], Reduction::Sum),
                       margin_ranking_loss(t[0].select(1, 0), t[0].select(1, 1), t[7], 0.1),
                       cosine_embedding_loss(t[0], t[1], t[7], 0.2, Reduction::None)};
      });
  expect_matches_cpu("issue 26 activations", {spatial, weight.slice(0, 0, 4)}, [](const Tensors& t) {
    return Tensors{gelu(t[0]),         gelu(t[0], "tanh"),      silu(t[0]),
                   mish(t[0]),         softplus(t[0], 2.0, 1.0), leaky_relu(t[0], 0.2),
                   elu(t[0]),          hardtanh(t[0], -0.5, 0.5), prelu(t[0], t[1])};
  });
  const Tensor idx = tensor({{0, 3, 2}, {2, 2, 1}});
  expect_matches_cpu("issue 26 layers", {spatial, weight, idx}, [](const Tensors& t) {
    return Tensors{layer_norm(t[0], {3}),
                   layer_norm(t[0], {4, 3}),
                   group_norm(t[0], 2, t[1], t[1]),
                   embedding(t[0].select(0, 0), t[2], 2),
                   one_hot(t[2], 5).to(kFloat32),
                   normalize(t[0]),
                   cosine_similarity(t[0], t[0] * 2 + 1),
                   pairwise_distance(t[0], -t[0])};
  });
}

TEST(OpsVsCpu, ConversionsContiguousFillAndZeroMatchCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  Inputs in;
  expect_matches_cpu("to(dtype)", {in.x * 100, in.ia}, [](const Tensors& t) {
    return Tensors{t[0].to(kInt32),   t[0].to(kFloat64),      t[0].to(kFloat16), t[0].to(kBFloat16),
                   t[0].to(kInt64),   t[0].to(kUInt8),        t[0].to(kBool),    t[1].to(kFloat32),
                   t[1].to(kFloat16), t[0].gt(0).to(kFloat32)};
  }, kAllExact);
  expect_matches_cpu("contiguous of views", {in.x}, [](const Tensors& t) {
    const Tensor tr = t[0].transpose(0, 2);
    EXPECT_FALSE(tr.is_contiguous());
    return Tensors{tr.contiguous(), t[0].permute({1, 2, 0}).contiguous(),
                   t[0].slice(2, 1, std::nullopt, 2).contiguous(), t[0].select(1, 3).clone()};
  }, kAllExact);
  expect_matches_cpu("fill_ and zero_", {in.x, in.ia}, [](const Tensors& t) {
    Tensor f = t[0].clone();
    f.fill_(3.5);
    Tensor g = t[0].clone();
    g.zero_();
    Tensor h = t[0].clone();
    Tensor view = h.transpose(0, 1).select(0, 2);  // a strided view of h
    view.fill_(-1.25);
    Tensor k = t[1].clone();
    k.fill_(7);
    Tensor m = t[0].clone();
    m.fill_(t[0].sum());  // a 0-dim tensor on the same device as the value
    return Tensors{f, g, h, k, m};
  }, Exact{false, {0, 1, 2, 3}});  // m's value is a sum: close on real GPUs
}

TEST(OpsVsCpu, RandomNumbersWithTheSameSeedMatchCpuBitForBit) {
  TIDE_REQUIRE_DEVICES(1);
  expect_matches_cpu(
      "rand, randn, randint, normal_, uniform_", {zeros({3, 5})}, [](const Tensors& t) {
        manual_seed(123);
        const TensorOptions o(t[0].device());
        Tensor n = empty({4, 4}, o);
        n.normal_(1, 2);
        Tensor u = empty({9}, o);
        u.uniform_(-1, 1);
        Tensor strided = t[0].clone();
        Tensor view = strided.t();
        view.normal_();
        return Tensors{rand({5, 7}, o), randn({33}, o),   randint(0, 10, {9}, o),         n, u,
                       strided,         randn_like(t[0]), rand({2, 3}, o.dtype(kFloat64))};
      },
      Exact{false, {0, 2, 4, 7}});  // uniform and integer draws; normals use the GPU's log/cos
}

TEST(OpsVsCpu, OneManualSeedSeedsTheCpuAndEveryDeviceAlike) {
  TIDE_REQUIRE_DEVICES(1);
  manual_seed(31337);
  const Tensor expected = randn({100});
  manual_seed(31337);
  // The first draw after the seed on each device (in any order, any current device) is the
  // cpu's first draw (on a real GPU up to the last bits: its log and cos round differently).
  for (int d = cuda::device_count() - 1; d >= 0; --d) {
    cuda::DeviceGuard other(other_device(d));
    const Tensor got = randn({100}, TensorOptions(cuda_device(d)));
    EXPECT_EQ(got.device(), cuda_device(d));
    EXPECT_TRUE(test::matches_cpu(expected, got)) << "cuda:" << d;
  }
  const Tensor cpu_again = randn({100});
  EXPECT_TRUE(same_bits(expected, cpu_again));
}
