#include "tide/random.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <thread>
#include <vector>

#include "core/philox.h"
#include "tensor/generator.h"
#include "tide/factories.h"
#include "tide/tensor.h"

using namespace tide;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

namespace {

uint64_t current_offset() {
  std::vector<uint8_t> s = get_rng_state();
  uint64_t offset = 0;
  for (int b = 0; b < 8; ++b) offset |= static_cast<uint64_t>(s[8 + b]) << (8 * b);
  return offset;
}

uint32_t word(uint64_t seed, uint64_t block, int lane) { return philox::block(seed, block).w[lane]; }

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double std_of(const std::vector<double>& v) {
  double m = mean_of(v), s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

std::vector<double> as_doubles(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

}  // namespace

TEST(Random, DefaultSeedIsTorchs) { EXPECT_EQ(detail::kDefaultRngSeed, 67280421310721ull); }

TEST(Random, SameSeedGivesSameNumbers) {
  manual_seed(42);
  std::vector<float> a = rand({100}).tolist<float>();
  std::vector<float> n1 = randn({33}).tolist<float>();
  manual_seed(42);
  EXPECT_EQ(rand({100}).tolist<float>(), a);
  EXPECT_EQ(randn({33}).tolist<float>(), n1);
}

TEST(Random, DifferentSeedsGiveDifferentNumbers) {
  manual_seed(1);
  std::vector<float> a = rand({16}).tolist<float>();
  manual_seed(2);
  EXPECT_NE(rand({16}).tolist<float>(), a);
}

TEST(Random, ManualSeedSetsInitialSeedAndRestartsTheOffset) {
  manual_seed(1234);
  rand({10});
  EXPECT_EQ(initial_seed(), 1234u);
  EXPECT_EQ(current_offset(), 3u);
  manual_seed(1234);
  EXPECT_EQ(current_offset(), 0u);
}

TEST(Random, ManualSeedReachesGeneratorsOfEveryDevice) {
  detail::Generator& existing = detail::default_generator(Device(kCUDA, 6));
  manual_seed(77);
  EXPECT_EQ(existing.seed(), 77u);
  EXPECT_EQ(existing.offset(), 0u);
  // A generator first used after manual_seed starts from that seed too.
  EXPECT_EQ(detail::default_generator(Device(kCUDA, 7)).seed(), 77u);
}

TEST(Random, UniformFloat32ElementIUsesWordIModFourOfBlockOffsetPlusIOverFour) {
  const uint64_t seed = 20240601;
  manual_seed(seed);
  std::vector<float> got = rand({10}).tolist<float>();
  for (int i = 0; i < 10; ++i) {
    float expected = static_cast<float>(word(seed, i / 4, i % 4) >> 8) * 0x1p-24f;
    EXPECT_EQ(got[i], expected) << "element " << i;
  }
}

TEST(Random, EachDrawStartsAtTheBlockAfterThePreviousDraw) {
  const uint64_t seed = 5;
  manual_seed(seed);
  rand({3});  // one block
  EXPECT_EQ(current_offset(), 1u);
  std::vector<float> second = rand({5}).tolist<float>();  // blocks 1 and 2
  EXPECT_EQ(current_offset(), 3u);
  for (int i = 0; i < 5; ++i) {
    float expected = static_cast<float>(word(seed, 1 + i / 4, i % 4) >> 8) * 0x1p-24f;
    EXPECT_EQ(second[i], expected) << "element " << i;
  }
  // The fourth word of block 0 was never used: draws do not share blocks.
  manual_seed(seed);
  std::vector<float> whole = rand({8}).tolist<float>();
  EXPECT_NE(whole[3], second[0]);
}

TEST(Random, EmptyDrawDoesNotAdvanceTheOffset) {
  manual_seed(9);
  rand({0, 3});
  EXPECT_EQ(current_offset(), 0u);
}

TEST(Random, UniformFloat64UsesOneWholeWordPerElement) {
  const uint64_t seed = 11;
  manual_seed(seed);
  std::vector<double> got = rand({6}, dtype(kFloat64)).tolist<double>();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(got[i], static_cast<double>(word(seed, i / 4, i % 4)) * 0x1p-32);
  EXPECT_EQ(current_offset(), 2u);
}

TEST(Random, NormalIsBoxMullerOnPairsOfWords) {
  const uint64_t seed = 3;
  manual_seed(seed);
  std::vector<double> got = randn({5}, dtype(kFloat64)).tolist<double>();
  for (int j = 0; j < 3; ++j) {
    const uint64_t block = (2 * j) / 4;
    const int lane = (2 * j) % 4;
    double u1 = (static_cast<double>(word(seed, block, lane)) + 1.0) * 0x1p-32;
    double u2 = static_cast<double>(word(seed, block, lane + 1)) * 0x1p-32;
    double r = std::sqrt(-2.0 * std::log(u1));
    EXPECT_DOUBLE_EQ(got[2 * j], r * std::cos(2 * std::numbers::pi * u2));
    if (2 * j + 1 < 5) {
      EXPECT_DOUBLE_EQ(got[2 * j + 1], r * std::sin(2 * std::numbers::pi * u2));
    }
  }
}

TEST(Random, UniformSamplesLieInRangeWithTheRightMean) {
  manual_seed(100);
  std::vector<double> v = as_doubles(rand({100000}));
  for (double x : v) ASSERT_TRUE(x >= 0.0 && x < 1.0) << x;
  EXPECT_NEAR(mean_of(v), 0.5, 0.01);
  EXPECT_NEAR(std_of(v), std::sqrt(1.0 / 12.0), 0.01);

  Tensor t = empty({100000}, dtype(kFloat64));
  t.uniform_(-2.0, 3.0);
  std::vector<double> w = t.tolist<double>();
  for (double x : w) ASSERT_TRUE(x >= -2.0 && x < 3.0) << x;
  EXPECT_NEAR(mean_of(w), 0.5, 0.05);
}

TEST(Random, ReducedPrecisionUniformsStayBelowTo) {
  manual_seed(8);
  for (Dtype d : {kFloat16, kBFloat16}) {
    std::vector<double> v = as_doubles(rand({50000}, dtype(d)));
    for (double x : v) ASSERT_TRUE(x >= 0.0 && x < 1.0) << name(d) << " " << x;
    EXPECT_NEAR(mean_of(v), 0.5, 0.02) << name(d);
  }
}

TEST(Random, NormalSamplesHaveTheRequestedMeanAndStd) {
  manual_seed(101);
  std::vector<double> v = as_doubles(randn({100000}));
  EXPECT_NEAR(mean_of(v), 0.0, 0.02);
  EXPECT_NEAR(std_of(v), 1.0, 0.02);

  Tensor t = empty({100001}, dtype(kFloat64));  // odd: the last element has no partner
  t.normal_(3.0, 2.0);
  std::vector<double> w = t.tolist<double>();
  EXPECT_NEAR(mean_of(w), 3.0, 0.05);
  EXPECT_NEAR(std_of(w), 2.0, 0.05);
}

TEST(Random, LikeFactoriesKeepDtype) {
  Tensor like = zeros({2, 3}, dtype(kFloat64));
  EXPECT_EQ(rand_like(like).dtype(), kFloat64);
  EXPECT_EQ(randn_like(like).sizes(), (std::vector<int64_t>{2, 3}));
}

TEST(Random, NoncontiguousTargetGetsTheNumbersOfAContiguousDrawOfItsShape) {
  Tensor base = zeros({4, 6});
  Tensor t = base.t();  // (6, 4), not contiguous
  manual_seed(55);
  t.uniform_();
  manual_seed(55);
  Tensor expected = rand({6, 4});
  EXPECT_EQ(t.contiguous().tolist<float>(), expected.tolist<float>());
  // and the draw landed in the base tensor's storage
  EXPECT_EQ(base.t().contiguous().tolist<float>(), expected.tolist<float>());
}

TEST(Random, SetRngStateRoundTripReproducesADraw) {
  manual_seed(6);
  rand({7});
  std::vector<uint8_t> state = get_rng_state();
  std::vector<float> a = randn({9}).tolist<float>();
  set_rng_state(state);
  EXPECT_EQ(randn({9}).tolist<float>(), a);
}

TEST(Random, RngStateIsSeedThenOffsetLittleEndian) {
  manual_seed(0x0102030405060708ull);
  rand({9});  // three blocks
  std::vector<uint8_t> s = get_rng_state();
  ASSERT_EQ(s.size(), 16u);
  EXPECT_EQ(s, (std::vector<uint8_t>{8, 7, 6, 5, 4, 3, 2, 1, 3, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(Random, SetRngStateRejectsAWrongLength) {
  EXPECT_THAT([] { set_rng_state(std::vector<uint8_t>(15)); },
              ThrowsMessage<Error>(HasSubstr("[set_rng_state] expected a state of 16 bytes (seed, "
                                             "offset), as get_rng_state returns, but got 15 bytes")));
}

TEST(Random, ConcurrentDrawsReserveDisjointBlocks) {
  manual_seed(12);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([] {
      for (int i = 0; i < 200; ++i) rand({4});
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(current_offset(), 800u);
}

TEST(Random, RandintDrawsInHalfOpenRangeAsInt64) {
  manual_seed(13);
  Tensor t = randint(-3, 4, {10000});
  EXPECT_EQ(t.dtype(), kInt64);
  std::vector<int64_t> v = t.tolist<int64_t>();
  std::vector<int> seen(7, 0);
  for (int64_t x : v) {
    ASSERT_TRUE(x >= -3 && x < 4) << x;
    ++seen[x + 3];
  }
  for (int c : seen) EXPECT_GT(c, 1000);
}

TEST(Random, RandintIsLowPlusWordModuloRange) {
  const uint64_t seed = 14;
  manual_seed(seed);
  std::vector<int64_t> v = randint(10, 1000, {6}).tolist<int64_t>();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(v[i], 10 + static_cast<int64_t>(word(seed, i / 4, i % 4) % 990));
}

TEST(Random, RandintWiderThan32BitsUsesTwoWordsPerElement) {
  const uint64_t seed = 15;
  const int64_t low = -(int64_t{1} << 40), high = int64_t{1} << 40;
  const uint64_t range = static_cast<uint64_t>(high - low);
  manual_seed(seed);
  std::vector<int64_t> v = randint(low, high, {3}).tolist<int64_t>();
  for (int i = 0; i < 3; ++i) {
    uint64_t w = word(seed, i / 2, 2 * (i % 2)) |
                 (static_cast<uint64_t>(word(seed, i / 2, 2 * (i % 2) + 1)) << 32);
    EXPECT_EQ(v[i], low + static_cast<int64_t>(w % range));
  }
  EXPECT_EQ(current_offset(), 2u);
}

TEST(Random, RandintHonoursTheRequestedDtype) {
  manual_seed(16);
  Tensor t = randint(0, 256, {1000}, dtype(kUInt8));
  EXPECT_EQ(t.dtype(), kUInt8);
  Tensor f = randint(0, 5, {100}, dtype(kFloat32));
  for (float x : f.tolist<float>()) EXPECT_EQ(x, std::floor(x));
}

TEST(Random, RandintRejectsAnEmptyRange) {
  EXPECT_THAT([] { randint(5, 5, {2}); },
              ThrowsMessage<Error>(HasSubstr("[randint] random_ expects 'from' to be less than "
                                             "'to', but got from=5 >= to=5")));
}

TEST(Random, RandintRejectsBoundsTheDtypeCannotHold) {
  EXPECT_THAT([] { randint(0, 300, {2}, dtype(kUInt8)); },
              ThrowsMessage<Error>(HasSubstr("[randint] the range [0, 300) is out of bounds for uint8")));
  EXPECT_THAT([] { randint(-1, 3, {2}, dtype(kUInt8)); },
              ThrowsMessage<Error>(HasSubstr("out of bounds for uint8")));
}

TEST(Random, UniformRejectsIntegerTensors) {
  Tensor t = zeros({3}, dtype(kInt64));
  EXPECT_THAT([&] { t.uniform_(); },
              ThrowsMessage<Error>(HasSubstr("[Tensor::uniform_] expected a floating point tensor, "
                                             "but got int64")));
  EXPECT_THAT([&] { t.normal_(); },
              ThrowsMessage<Error>(HasSubstr("[Tensor::normal_] expected a floating point tensor, "
                                             "but got int64")));
}

TEST(Random, UniformRejectsFromAboveTo) {
  Tensor t = zeros({3});
  EXPECT_THAT([&] { t.uniform_(1.0, 0.0); },
              ThrowsMessage<Error>(HasSubstr("uniform_ expects to return a [from, to) range, but "
                                             "found from=1 > to=0")));
  EXPECT_THAT([&] { t.uniform_(0.0, INFINITY); },
              ThrowsMessage<Error>(HasSubstr("[Tensor::uniform_] expects finite bounds")));
}

TEST(Random, NormalRejectsNegativeStd) {
  Tensor t = zeros({3});
  EXPECT_THAT([&] { t.normal_(0.0, -1.0); },
              ThrowsMessage<Error>(HasSubstr("[Tensor::normal_] normal expects std >= 0.0, but "
                                             "found std -1")));
}

TEST(Random, RandAndRandnRejectIntegerDtypes) {
  EXPECT_THAT([] { rand({2}, dtype(kInt32)); },
              ThrowsMessage<Error>(HasSubstr("[rand] expected a floating point dtype, but got int32")));
  EXPECT_THAT([] { randn({2}, dtype(kBool)); },
              ThrowsMessage<Error>(HasSubstr("[randn] expected a floating point dtype, but got bool")));
}
