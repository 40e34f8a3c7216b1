// Memory formats (Note [Memory formats] in src/tensor/memory_format.cpp): the layout queries,
// contiguous/clone/to/empty and the *_like factories with memory_format, and Preserve's rule.
// Every stride below is what torch 1.13 gives for the same call (checked with Debian's
// python3-torch; the Python tests compare against torch itself).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::error_of;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

constexpr auto kCL = MemoryFormat::ChannelsLast;

/// 0, 1, 2, ... as float32 in `shape`, contiguous.
Tensor iota(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return arange(n, dtype(kFloat32)).view(shape);
}

}  // namespace

TEST(MemoryFormat, PrintsTorchsCppNames) {
  std::ostringstream os;
  os << MemoryFormat::Contiguous << ' ' << MemoryFormat::Preserve << ' ' << kCL << ' '
     << MemoryFormat::ChannelsLast3d;
  EXPECT_EQ(os.str(), "Contiguous Preserve ChannelsLast ChannelsLast3d");
}

TEST(MemoryFormat, ContiguousChannelsLastGivesNhwcStridesAndKeepsTheValues) {
  const Tensor x = iota({2, 3, 4, 5});
  const Tensor c = x.contiguous(kCL);
  EXPECT_THAT(c.strides(), ElementsAre(60, 1, 15, 3));
  EXPECT_TRUE(c.is_contiguous(kCL));
  EXPECT_FALSE(c.is_contiguous());
  EXPECT_TRUE(c.is_non_overlapping_and_dense());
  EXPECT_EQ(c.suggest_memory_format(), kCL);
  EXPECT_TRUE(c.equal(x));
  EXPECT_TRUE(c.contiguous(kCL).is_same(c));  // already channels-last: itself, as torch
  const Tensor back = c.contiguous();
  EXPECT_THAT(back.strides(), ElementsAre(60, 20, 5, 1));
  EXPECT_TRUE(back.equal(x));
  EXPECT_EQ(x.suggest_memory_format(), MemoryFormat::Contiguous);
  EXPECT_FALSE(x.is_contiguous(kCL));
}

TEST(MemoryFormat, QueriesFollowTorchOnAmbiguousShapes) {
  // size-1 dims' strides are ignored: N111 and 1C11 tensors are both layouts at once
  const Tensor n111 = empty({2, 3, 1, 1});
  EXPECT_TRUE(n111.is_contiguous(kCL));
  EXPECT_TRUE(n111.is_contiguous());
  EXPECT_EQ(n111.suggest_memory_format(), MemoryFormat::Contiguous);
  EXPECT_TRUE(empty({1, 3, 1, 1}).is_contiguous(kCL));
  // an empty contiguous tensor is not channels-last contiguous (torch checks its strides)
  EXPECT_FALSE(empty({2, 3, 0, 5}).is_contiguous(kCL));
  EXPECT_FALSE(empty({2, 3}).is_contiguous(kCL));
  // a permuted NHWC view is not NCHW-shaped channels-last
  EXPECT_FALSE(iota({2, 3, 4, 5}).permute({0, 2, 3, 1}).is_contiguous(kCL));
  // a channels-last tensor sliced along H still suggests channels-last
  const Tensor sliced = iota({2, 3, 4, 5}).contiguous(kCL).narrow(2, 1, 2);
  EXPECT_FALSE(sliced.is_contiguous(kCL));
  EXPECT_FALSE(sliced.is_non_overlapping_and_dense());
  EXPECT_EQ(sliced.suggest_memory_format(), kCL);
  EXPECT_FALSE(iota({2, 3}).expand({2, 2, 3}).is_non_overlapping_and_dense());
  EXPECT_TRUE(iota({3, 4}).t().is_non_overlapping_and_dense());
}

TEST(MemoryFormat, EmptyTakesAMemoryFormat) {
  EXPECT_THAT(empty({2, 1, 4, 5}, TensorOptions().memory_format(kCL)).strides(),
              ElementsAre(20, 1, 5, 1));
  EXPECT_THAT(empty({2, 3, 4, 5, 6}, TensorOptions().memory_format(MemoryFormat::ChannelsLast3d))
                  .strides(),
              ElementsAre(360, 1, 90, 18, 3));
  // torch's plain products: a zero size zeroes the strides outside it
  EXPECT_THAT(empty({2, 3, 0, 5}, TensorOptions().memory_format(kCL)).strides(),
              ElementsAre(0, 1, 15, 3));
  EXPECT_THAT(zeros({2, 3, 2, 2}, TensorOptions().memory_format(kCL)).strides(),
              ElementsAre(12, 1, 6, 3));
  EXPECT_THAT(error_of([] { empty({2, 3, 4}, TensorOptions().memory_format(kCL)); }),
              HasSubstr("required rank 4 tensor to use channels_last format"));
  EXPECT_THAT(error_of([] {
                empty({2, 3, 4, 5}, TensorOptions().memory_format(MemoryFormat::ChannelsLast3d));
              }),
              HasSubstr("required rank 5 tensor to use channels_last_3d format"));
  const auto preserve = TensorOptions().memory_format(MemoryFormat::Preserve);
  EXPECT_THAT(error_of([&] { empty({2, 3}, preserve); }),
              HasSubstr("unsupported memory format Preserve"));
}

