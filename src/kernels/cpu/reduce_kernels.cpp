#include "kernels/cpu/reduce_kernels.h"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "kernels/convert.h"
#include "kernels/cpu/parallel.h"
#include "kernels/fold_dispatch.h"
#include "kernels/reduce_functors.h"

namespace tide::kernels {
namespace {

// Note [Cascade sum]: a contiguous range is summed in leaves of kLeaf elements, each leaf by
// kLanes independent accumulators (lane j takes elements j, j + kLanes, ...). Independent lanes
// let g++ -O3 vectorize without -ffast-math (no reassociation is needed) and hide the add
// latency. Leaf results merge pairwise through a binary counter (levels[k] holds the sum of
// 2^k leaves), so the rounding error grows with log(n) rather than n, as torch's cascade sum.
// Large ranges are cut into fixed kChunk pieces summed in parallel and then combined
// pairwise, so the result is the same for any thread count.
constexpr int kLanes = 16;
constexpr int64_t kLeaf = kLanes * 64;
constexpr int kMaxLevels = 64;
constexpr int64_t kChunk = int64_t{1} << 16;

template <class Acc, class Fold>
Acc pairwise(const Acc* v, int64_t n, Fold fold) {
  if (n == 0) return Fold::template identity<Acc>();
  if (n == 1) return v[0];
  int64_t h = n / 2;
  return fold(pairwise(v, h, fold), pairwise(v + h, n - h, fold));
}

template <class In, class Acc, class Fold>
Acc cascade_sum(const In* __restrict p, int64_t n, Fold fold) {
  const Acc id = Fold::template identity<Acc>();
  Acc levels[kMaxLevels][kLanes];
  uint64_t leaves = 0;
  const int64_t full = n / kLanes * kLanes;
  for (int64_t i = 0; i < full;) {
    const int64_t m = std::min(kLeaf, full - i);
    Acc acc[kLanes];
    for (int j = 0; j < kLanes; ++j) acc[j] = id;
    const In* __restrict q = p + i;
    for (int64_t k = 0; k < m; k += kLanes) {
      for (int j = 0; j < kLanes; ++j) acc[j] = fold(acc[j], to_acc<Acc>(q[k + j]));
    }
    i += m;
    int level = 0;
    for (; leaves & (uint64_t{1} << level); ++level) {
      for (int j = 0; j < kLanes; ++j) acc[j] = fold(acc[j], levels[level][j]);
    }
    for (int j = 0; j < kLanes; ++j) levels[level][j] = acc[j];
    ++leaves;
  }
  Acc lanes[kLanes];
  for (int j = 0; j < kLanes; ++j) lanes[j] = id;
  for (int level = 0; level < kMaxLevels && (leaves >> level) != 0; ++level) {
    if ((leaves >> level) & 1) {
      for (int j = 0; j < kLanes; ++j) lanes[j] = fold(lanes[j], levels[level][j]);
    }
  }
  for (int64_t i = full; i < n; ++i) lanes[i - full] = fold(lanes[i - full], to_acc<Acc>(p[i]));
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int j = 0; j < width; ++j) lanes[j] = fold(lanes[j], lanes[j + width]);
  }
  return lanes[0];
}

/// The fold of a contiguous range, split into kChunk pieces over the threads when large.
template <class In, class Acc, class Fold>
Acc parallel_sum(const In* p, int64_t n, Fold fold) {
  if (n <= kChunk) return cascade_sum<In, Acc>(p, n, fold);
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<Acc> partial(static_cast<size_t>(chunks));
  parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      const int64_t begin = c * kChunk;
      partial[static_cast<size_t>(c)] =
          cascade_sum<In, Acc>(p + begin, std::min(kChunk, n - begin), fold);
    }
  });
  return pairwise(partial.data(), chunks, fold);
}

// Column sums: out[i] = sum over r of p[r * stride + i] for a tile of `width` columns. Rows are
// added in blocks of kRowBlock (vectorized across the columns), and blocks merge through the
// same binary counter as cascade_sum, in `levels` (kMaxLevels * width scratch).
constexpr int64_t kRowBlock = 16;
constexpr int64_t kTile = 1024;

