#include "data/epoch_order.h"

#include <numeric>
#include <utility>

#include "core/philox.h"
#include "tensor/generator.h"

namespace tide::data::detail {
namespace {

__extension__ typedef unsigned __int128 Uint128;  // g++'s; __extension__ keeps -Wpedantic quiet

/// 64-bit words from the Philox stream of (seed, epoch), two per block.
class WordStream {
 public:
  WordStream(uint64_t seed, uint64_t epoch) : key_(philox::key_from_seed(seed)), epoch_(epoch) {}
  uint64_t next() {
    if (used_ == 2) {
      philox::Words4 ctr{{static_cast<uint32_t>(block_), static_cast<uint32_t>(block_ >> 32),
                          static_cast<uint32_t>(epoch_), static_cast<uint32_t>(epoch_ >> 32)}};
      out_ = philox::philox4x32_10(ctr, key_);
      ++block_;
      used_ = 0;
    }
    const uint32_t* w = out_.w + 2 * used_++;
    return static_cast<uint64_t>(w[0]) | static_cast<uint64_t>(w[1]) << 32;
  }

 private:
  philox::Key2 key_;
  uint64_t epoch_;
  uint64_t block_ = 0;
  philox::Words4 out_{};
  int used_ = 2;
};

}  // namespace

std::vector<size_t> sequential_order(size_t n) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  return order;
}

std::vector<size_t> shuffled_order(size_t n, uint64_t seed, uint64_t epoch) {
  std::vector<size_t> order = sequential_order(n);
  WordStream words(seed, epoch);
  for (size_t i = n; i > 1; --i) {
    // j uniform in [0, i): the high half of a 64x64-bit product (Lemire's multiply-shift;
    // its bias, below i / 2^64, is far beneath anything an epoch could show).
    const auto j =
        static_cast<size_t>((static_cast<Uint128>(words.next()) * static_cast<Uint128>(i)) >> 64);
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

uint64_t draw_seed() {
  const tide::detail::PhiloxStart start =
      tide::detail::default_generator(Device(kCPU)).reserve(1);
  const philox::Words4 out = philox::philox4x32_10(philox::counter_from_index(start.offset),
                                                   philox::key_from_seed(start.seed));
  return static_cast<uint64_t>(out.w[0]) | static_cast<uint64_t>(out.w[1]) << 32;
}

}  // namespace tide::data::detail