TEST(MemoryFormat, ContiguousRefusesWhatTorchRefuses) {
  EXPECT_THAT(error_of([] { iota({2, 3}).contiguous(kCL); }),
              HasSubstr("required rank 4 tensor to use channels_last format"));
  // Preserve is accepted for a contiguous tensor (itself) and refused otherwise, as torch
  const Tensor x = iota({2, 3});
  EXPECT_TRUE(x.contiguous(MemoryFormat::Preserve).is_same(x));
  EXPECT_THAT(error_of([&] { x.t().contiguous(MemoryFormat::Preserve); }),
              HasSubstr("preserve memory format is unsupported by the contiguous operator"));
}

TEST(MemoryFormat, ClonePreservesDenseStridesAndOrdersTheRest) {
  const Tensor c = iota({2, 3, 4, 5}).contiguous(kCL);
  EXPECT_THAT(c.clone().strides(), ElementsAre(60, 1, 15, 3));
  EXPECT_THAT(c.clone(MemoryFormat::Contiguous).strides(), ElementsAre(60, 20, 5, 1));
  EXPECT_TRUE(c.clone(MemoryFormat::Contiguous).equal(c));
  // a transposed matrix is dense: kept as it is
  EXPECT_THAT(iota({4, 5}).t().clone().strides(), ElementsAre(1, 5));
  // size-1 dims' strides too: (1, 3) with strides (1, 1) stays (1, 1)
  EXPECT_THAT(iota({3, 1}).t().clone().strides(), ElementsAre(1, 1));
  // not dense: dense strides in the same dim order (torch's infer_dense_strides)
  const Tensor gappy = iota({2, 3, 4, 5}).permute({0, 2, 3, 1}).slice(2, 0, std::nullopt, 2);
  EXPECT_THAT(gappy.strides(), ElementsAre(60, 5, 2, 20));
  const Tensor g = gappy.clone();
  EXPECT_THAT(g.strides(), ElementsAre(36, 3, 1, 12));
  EXPECT_TRUE(g.equal(gappy));
  EXPECT_THAT(iota({2, 3, 4, 5}).contiguous(kCL).narrow(2, 1, 2).clone().strides(),
              ElementsAre(30, 1, 15, 3));
}

TEST(MemoryFormat, ToKeepsTheLayoutOrConvertsIt) {
  const Tensor x = iota({2, 3, 4, 5});
  const Tensor c = x.contiguous(kCL);
  EXPECT_THAT(c.to(kFloat64).strides(), ElementsAre(60, 1, 15, 3));
  const Tensor d = x.to(TensorOptions().dtype(kFloat64).memory_format(kCL));
  EXPECT_THAT(d.strides(), ElementsAre(60, 1, 15, 3));
  EXPECT_TRUE(d.equal(x.to(kFloat64)));
  // the layout asked for already: no copy, as torch
  EXPECT_TRUE(c.to(TensorOptions().memory_format(kCL)).is_same(c));
  EXPECT_TRUE(c.to(TensorOptions().memory_format(MemoryFormat::Preserve)).is_same(c));
  const Tensor nchw = c.to(TensorOptions().memory_format(MemoryFormat::Contiguous));
  EXPECT_TRUE(nchw.is_contiguous());
  EXPECT_TRUE(nchw.equal(x));
  EXPECT_THAT(iota({2, 3, 4, 5}).permute({0, 2, 3, 1}).slice(2, 0, std::nullopt, 2)
                  .to(kFloat64).strides(),
              ElementsAre(36, 3, 1, 12));
}

TEST(MemoryFormat, LikeFactoriesPreserveTheLayoutUnlessAskedOtherwise) {
  const Tensor c = iota({2, 3, 4, 5}).contiguous(kCL);
  EXPECT_THAT(empty_like(c).strides(), ElementsAre(60, 1, 15, 3));
  const Tensor z = zeros_like(c);
  EXPECT_THAT(z.strides(), ElementsAre(60, 1, 15, 3));
  EXPECT_EQ(z.sum().item<float>(), 0.0f);
  const Tensor o = ones_like(c, dtype(kFloat64));
  EXPECT_THAT(o.strides(), ElementsAre(60, 1, 15, 3));
  EXPECT_EQ(o.sum().item<double>(), 120.0);
  EXPECT_THAT(full_like(c, 2.5).strides(), ElementsAre(60, 1, 15, 3));
  EXPECT_THAT(rand_like(c).strides(), ElementsAre(60, 1, 15, 3));
  EXPECT_THAT(randn_like(c).strides(), ElementsAre(60, 1, 15, 3));
  EXPECT_THAT(zeros_like(c, TensorOptions().memory_format(MemoryFormat::Contiguous)).strides(),
              ElementsAre(60, 20, 5, 1));
  EXPECT_THAT(empty_like(iota({2, 3, 4, 5}), TensorOptions().memory_format(kCL)).strides(),
              ElementsAre(60, 1, 15, 3));
  const Tensor gappy = iota({2, 3, 4, 5}).permute({0, 2, 3, 1}).slice(2, 0, std::nullopt, 2);
  EXPECT_THAT(empty_like(gappy).strides(), ElementsAre(36, 3, 1, 12));
  EXPECT_THAT(ones_like(iota({3, 1}).t()).strides(), ElementsAre(1, 1));
  EXPECT_TRUE(zeros_like(c, TensorOptions().requires_grad(true)).requires_grad());
  EXPECT_THAT(error_of([] { empty_like(iota({2, 3}), TensorOptions().memory_format(kCL)); }),
              HasSubstr("required rank 4 tensor to use channels_last format"));
}
