#include "kernels/cpu/advanced_index_kernels.h"

#include <algorithm>
#include <atomic>
#include <limits>

#include "kernels/convert.h"
#include "kernels/cpu/parallel.h"
#include "kernels/cpu/reduce_kernels.h"

namespace tide::kernels {
namespace {

/// Element offset (in elements, from data) of the element numbered `linear` in row-major
/// order over `sizes`.
int64_t offset_of(int64_t linear, const DimVector& sizes, const DimVector& strides) {
  int64_t offset = 0;
  for (int64_t d = sizes.size() - 1; d >= 0; --d) {
    const int64_t q = linear / sizes[d];
    offset += (linear - q * sizes[d]) * strides[d];
    linear = q;
  }
  return offset;
}

template <class T>
T plus(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else {
    return convert<T>(convert<compute_t<T>>(a) + convert<compute_t<T>>(b));
  }
}

/// put_reduce_kernel's op on one element. Integer products wrap, as torch's do (unsigned
/// arithmetic, where signed overflow would be undefined).
template <class T>
T combine(PutReduce op, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return op == PutReduce::Amax ? (a || b) : (a && b);
  } else {
    using C = compute_t<T>;
    const C x = convert<C>(a);
    const C y = convert<C>(b);
    if (op == PutReduce::Prod) {
      if constexpr (std::is_integral_v<C>) {
        using U = std::make_unsigned_t<C>;
        return static_cast<T>(static_cast<U>(static_cast<U>(x) * static_cast<U>(y)));
      } else {
        return convert<T>(x * y);
      }
    }
    if constexpr (!std::is_integral_v<C>) {
      if (y != y) return b;  // NaN lands: it stays (one already there stays by the tests below)
    }
    if (op == PutReduce::Amax) return x < y ? b : a;
    return y < x ? b : a;
  }
}

/// f(self's element numbered index[j], source[j]) for each j: put's and put_reduce's loop. One
/// thread, in index order, so repeated indices accumulate (or overwrite) deterministically.
template <class F>
void put_each(const Tensor& self, const Tensor& index, const Tensor& source, const F& f) {
  TIDE_INTERNAL_ASSERT(dense(source) && dense(index) && index.dtype() == kInt64);
  TIDE_INTERNAL_ASSERT(self.dtype() == source.dtype() && source.numel() == index.numel());
  const int64_t* idx = index.data_ptr<int64_t>();
  const DimVector sizes = self.shape();
  const DimVector strides(self.strides());
  const bool contiguous = self.is_contiguous();
  dispatch_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = static_cast<T*>(self.raw_data());
    const T* src = static_cast<const T*>(source.raw_data());
    for (int64_t j = 0; j < index.numel(); ++j) {
      f(dst[contiguous ? idx[j] : offset_of(idx[j], sizes, strides)], src[j]);
    }
  });
}

}  // namespace

IndexError index_wrap_kernel(const Tensor& out, const Tensor& index, int64_t size, bool wraps) {
  TIDE_INTERNAL_ASSERT(dense(out) && dense(index) && index.dtype() == kInt64 &&
                       out.dtype() == kInt64);
  const int64_t* in = index.data_ptr<int64_t>();
  int64_t* o = out.data_ptr<int64_t>();
  const int64_t low = wraps ? -size : 0;
  IndexError bad;
  for (int64_t j = 0; j < index.numel(); ++j) {
    const int64_t v = in[j];
    if (v < low || v >= size) {
      if (!bad.found()) bad = IndexError{j, v, size};
      o[j] = 0;  // on a stream the ops after this one still run: give them a valid index
    } else {
      o[j] = v < 0 ? v + size : v;
    }
  }
  return bad;
}

void take_kernel(const Tensor& out, const Tensor& in, const Tensor& index) {
  TIDE_INTERNAL_ASSERT(dense(out) && dense(index) && index.dtype() == kInt64);
  TIDE_INTERNAL_ASSERT(out.dtype() == in.dtype() && out.numel() == index.numel());
  const int64_t* idx = index.data_ptr<int64_t>();
  const DimVector sizes = in.shape();
  const DimVector strides(in.strides());
  const bool contiguous = in.is_contiguous();
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = static_cast<T*>(out.raw_data());
    const T* src = static_cast<const T*>(in.raw_data());
    parallel_for(0, index.numel(), kGrainSize, [&](int64_t b, int64_t e) {
      for (int64_t j = b; j < e; ++j) {
        dst[j] = src[contiguous ? idx[j] : offset_of(idx[j], sizes, strides)];
      }
    });
  });
}

IndexError gather_kernel(const Tensor& out, const Tensor& in, const Tensor& index, int64_t dim) {
  TIDE_INTERNAL_ASSERT(dense(out) && dense(index) && index.dtype() == kInt64);
  TIDE_INTERNAL_ASSERT(out.dtype() == in.dtype() && out.numel() == index.numel());
  TIDE_INTERNAL_ASSERT(index.dim() == in.dim() && dim >= 0 && dim < in.dim());
  const int64_t* idx = index.data_ptr<int64_t>();
  const DimVector sizes = index.shape();
  DimVector strides(in.strides());  // walks in along index's shape; dim comes from the index
  const int64_t dim_stride = strides[dim];
  const int64_t size = in.shape()[dim];
  strides[dim] = 0;
  std::atomic<int64_t> first_bad{std::numeric_limits<int64_t>::max()};
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = static_cast<T*>(out.raw_data());
    const T* src = static_cast<const T*>(in.raw_data());
    parallel_for(0, index.numel(), kGrainSize, [&](int64_t b, int64_t e) {
      int64_t bad = std::numeric_limits<int64_t>::max();
      for (int64_t j = b; j < e; ++j) {
        const int64_t v = idx[j];
        if (v < 0 || v >= size) {
          bad = std::min(bad, j);
          dst[j] = T{};  // Note [Index errors in kernels]: the ops after this one still run
          continue;
        }
        dst[j] = src[offset_of(j, sizes, strides) + v * dim_stride];
      }
      // The smallest bad position over the chunks, whichever thread finishes first.
      int64_t seen = first_bad.load();
      while (bad < seen && !first_bad.compare_exchange_weak(seen, bad)) {
      }
    });
  });
  const int64_t j = first_bad.load();
  if (j == std::numeric_limits<int64_t>::max()) return IndexError{};
  return IndexError{j, idx[j], size};
}

void put_kernel(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  put_each(self, index, source, [accumulate](auto& d, auto s) { d = accumulate ? plus(d, s) : s; });
}

void put_reduce_kernel(const Tensor& self, const Tensor& index, const Tensor& source,
                       PutReduce op) {
  put_each(self, index, source, [op](auto& d, auto s) { d = combine(op, d, s); });
}

void nonzero_kernel(const Tensor& out, const Tensor& mask) {
  TIDE_INTERNAL_ASSERT(dense(out) && dense(mask) && mask.dtype() == kBool);
  const bool* m = mask.data_ptr<bool>();
  int64_t* o = out.data_ptr<int64_t>();
  const DimVector sizes = mask.shape();
  const int64_t ndim = mask.dim();
  for (int64_t i = 0, row = 0; i < mask.numel(); ++i) {
    if (!m[i]) continue;
    int64_t rest = i;
    for (int64_t d = ndim - 1; d >= 0; --d) {
      o[row * ndim + d] = rest % sizes[d];
      rest /= sizes[d];
    }
    ++row;
  }
}

}  // namespace tide::kernels
