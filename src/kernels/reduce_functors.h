#pragma once
// Reduction functors: the pieces of every reduction that decide its numerics, shared by the
// cpu loops and (later) the CUDA kernels, so sums, maxima and their indices agree across
// backends (DESIGN.md decision 6).
//
// Note [Reduction accumulators]: a sum accumulates in sum_acc_t<Out>: float for the 16-bit
// floats and float32 (torch's opmath type), double for float64, and uint64_t for every integer
// and bool output. The unsigned accumulator makes integer overflow wrap (as torch, whose int64
// sums wrap) without signed-overflow UB; finish_sum turns it back into the output type.

#include <cstdint>
#include <type_traits>

#include "kernels/convert.h"
#include "kernels/functors.h"
#include "tide/macros.h"

namespace tide::kernels {

template <class Out> struct sum_acc { using type = uint64_t; };
template <> struct sum_acc<Half> { using type = float; };
template <> struct sum_acc<BFloat16> { using type = float; };
template <> struct sum_acc<float> { using type = float; };
template <> struct sum_acc<double> { using type = double; };
template <class Out> using sum_acc_t = typename sum_acc<Out>::type;

/// One input element as the accumulator type (integers become their two's complement in uint64).
template <class Acc, class In>
TIDE_HOST_DEVICE inline Acc to_acc(In v) {
  if constexpr (std::is_same_v<Acc, uint64_t>) {
    return static_cast<uint64_t>(convert<int64_t>(v));
  } else {
    return convert<Acc>(v);
  }
}

/// The stored result of a sum (or mean: divided by `count`) from its accumulator.
template <class Out, class Acc>
TIDE_HOST_DEVICE inline Out finish_sum(Acc acc, int64_t count, bool mean) {
  if constexpr (std::is_same_v<Acc, uint64_t>) {
    (void)count;
    (void)mean;
    if constexpr (std::is_same_v<Out, bool>) {
      return acc != 0;
    } else {
      return static_cast<Out>(static_cast<int64_t>(acc));
    }
  } else {
    if (mean) acc = acc / static_cast<Acc>(count);
    return convert<Out>(acc);
  }
}

/// Note [Reduction folds]: sum and prod share their loops (the cpu cascade, the GPU plans);
/// the fold says how two partial results combine and what an empty range gives. Both
/// accumulate as Note [Reduction accumulators] says: a uint64_t product wraps as torch's int64
/// product does, and float16/bfloat16 multiply in float, as torch's opmath.
struct SumFold {
  template <class Acc>
  TIDE_HOST_DEVICE static Acc identity() { return Acc(0); }
  template <class Acc>
  TIDE_HOST_DEVICE Acc operator()(Acc a, Acc b) const { return a + b; }
};

struct ProdFold {
  template <class Acc>
  TIDE_HOST_DEVICE static Acc identity() { return Acc(1); }
  template <class Acc>
  TIDE_HOST_DEVICE Acc operator()(Acc a, Acc b) const { return a * b; }
};

/// cummax/cummin's step (torch's cummax_cummin_helper): `candidate` takes over from `best`
/// when it is NaN, or when best is not NaN and candidate >= best (<= for the min).
template <class T, bool IsMax>
TIDE_HOST_DEVICE inline bool cum_extremum_takes_over(T candidate, T best) {
  if (is_nan(candidate)) return true;
  if (is_nan(best)) return false;
  return IsMax ? candidate >= best : candidate <= best;
}

/// max/min selection in the compute type: NaN wins over every number and the first NaN stays;
/// among equal values the earlier one stays (callers visit candidates in index order).
/// Returns whether `candidate` replaces `best`.
template <class T, bool IsMax>
struct MinMaxSelect {
  TIDE_HOST_DEVICE bool operator()(T candidate, T best) const {
    if (is_nan(best)) return false;
    if (is_nan(candidate)) return true;
    if constexpr (IsMax) {
      return candidate > best;
    } else {
      return candidate < best;
    }
  }
};

/// A running max/min with the index where it was found.
template <class T>
struct ValueIndex {
  T value;
  int64_t index;
};

/// Combines two partial results of consecutive ranges, `a` covering the earlier indices;
/// keeps a's index on ties, so the first extremum wins regardless of how the range was split.
template <class T, bool IsMax>
TIDE_HOST_DEVICE inline ValueIndex<T> combine_min_max(ValueIndex<T> a, ValueIndex<T> b) {
  return MinMaxSelect<T, IsMax>{}(b.value, a.value) ? b : a;
}

}  // namespace tide::kernels
