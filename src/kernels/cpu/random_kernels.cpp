#include "kernels/cpu/random_kernels.h"

#include <algorithm>
#include <type_traits>

#include "core/philox.h"
#include "kernels/cpu/parallel.h"
#include "kernels/distributions.h"

namespace tide::kernels {
namespace {

using detail::PhiloxStart;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
constexpr uint64_t kTwoPow32 = 1ull << 32;

/// Calls f(block_index, words) for every Philox block of a draw, in parallel.
template <class F>
void for_each_block(int64_t blocks, PhiloxStart start, const F& f) {
  parallel_for(0, blocks, kGrainSize / 4, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      f(c, philox::block(start.seed, start.offset + static_cast<uint64_t>(c)));
    }
  });
}

template <class T>
void uniform_typed(T* out, int64_t n, PhiloxStart start, double from, double to) {
  for_each_block(ceil_div(n, 4), start, [&](int64_t c, const philox::Words4& w) {
    const int64_t base = c * 4;
    const int lanes = static_cast<int>(std::min<int64_t>(4, n - base));
    for (int l = 0; l < lanes; ++l) out[base + l] = uniform_from_word<T>(w.w[l], from, to);
  });
}

template <class T>
void normal_typed(T* out, int64_t n, PhiloxStart start, double mean, double std) {
  for_each_block(ceil_div(n, 4), start, [&](int64_t c, const philox::Words4& w) {
    const int64_t base = c * 4;
    for (int pair = 0; pair < 2; ++pair) {
      const int64_t i = base + 2 * pair;
      if (i >= n) break;
      double z0, z1;
      box_muller(w.w[2 * pair], w.w[2 * pair + 1], z0, z1);
      out[i] = normal_from_standard<T>(z0, mean, std);
      if (i + 1 < n) out[i + 1] = normal_from_standard<T>(z1, mean, std);
    }
  });
}

template <class T>
void randint_typed(T* out, int64_t n, PhiloxStart start, int64_t low, uint64_t range) {
  auto store = [&](int64_t i, uint64_t v) {
    out[i] = convert<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + v));
  };
  if (range <= kTwoPow32) {
    for_each_block(ceil_div(n, 4), start, [&](int64_t c, const philox::Words4& w) {
      const int64_t base = c * 4;
      const int lanes = static_cast<int>(std::min<int64_t>(4, n - base));
      for (int l = 0; l < lanes; ++l) store(base + l, w.w[l] % range);
    });
  } else {
    for_each_block(ceil_div(n, 2), start, [&](int64_t c, const philox::Words4& w) {
      const int64_t base = c * 2;
      const int lanes = static_cast<int>(std::min<int64_t>(2, n - base));
      for (int l = 0; l < lanes; ++l) {
        uint64_t v = static_cast<uint64_t>(w.w[2 * l]) | (static_cast<uint64_t>(w.w[2 * l + 1]) << 32);
        store(base + l, v % range);
      }
    });
  }
}

template <class T>
inline constexpr bool kFloating = is_reduced_float<T>::value || std::is_floating_point_v<T>;

}  // namespace

int64_t uniform_blocks(int64_t n) { return ceil_div(n, 4); }
int64_t randint_blocks(int64_t n, uint64_t range) {
  return range <= kTwoPow32 ? ceil_div(n, 4) : ceil_div(n, 2);
}

void uniform_kernel(const Tensor& t, PhiloxStart start, double from, double to) {
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) uniform_typed(static_cast<T*>(t.raw_data()), t.numel(), start, from, to);
  });
}

void normal_kernel(const Tensor& t, PhiloxStart start, double mean, double std) {
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) normal_typed(static_cast<T*>(t.raw_data()), t.numel(), start, mean, std);
  });
}

void randint_kernel(const Tensor& t, PhiloxStart start, int64_t low, uint64_t range) {
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    randint_typed(static_cast<T*>(t.raw_data()), t.numel(), start, low, range);
  });
}

}  // namespace tide::kernels
