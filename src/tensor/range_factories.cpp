// Range factories: arange and linspace. Values are computed on the host, then moved to the
// requested device.

#include <cmath>
#include <limits>

#include "kernels/convert.h"
#include "kernels/cpu/parallel.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"

namespace tide {
namespace {

/// Fills a new host tensor of n elements with value(i), then places it on the device.
template <class ValueAt>
Tensor make_range(int64_t n, Dtype dtype, const TensorOptions& options, const char* where,
                  const ValueAt& value_at) {
  Device device = detail::resolve_device(options.device(), where);
  Tensor host = detail::make_empty(DimVector{n}, dtype, Device(kCPU), /*pinned=*/false, where);
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = static_cast<T*>(host.raw_data());
    kernels::parallel_for(0, n, kernels::kGrainSize, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) out[i] = kernels::convert<T>(value_at(i));
    });
  });
  return device.is_cpu() ? host : host.to(device);
}

}  // namespace

Tensor arange(Scalar end, TensorOptions options) { return arange(0, end, 1, options); }

// Note [arange arithmetic]: as torch, the dtype is int64 when start, end and step are all
// integral, else the default dtype (options may override). An integral dtype computes in int64 with the
// bounds truncated to integers, and its length is exact integer arithmetic; a floating dtype
// computes start + i * step in double and its length is ceil((end - start) / step) in double.
Tensor arange(Scalar start, Scalar end, Scalar step, TensorOptions options) {
  if (options.requires_grad())
    return arange(start, end, step, options.requires_grad(false))
        .requires_grad_();  // a leaf, made after its values
  const bool all_integral = !start.is_floating_point() && !end.is_floating_point() &&
                            !step.is_floating_point();
  const Dtype dtype = options.has_dtype() ? options.dtype() : all_integral ? kInt64 : get_default_dtype();
  const double xstart = start.to_double(), xend = end.to_double(), xstep = step.to_double();
  TIDE_CHECK(std::isfinite(xstart) && std::isfinite(xend), "[arange] unsupported range: ", xstart,
             " -> ", xend);

  if (is_integral(dtype, /*include_bool=*/true)) {
    const int64_t s = start.to_int64(), e = end.to_int64(), st = step.to_int64();
    TIDE_CHECK(st != 0, "[arange] step must be nonzero");
    TIDE_CHECK((st > 0 && e >= s) || (st < 0 && e <= s),
               "[arange] upper bound and larger bound inconsistent with step sign");
    const uint64_t span = st > 0 ? static_cast<uint64_t>(e) - static_cast<uint64_t>(s)
                                 : static_cast<uint64_t>(s) - static_cast<uint64_t>(e);
    const uint64_t ustep = st > 0 ? static_cast<uint64_t>(st) : 0 - static_cast<uint64_t>(st);
    const uint64_t length = span / ustep + (span % ustep != 0 ? 1 : 0);
    TIDE_CHECK(length <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
               "[arange] invalid size, possible overflow? The range ", s, " -> ", e, " with step ",
               st, " has ", length, " elements, more than int64 can count; use a larger step");
    const int64_t n = static_cast<int64_t>(length);
    return make_range(n, dtype, options, "arange", [&](int64_t i) {
      return static_cast<int64_t>(static_cast<uint64_t>(s) + static_cast<uint64_t>(i) * static_cast<uint64_t>(st));
    });
  }

  TIDE_CHECK(xstep != 0, "[arange] step must be nonzero");
  TIDE_CHECK((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart),
             "[arange] upper bound and larger bound inconsistent with step sign");
  const double size_d = std::ceil((xend - xstart) / xstep);
  // 2^63 itself does not convert to int64: the bound is strict.
  TIDE_CHECK(size_d >= 0 && size_d < 9223372036854775808.0, "[arange] invalid size, possible "
             "overflow? The range ", xstart, " -> ", xend, " with step ", xstep, " has ", size_d,
             " elements, more than int64 can count; use a larger step");
  return make_range(static_cast<int64_t>(size_d), dtype, options, "arange",
                    [&](int64_t i) { return xstart + static_cast<double>(i) * xstep; });
}

// As torch: the first half counts up from start and the second half down from end, so both
// ends are exact (one step gives start, as torch); computed in double, the default dtype unless
// options set one.
Tensor linspace(double start, double end, int64_t steps, TensorOptions options) {
  if (options.requires_grad())
    return linspace(start, end, steps, options.requires_grad(false))
        .requires_grad_();  // a leaf, made after its values
  TIDE_CHECK(steps >= 0, "[linspace] number of steps must be non-negative, but got ", steps);
  const Dtype dtype = options.dtype();
  const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
  const int64_t halfway = steps / 2;
  return make_range(steps, dtype, options, "linspace", [&](int64_t i) {
    if (steps == 1) return start;
    return i < halfway ? start + step * static_cast<double>(i)
                       : end - step * static_cast<double>(steps - 1 - i);
  });
}

}  // namespace tide
