// tide::Generator on the cpu (Note [Generators] in include/tide/generator.h): its seeding API,
// its state, its independence from the default generator, and the generator= argument of the
// random ops. tests/device/generator_test.cpp runs the draws on every device.

#include "tide/generator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

#include "tensor/generator.h"
#include "tensor/random_fills.h"
#include "tide/factories.h"
#include "tide/random.h"
#include "tide/sampling.h"
#include "tide/tensor.h"

using namespace tide;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

namespace {

std::vector<uint8_t> bytes_of(const Tensor& state) { return state.tolist<uint8_t>(); }

uint64_t offset_of(const Generator& g) { return g.state().offset(); }

}  // namespace

TEST(Generator, NewGeneratorsStartAtTorchsDefaultSeedOnTheCpu) {
  Generator g;
  EXPECT_EQ(g.initial_seed(), 67280421310721ull);
  EXPECT_EQ(g.device(), Device(kCPU));
  EXPECT_EQ(offset_of(g), 0u);
  EXPECT_EQ(Generator(Device(kCUDA, 1)).device(), Device(kCUDA, 1));
}

TEST(Generator, ManualSeedReturnsTheGeneratorAndRestartsTheStream) {
  Generator g;
  rand({9}, g);
  EXPECT_EQ(offset_of(g), 3u);
  Generator& same = g.manual_seed(5);
  EXPECT_EQ(&same, &g);
  EXPECT_EQ(g.initial_seed(), 5u);
  EXPECT_EQ(offset_of(g), 0u);
}

TEST(Generator, SeedPicksAFreshSeedAndReturnsIt) {
  Generator g;
  const uint64_t a = g.seed();
  EXPECT_EQ(g.initial_seed(), a);
  const uint64_t b = g.seed();
  EXPECT_EQ(g.initial_seed(), b);
  EXPECT_NE(a, b);  // two 64-bit draws from std::random_device (a 2^-64 false alarm)
}