template <class In, class Acc, class Fold>
void column_sum_tile(const In* p, int64_t rows, int64_t stride, int64_t width, Acc* __restrict acc,
                     Acc* __restrict levels, Fold fold) {
  const Acc id = Fold::template identity<Acc>();
  uint64_t blocks = 0;
  for (int64_t r0 = 0; r0 < rows; r0 += kRowBlock) {
    const int64_t r1 = std::min(rows, r0 + kRowBlock);
    for (int64_t j = 0; j < width; ++j) acc[j] = id;
    for (int64_t r = r0; r < r1; ++r) {
      const In* __restrict row = p + r * stride;
      for (int64_t j = 0; j < width; ++j) acc[j] = fold(acc[j], to_acc<Acc>(row[j]));
    }
    int level = 0;
    for (; blocks & (uint64_t{1} << level); ++level) {
      const Acc* __restrict l = levels + level * width;
      for (int64_t j = 0; j < width; ++j) acc[j] = fold(acc[j], l[j]);
    }
    std::copy(acc, acc + width, levels + level * width);
    ++blocks;
  }
  for (int64_t j = 0; j < width; ++j) acc[j] = id;
  for (int level = 0; level < kMaxLevels && (blocks >> level) != 0; ++level) {
    if ((blocks >> level) & 1) {
      const Acc* __restrict l = levels + level * width;
      for (int64_t j = 0; j < width; ++j) acc[j] = fold(acc[j], l[j]);
    }
  }
}

template <class In, class Out, class Fold>
void sum_impl(Out* out, const In* in, ReduceShape s, bool mean, Fold fold) {
  using Acc = sum_acc_t<Out>;
  const int64_t outer = s.outer, rows = s.reduced, inner = s.inner;
  if (outer * inner == 0) return;
  if (inner == 1) {
    if (outer < 4 && rows >= 4 * kChunk) {
      // few long rows: parallelize inside each row
      for (int64_t o = 0; o < outer; ++o) {
        out[o] = finish_sum<Out>(parallel_sum<In, Acc>(in + o * rows, rows, fold), rows, mean);
      }
      return;
    }
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(rows, 1));
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        out[o] = finish_sum<Out>(cascade_sum<In, Acc>(in + o * rows, rows, fold), rows, mean);
      }
    });
    return;
  }
  const int64_t width = std::min(inner, kTile);
  const int64_t tiles = (inner + width - 1) / width;
  const int64_t work_per_item = std::max<int64_t>(1, rows * width);
  const int64_t grain = std::max<int64_t>(1, kGrainSize / work_per_item);
  parallel_for(0, outer * tiles, grain, [&](int64_t b, int64_t e) {
    std::vector<Acc> scratch(static_cast<size_t>((kMaxLevels + 1) * width));
    Acc* acc = scratch.data();
    Acc* levels = acc + width;
    for (int64_t item = b; item < e; ++item) {
      const int64_t o = item / tiles;
      const int64_t c0 = (item % tiles) * width;
      const int64_t w = std::min(width, inner - c0);
      column_sum_tile<In, Acc>(in + o * rows * inner + c0, rows, inner, w, acc, levels, fold);
      Out* dst = out + o * inner + c0;
      for (int64_t j = 0; j < w; ++j) dst[j] = finish_sum<Out>(acc[j], rows, mean);
    }
  });
}

// ---- max / min

template <class In, bool IsMax>
ValueIndex<compute_t<In>> scan_range(const In* p, int64_t begin, int64_t end) {
  using C = compute_t<In>;
  ValueIndex<C> best{convert<C>(p[begin]), begin};
  if (is_nan(best.value)) return best;
  for (int64_t i = begin + 1; i < end; ++i) {
    const C v = convert<C>(p[i]);
    if (is_nan(v)) return {v, i};  // the first NaN wins: nothing after it matters
    if (IsMax ? v > best.value : v < best.value) {
      best.value = v;
      best.index = i;
    }
  }
  return best;
}

/// The max/min value of a range without its index: kLanes independent running extrema (the
/// `a > b ? a : b` select maps to maxps) and a separate NaN flag per lane, so the compiler can
/// vectorize without -ffast-math. Any NaN makes the result NaN, as torch.
template <class In, bool IsMax>
ValueIndex<compute_t<In>> scan_range_value(const In* p, int64_t begin, int64_t end) {
  using C = compute_t<In>;
  if constexpr (!std::is_floating_point_v<C> || std::is_same_v<In, C>) {
    if (end - begin >= 2 * kLanes) {
      C m[kLanes];
      C nan_seen[kLanes] = {};  // v - v is 0 for numbers and NaN for NaN
      for (int j = 0; j < kLanes; ++j) m[j] = p[begin + j];
      const int64_t full = begin + (end - begin) / kLanes * kLanes;
      for (int64_t i = begin; i < full; i += kLanes) {
        for (int j = 0; j < kLanes; ++j) {
          const C v = p[i + j];
          if constexpr (IsMax) {
            m[j] = v > m[j] ? v : m[j];
          } else {
            m[j] = v < m[j] ? v : m[j];
          }
          if constexpr (std::is_floating_point_v<C>) nan_seen[j] += v - v;
        }
      }
      ValueIndex<C> best{m[0], begin};
      for (int j = 0; j < kLanes; ++j) {
        best = combine_min_max<C, IsMax>(best, ValueIndex<C>{m[j], begin});
        if (is_nan(nan_seen[j])) best = combine_min_max<C, IsMax>(best, {nan_seen[j], begin});
      }
      if (full < end) best = combine_min_max<C, IsMax>(best, scan_range<In, IsMax>(p, full, end));
      return best;
    }
  }
  return scan_range<In, IsMax>(p, begin, end);
}

