#include "core/philox.h"

#include <gtest/gtest.h>

using namespace tide::philox;

namespace {

void expect_words(const Words4& got, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3) {
  EXPECT_EQ(got.w[0], w0);
  EXPECT_EQ(got.w[1], w1);
  EXPECT_EQ(got.w[2], w2);
  EXPECT_EQ(got.w[3], w3);
}

}  // namespace

// Random123's kat_vectors for philox4x32_10.
TEST(Philox, MatchesRandom123KnownAnswerForZeroCounterAndKey) {
  expect_words(philox4x32_10(Words4{{0, 0, 0, 0}}, Key2{{0, 0}}), 0x6627e8d5u, 0xe169c58du,
               0xbc57ac4cu, 0x9b00dbd8u);
}

TEST(Philox, MatchesRandom123KnownAnswerForAllOnes) {
  expect_words(philox4x32_10(Words4{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
                             Key2{{0xffffffffu, 0xffffffffu}}),
               0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu);
}

TEST(Philox, MatchesRandom123KnownAnswerForPiDigits) {
  expect_words(philox4x32_10(Words4{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
                             Key2{{0xa4093822u, 0x299f31d0u}}),
               0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u);
}

TEST(Philox, KeyIsTheSeedLowWordFirst) {
  Key2 k = key_from_seed(0x0123456789abcdefull);
  EXPECT_EQ(k.w[0], 0x89abcdefu);
  EXPECT_EQ(k.w[1], 0x01234567u);
}

TEST(Philox, CounterHoldsTheBlockIndexInItsLowWords) {
  expect_words(counter_from_index(0x0000000500000002ull), 2u, 5u, 0u, 0u);
}

TEST(Philox, BlockIsPhiloxOfIndexCounterAndSeedKey) {
  const uint64_t seed = 0xa4093822299f31d0ull;
  Words4 direct = philox4x32_10(Words4{{7, 0, 0, 0}}, Key2{{0x299f31d0u, 0xa4093822u}});
  Words4 via_block = block(seed, 7);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(via_block.w[i], direct.w[i]);
}

TEST(Philox, NeighbouringCountersGiveDifferentBlocks) {
  Words4 a = block(1, 0), b = block(1, 1);
  EXPECT_FALSE(a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2] && a.w[3] == b.w[3]);
}