TEST(Generator, StateIsSeedThenOffsetLittleEndianInAUint8CpuTensor) {
  Generator g;
  g.manual_seed(0x0102030405060708ull);
  rand({9}, g);  // three blocks
  const Tensor state = g.get_state();
  EXPECT_EQ(state.dtype(), kUInt8);
  EXPECT_EQ(state.device(), Device(kCPU));
  EXPECT_EQ(bytes_of(state), (std::vector<uint8_t>{8, 7, 6, 5, 4, 3, 2, 1, 3, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(Generator, SetStateReplaysTheDrawsAfterGetState) {
  Generator g;
  g.manual_seed(21);
  randn({7}, g);
  const Tensor state = g.get_state();
  const std::vector<float> a = rand({11}, g).tolist<float>();
  const std::vector<int64_t> b = randperm(20, g).tolist<int64_t>();
  EXPECT_EQ(&g.set_state(state), &g);
  EXPECT_EQ(rand({11}, g).tolist<float>(), a);
  EXPECT_EQ(randperm(20, g).tolist<int64_t>(), b);
  // and into another generator: the state is the whole stream
  Generator other;
  other.set_state(state);
  EXPECT_EQ(rand({11}, other).tolist<float>(), a);
}

TEST(Generator, SetStateRefusesWhatGetStateCannotHaveReturned) {
  Generator g;
  EXPECT_THAT([&] { g.set_state(zeros({3}, dtype(kUInt8))); },
              ThrowsMessage<Error>(HasSubstr("[Generator::set_state] expected the 16-byte state "
                                             "get_state() returns (seed, offset), found 3 bytes")));
  EXPECT_THAT([&] { g.set_state(zeros({16})); },
              ThrowsMessage<Error>(HasSubstr("[Generator::set_state] expected a uint8 tensor")));
}

TEST(Generator, CopiesShareOneState) {
  Generator a;
  Generator b = a;
  EXPECT_TRUE(a == b);
  b.manual_seed(3);
  EXPECT_EQ(a.initial_seed(), 3u);
  rand({4}, a);
  EXPECT_EQ(offset_of(b), 1u);
  EXPECT_FALSE(a == Generator());
}

TEST(Generator, SameSeedGivesTheDefaultGeneratorsNumbers) {
  // A generator is the same Philox stream as the default one: the scheme is one.
  manual_seed(31);
  const std::vector<float> expected = rand({10}).tolist<float>();
  Generator g;
  g.manual_seed(31);
  EXPECT_EQ(rand({10}, g).tolist<float>(), expected);
}

TEST(Generator, DrawsWithAGeneratorLeaveTheDefaultGeneratorAlone) {
  manual_seed(8);
  const std::vector<uint8_t> before = get_rng_state();
  Generator g;
  g.manual_seed(8);
  rand({100}, g);
  randn({3}, g);
  randint(0, 9, {5}, g);
  randperm(10, g);
  Tensor t = empty({6});
  detail::uniform_from(t, 0, 1, g);
  detail::normal_from(t, 0, 1, g);
  detail::random_from(t, 0, 10, g);
  detail::bernoulli_from(t, 0.5, g);
  multinomial(ones({4}), 2, false, g);
  normal(zeros({3}), 1.0, g);
  bernoulli(full({3}, 0.5), g);
  poisson(full({3}, 2.0), g);
  rand_like(t, g);
  randn_like(t, g);
  EXPECT_EQ(get_rng_state(), before);
  EXPECT_GT(offset_of(g), 0u);
}

TEST(Generator, DrawsFromTheDefaultGeneratorLeaveAGeneratorAlone) {
  Generator g;
  g.manual_seed(4);
  const Tensor state = g.get_state();
  manual_seed(4);
  rand({50});
  randperm(7);
  empty({5}).normal_();
  EXPECT_EQ(bytes_of(g.get_state()), bytes_of(state));
}

TEST(Generator, ManualSeedDoesNotReseedGeneratorsMadeByTheUser) {
  Generator g;
  g.manual_seed(10);
  manual_seed(99);
  EXPECT_EQ(g.initial_seed(), 10u);
}

TEST(Generator, DefaultGeneratorIsTheStateManualSeedAndGetRngStateUse) {
  Generator cpu = default_generator();
  EXPECT_TRUE(cpu == default_generator(Device(kCPU)));
  manual_seed(17);
  EXPECT_EQ(cpu.initial_seed(), 17u);
  rand({8}, cpu);  // two blocks of the default stream
  std::vector<uint8_t> state = get_rng_state();
  EXPECT_EQ(bytes_of(cpu.get_state()), state);
  EXPECT_EQ(state[8], 2u);
  cpu.manual_seed(18);
  EXPECT_EQ(initial_seed(), 18u);
}

TEST(Generator, EveryRandomOpReproducesItsDrawsFromTheSameState) {
  auto draws = [](Generator& g) {
    std::vector<std::vector<double>> out;
    auto keep = [&](const Tensor& t) { out.push_back(t.to(kFloat64).contiguous().tolist<double>()); };
    keep(rand({5}, g));
    keep(randn({2, 3}, g));
    keep(randint(-4, 9, {6}, g));
    keep(randperm(8, g));
    keep(multinomial(tensor({1.0, 2.0, 3.0}), 5, true, g));
    keep(multinomial(tensor({1.0, 2.0, 3.0}), 2, false, g));
    keep(normal(zeros({3}), ones({3}), g));
    keep(normal(1.0, ones({3}), g));
    keep(normal(2.0, 0.5, {4}, g));
    keep(bernoulli(full({6}, 0.5), g));
    keep(bernoulli(zeros({6}), 0.3, g));
    keep(poisson(full({4}, 3.0), g));
    Tensor t = empty({5}, dtype(kFloat64));
    keep(detail::uniform_from(t, -1, 1, g));
    keep(detail::normal_from(t, 2, 3, g));
    keep(detail::random_from(t, 0, std::nullopt, g));
    keep(detail::bernoulli_from(t, 0.25, g));
    keep(multinomial(full({4}, 0.5), 2, false, g));
    return out;
  };
  Generator g;
  g.manual_seed(123);
  const auto first = draws(g);
  g.manual_seed(123);
  EXPECT_EQ(draws(g), first);
  EXPECT_NE(draws(g), first);  // the stream moved on
}

TEST(Generator, ThreadsSharingOneGeneratorReserveDisjointBlocks) {
  Generator g;
  g.manual_seed(12);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([g]() mutable {
      for (int i = 0; i < 200; ++i) rand({4}, g);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(offset_of(g), 800u);
}

TEST(Generator, ACudaGeneratorIsRefusedByCpuOpsWithTorchsWords) {
  Generator g(Device(kCUDA, 0));
  const std::string expected = "Expected a 'cpu' device type for generator but found 'cuda'";
  EXPECT_THAT([&] { rand({2}, g); }, ThrowsMessage<Error>(HasSubstr("[rand] " + expected)));
  EXPECT_THAT([&] { randn({2}, g); }, ThrowsMessage<Error>(HasSubstr("[randn] " + expected)));
  EXPECT_THAT([&] { randint(0, 3, {2}, g); }, ThrowsMessage<Error>(HasSubstr("[randint] " + expected)));
  EXPECT_THAT([&] { randperm(3, g); }, ThrowsMessage<Error>(HasSubstr("[randperm] " + expected)));
  EXPECT_THAT([&] { multinomial(ones({3}), 1, false, g); },
              ThrowsMessage<Error>(HasSubstr("[multinomial] " + expected)));
  EXPECT_THAT([&] { normal(zeros({2}), 1.0, g); }, ThrowsMessage<Error>(HasSubstr("[normal] " + expected)));
  EXPECT_THAT([&] { bernoulli(zeros({2}), g); }, ThrowsMessage<Error>(HasSubstr("[bernoulli] " + expected)));
  EXPECT_THAT([&] { poisson(zeros({2}), g); }, ThrowsMessage<Error>(HasSubstr("[poisson] " + expected)));
  Tensor t = zeros({2});
  EXPECT_THAT([&] { detail::uniform_from(t, 0, 1, g); },
              ThrowsMessage<Error>(HasSubstr("[Tensor::uniform_] " + expected)));
  EXPECT_THAT([&] { detail::normal_from(t, 0, 1, g); },
              ThrowsMessage<Error>(HasSubstr("[Tensor::normal_] " + expected)));
  EXPECT_THAT([&] { detail::random_from(t, 0, 5, g); },
              ThrowsMessage<Error>(HasSubstr("[Tensor::random_] " + expected)));
  // The message says what to do as well.
  EXPECT_THAT([&] { rand({2}, g); },
              ThrowsMessage<Error>(HasSubstr("the draw is on cpu and the generator on cuda:0; make "
                                             "the generator with tide::Generator(Device(\"cpu\"))")));
}

TEST(Generator, RandomDrawsIntegersInTorchsRanges) {
  Generator g;
  g.manual_seed(40);
  Tensor t = empty({4000}, dtype(kInt64));
  detail::random_from(t, 3, 7, g);
  std::vector<int> seen(4, 0);
  for (int64_t v : t.tolist<int64_t>()) {
    ASSERT_TRUE(v >= 3 && v < 7) << v;
    ++seen[v - 3];
  }
  for (int c : seen) EXPECT_GT(c, 800);  // 1000 expected each; the sd is about 27
  detail::random_from(t, 0, 5, g);
  for (int64_t v : t.tolist<int64_t>()) ASSERT_TRUE(v >= 0 && v < 5) << v;
  // random_() of uint8: all of [0, 255], 255 included
  Tensor u = empty({20000}, dtype(kUInt8));
  detail::random_from(u, 0, std::nullopt, g);
  EXPECT_EQ(u.to(kInt64).max().item<int64_t>(), 255);
  EXPECT_EQ(u.to(kInt64).min().item<int64_t>(), 0);
  // random_() of float32: integers in [0, 2^24]
  Tensor f = empty({1000});
  detail::random_from(f, 0, std::nullopt, g);
  for (float v : f.tolist<float>()) ASSERT_TRUE(v >= 0 && v <= 16777216.0f && v == static_cast<int64_t>(v)) << v;
  // random_(from, none) of bool: 0 or 1
  Tensor b = empty({100}, dtype(kBool));
  detail::random_from(b, 0, std::nullopt, g);
  EXPECT_TRUE(b.any().item<bool>());
  EXPECT_FALSE(b.all().item<bool>());
  // int64's whole range: no overflow of the 64-bit span
  Tensor w = empty({8}, dtype(kInt64));
  detail::random_from(w, std::numeric_limits<int64_t>::lowest(), std::nullopt, g);
}

TEST(Generator, RandomRefusesRangesAsTorch) {
  Tensor t = zeros({3}, dtype(kUInt8));
  EXPECT_THAT([&] { detail::random_from(t, 5, 5, std::nullopt); },
              ThrowsMessage<Error>(HasSubstr("[Tensor::random_] random_ expects 'from' to be less "
                                             "than 'to', but got from=5 >= to=5")));
  EXPECT_THAT([&] { detail::random_from(t, 0, 300, std::nullopt); },
              ThrowsMessage<Error>(HasSubstr("[Tensor::random_] the range [0, 300) is out of "
                                             "bounds for uint8")));
  EXPECT_THAT([&] { detail::random_from(t, 256, std::nullopt, std::nullopt); },
              ThrowsMessage<Error>(HasSubstr("random_ expects 'from' casted to dtype to be less "
                                             "than or equal to 'to_inc' casted to dtype, but got "
                                             "from=256 > to_inc=255")));
}

TEST(Generator, InPlaceDrawsWithAGeneratorDoWhatAutogradNeeds) {
  Tensor leaf = zeros({3}).requires_grad_();
  EXPECT_THROW(detail::random_from(leaf, 0, 4, std::nullopt), Error);
  EXPECT_THROW(detail::bernoulli_from(leaf, 0.5, std::nullopt), Error);
  Generator g;
  EXPECT_THROW(detail::uniform_from(leaf, 0, 1, g), Error);
  EXPECT_THROW(detail::normal_from(leaf, 0, 1, g), Error);
  // A tensor recorded by autograd gets the draw, and its history ends there.
  Tensor base = zeros({3}).requires_grad_();
  Tensor y = base * 2;
  detail::uniform_from(y, 0, 1, g);
  y.sum().backward();
  EXPECT_TRUE(!base.grad().defined() || base.grad().abs().sum().item<float>() == 0.0f);
}

TEST(Generator, BernoulliInPlaceTakesOneProbabilityOrATensorOfThem) {
  Generator g;
  g.manual_seed(2);
  Tensor t = empty({4});
  EXPECT_EQ(&detail::bernoulli_from(t, 1.0, g), &t);
  EXPECT_EQ(t.tolist<float>(), (std::vector<float>{1, 1, 1, 1}));
  detail::bernoulli_from(t, tensor({0.0, 1.0, 0.0, 1.0}), g);
  EXPECT_EQ(t.tolist<float>(), (std::vector<float>{0, 1, 0, 1}));
  EXPECT_EQ(bernoulli(tensor({1.0, 0.0}), g).tolist<float>(), (std::vector<float>{1, 0}));
}

TEST(Generator, TensorMethodsDrawAsTheFunctionsDo) {
  Generator g;
  auto draw = [&](Generator& gen) {
    Tensor t = empty({8}, dtype(kFloat64));
    std::vector<std::vector<double>> out;
    out.push_back(t.uniform_(-1, 1, gen).tolist<double>());
    out.push_back(t.normal_(0, 2, gen).tolist<double>());
    out.push_back(t.random_(3, 9, gen).tolist<double>());
    out.push_back(t.random_(4, gen).tolist<double>());
    out.push_back(t.random_(gen).tolist<double>());
    out.push_back(t.bernoulli_(0.5, gen).tolist<double>());
    out.push_back(t.bernoulli_(full({8}, 0.5, dtype(kFloat64)), gen).tolist<double>());
    out.push_back(full({8}, 0.5, dtype(kFloat64)).bernoulli(gen).tolist<double>());
    out.push_back(t.bernoulli(0.5, gen).tolist<double>());
    out.push_back(ones({5}).multinomial(3, false, gen).to(kFloat64).tolist<double>());
    return out;
  };
  g.manual_seed(64);
  const auto methods = draw(g);
  g.manual_seed(64);
  Tensor t = empty({8}, dtype(kFloat64));
  EXPECT_EQ(detail::uniform_from(t, -1, 1, g).tolist<double>(), methods[0]);
  EXPECT_EQ(detail::normal_from(t, 0, 2, g).tolist<double>(), methods[1]);
  EXPECT_EQ(detail::random_from(t, 3, 9, g).tolist<double>(), methods[2]);
  EXPECT_EQ(detail::random_from(t, 0, 4, g).tolist<double>(), methods[3]);
  g.manual_seed(64);
  EXPECT_EQ(draw(g), methods);
  // without a generator: the default one, as before
  manual_seed(65);
  const std::vector<double> a = t.uniform_(0, 1, std::nullopt).tolist<double>();
  manual_seed(65);
  EXPECT_EQ(t.uniform_(0, 1).tolist<double>(), a);
}