/// Max/min of one contiguous row, in parallel fixed chunks when long (deterministic: chunks
/// combine in index order, so the first extremum wins).
template <class In, bool IsMax>
ValueIndex<compute_t<In>> scan_row(const In* p, int64_t n, bool parallel, bool want_index) {
  using C = compute_t<In>;
  auto scan = [&](int64_t b, int64_t e) {
    return want_index ? scan_range<In, IsMax>(p, b, e) : scan_range_value<In, IsMax>(p, b, e);
  };
  if (!parallel || n <= kChunk) return scan(0, n);
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<ValueIndex<C>> partial(static_cast<size_t>(chunks));
  parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      partial[static_cast<size_t>(c)] = scan(c * kChunk, std::min(n, (c + 1) * kChunk));
    }
  });
  ValueIndex<C> best = partial[0];
  for (int64_t c = 1; c < chunks; ++c) {
    best = combine_min_max<C, IsMax>(best, partial[static_cast<size_t>(c)]);
  }
  return best;
}

template <class In, bool IsMax>
void min_max_impl(In* values, int64_t* indices, const In* in, ReduceShape s) {
  using C = compute_t<In>;
  const int64_t outer = s.outer, rows = s.reduced, inner = s.inner;
  if (outer * inner == 0) return;
  const bool want_index = indices != nullptr;
  auto store = [&](int64_t at, ValueIndex<C> r) {
    if (values) values[at] = convert<In>(r.value);
    if (indices) indices[at] = r.index;
  };
  if (inner == 1) {
    if (outer < 4 && rows >= 4 * kChunk) {
      for (int64_t o = 0; o < outer; ++o)
        store(o, scan_row<In, IsMax>(in + o * rows, rows, true, want_index));
      return;
    }
    const int64_t grain = std::max<int64_t>(1, kGrainSize / rows);
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o)
        store(o, scan_row<In, IsMax>(in + o * rows, rows, false, want_index));
    });
    return;
  }
  // Columns: a tile of running (value, index) pairs updated row by row.
  const int64_t width = std::min(inner, kTile);
  const int64_t tiles = (inner + width - 1) / width;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, rows * width));
  parallel_for(0, outer * tiles, grain, [&](int64_t b, int64_t e) {
    std::vector<C> best(static_cast<size_t>(width));
    std::vector<int64_t> at(static_cast<size_t>(width));
    const MinMaxSelect<C, IsMax> select;
    for (int64_t item = b; item < e; ++item) {
      const int64_t o = item / tiles;
      const int64_t c0 = (item % tiles) * width;
      const int64_t w = std::min(width, inner - c0);
      const In* base = in + o * rows * inner + c0;
      for (int64_t j = 0; j < w; ++j) {
        best[static_cast<size_t>(j)] = convert<C>(base[j]);
        at[static_cast<size_t>(j)] = 0;
      }
      for (int64_t r = 1; r < rows; ++r) {
        const In* row = base + r * inner;
        for (int64_t j = 0; j < w; ++j) {
          const C v = convert<C>(row[j]);
          if (select(v, best[static_cast<size_t>(j)])) {
            best[static_cast<size_t>(j)] = v;
            at[static_cast<size_t>(j)] = r;
          }
        }
      }
      for (int64_t j = 0; j < w; ++j) {
        store(o * inner + c0 + j,
              ValueIndex<C>{best[static_cast<size_t>(j)], at[static_cast<size_t>(j)]});
      }
    }
  });
}

