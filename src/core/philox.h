#pragma once
// Philox4x32-10: the counter-based generator behind every random number in tide (Salmon et
// al., "Parallel random numbers: as easy as 1, 2, 3", SC'11), with Random123's constants.
// Header-only and TIDE_HOST_DEVICE, so the cpu loops and the CUDA kernels compute the same
// bits from the same (counter, key). How counters are assigned to tensor elements is
// Note [Philox offsets] in include/tide/random.h.

#include <cstdint>

#include "tide/macros.h"

namespace tide::philox {

/// Four 32-bit words: a counter or one block of output.
struct Words4 {
  uint32_t w[4];
};
/// The 64-bit key, as two 32-bit words (low word first).
struct Key2 {
  uint32_t w[2];
};

inline constexpr uint32_t kMultiplier0 = 0xD2511F53u;
inline constexpr uint32_t kMultiplier1 = 0xCD9E8D57u;
inline constexpr uint32_t kWeyl0 = 0x9E3779B9u;  // golden ratio
inline constexpr uint32_t kWeyl1 = 0xBB67AE85u;  // sqrt(3) - 1
inline constexpr int kRounds = 10;

/// The key for a 64-bit seed: low 32 bits, then high 32 bits.
TIDE_HOST_DEVICE inline Key2 key_from_seed(uint64_t seed) {
  return Key2{{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
}

/// The counter for a 64-bit block index: low 64 bits little-endian in words 0-1, words 2-3 zero.
TIDE_HOST_DEVICE inline Words4 counter_from_index(uint64_t index) {
  return Words4{{static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), 0u, 0u}};
}

TIDE_HOST_DEVICE inline void mulhilo32(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo) {
  uint64_t product = static_cast<uint64_t>(a) * static_cast<uint64_t>(b);
  hi = static_cast<uint32_t>(product >> 32);
  lo = static_cast<uint32_t>(product);
}

/// One Philox round (Random123's philox4x32round).
TIDE_HOST_DEVICE inline Words4 round(Words4 ctr, Key2 key) {
  uint32_t hi0, lo0, hi1, lo1;
  mulhilo32(kMultiplier0, ctr.w[0], hi0, lo0);
  mulhilo32(kMultiplier1, ctr.w[2], hi1, lo1);
  return Words4{{hi1 ^ ctr.w[1] ^ key.w[0], lo1, hi0 ^ ctr.w[3] ^ key.w[1], lo0}};
}

/// Philox4x32-10: ten rounds, the key bumped by the Weyl constants between rounds.
TIDE_HOST_DEVICE inline Words4 philox4x32_10(Words4 ctr, Key2 key) {
  ctr = round(ctr, key);
  for (int r = 1; r < kRounds; ++r) {
    key.w[0] += kWeyl0;
    key.w[1] += kWeyl1;
    ctr = round(ctr, key);
  }
  return ctr;
}

/// The four words of block `index` for `seed`: the unit every random kernel consumes.
TIDE_HOST_DEVICE inline Words4 block(uint64_t seed, uint64_t index) {
  return philox4x32_10(counter_from_index(index), key_from_seed(seed));
}

}  // namespace tide::philox