template <class In, bool IsMax>
void cum_extremum_impl(In* values, int64_t* indices, const In* in, ReduceShape s) {
  using C = compute_t<In>;
  const int64_t lines = s.outer * s.inner;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, s.reduced));
  parallel_for(0, lines, grain, [&](int64_t b, int64_t e) {
    for (int64_t line = b; line < e; ++line) {
      const int64_t o = line / s.inner, i = line % s.inner;
      const int64_t base = o * s.reduced * s.inner + i;
      C best{};
      int64_t at = 0;
      for (int64_t r = 0; r < s.reduced; ++r) {
        const C v = convert<C>(in[base + r * s.inner]);
        if (r == 0 || cum_extremum_takes_over<C, IsMax>(v, best)) {
          best = v;
          at = r;
        }
        values[base + r * s.inner] = convert<In>(best);
        indices[base + r * s.inner] = at;
      }
    }
  });
}

template <class Fold>
void fold_kernel(const Tensor& out, const Tensor& in, ReduceShape shape, bool mean, Fold fold) {
  TIDE_INTERNAL_ASSERT(dense(in) && dense(out));
  TIDE_INTERNAL_ASSERT(out.numel() == shape.outer * shape.inner);
  TIDE_INTERNAL_ASSERT(!mean || out.dtype() == in.dtype());
  with_fold_pointers(out, in, [&](const auto* src, auto* dst) {
    sum_impl(dst, src, shape, mean, fold);
  });
}

/// out[o, r, i] = the fold of in[o, 0..r, i], accumulated as the reduction's fold is.
template <class In, class Out, class Fold>
void scan_impl(Out* out, const In* in, ReduceShape s, Fold fold) {
  using Acc = sum_acc_t<Out>;
  const int64_t lines = s.outer * s.inner;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, s.reduced));
  parallel_for(0, lines, grain, [&](int64_t b, int64_t e) {
    for (int64_t line = b; line < e; ++line) {
      const int64_t o = line / s.inner, i = line % s.inner;
      const int64_t base = o * s.reduced * s.inner + i;
      Acc acc = Fold::template identity<Acc>();
      for (int64_t r = 0; r < s.reduced; ++r) {
        acc = fold(acc, to_acc<Acc>(in[base + r * s.inner]));
        out[base + r * s.inner] = finish_sum<Out>(acc, 1, false);
      }
    }
  });
}

}  // namespace

void sum_kernel(const Tensor& out, const Tensor& in, ReduceShape shape, bool mean) {
  fold_kernel(out, in, shape, mean, SumFold{});
}

void prod_kernel(const Tensor& out, const Tensor& in, ReduceShape shape) {
  fold_kernel(out, in, shape, false, ProdFold{});
}

void cum_extremum_kernel(const Tensor& values, const Tensor& indices, const Tensor& in,
                         ReduceShape shape, bool is_max) {
  TIDE_INTERNAL_ASSERT(dense(in) && dense(values) && dense(indices));
  TIDE_INTERNAL_ASSERT(values.dtype() == in.dtype() && indices.dtype() == kInt64);
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using In = typename decltype(tag)::type;
    auto* v = static_cast<In*>(values.raw_data());
    auto* i = static_cast<int64_t*>(indices.raw_data());
    const auto* src = static_cast<const In*>(in.raw_data());
    if (is_max) {
      cum_extremum_impl<In, true>(v, i, src, shape);
    } else {
      cum_extremum_impl<In, false>(v, i, src, shape);
    }
  });
}

void scan_kernel(const Tensor& out, const Tensor& in, ReduceShape shape, bool prod) {
  TIDE_INTERNAL_ASSERT(dense(in) && dense(out) && out.numel() == in.numel());
  with_fold_pointers(out, in, [&](const auto* src, auto* dst) {
    if (prod) {
      scan_impl(dst, src, shape, ProdFold{});
    } else {
      scan_impl(dst, src, shape, SumFold{});
    }
  });
}

void min_max_kernel(const Tensor& values, const Tensor& indices, const Tensor& in,
                    ReduceShape shape, bool is_max) {
  TIDE_INTERNAL_ASSERT(dense(in) && shape.reduced > 0);
  TIDE_INTERNAL_ASSERT(!values.defined() || (dense(values) && values.dtype() == in.dtype()));
  TIDE_INTERNAL_ASSERT(!indices.defined() || (dense(indices) && indices.dtype() == kInt64));
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using In = typename decltype(tag)::type;
    In* v = values.defined() ? static_cast<In*>(values.raw_data()) : nullptr;
    int64_t* i = indices.defined() ? static_cast<int64_t*>(indices.raw_data()) : nullptr;
    const In* src = static_cast<const In*>(in.raw_data());
    if (is_max) {
      min_max_impl<In, true>(v, i, src, shape);
    } else {
      min_max_impl<In, false>(v, i, src, shape);
    }
  });
}

}  // namespace tide::kernels
