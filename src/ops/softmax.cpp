// softmax and log_softmax over one dim (torch.softmax / torch.nn.functional.log_softmax).

#include "kernels/stubs.h"
#include "kernels/cpu/softmax_kernels.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "tide/ops.h"

namespace tide {
namespace {

Tensor softmax_impl(const Tensor& a, int64_t dim, bool log, const char* where) {
  detail::check_defined(a, where, "input");
  const Device device = detail::common_device({&a}, where);
  const int64_t d = detail::wrap_dim(dim, a.dim(), where);
  // torch names its cpu kernel after the layout: the last dim has its own implementation.
  const bool last_dim = a.dim() == 0 || d == a.dim() - 1;
  TIDE_CHECK(a.is_floating_point(), "[", where, "] \"", where,
             last_dim ? "_lastdim_kernel_impl" : "_kernel_impl", "\" not implemented for '",
             detail::torch_type_name(a.dtype()), "'; ", where,
             " needs a floating point input: convert it first with .to(tide::kFloat32)");
  kernels::ReduceShape s;
  for (int64_t i = 0; i < a.dim(); ++i) {
    const int64_t n = a.shape()[i];
    if (i < d) {
      s.outer *= n;
    } else if (i == d) {
      s.reduced = n;
    } else {
      s.inner *= n;
    }
  }
  const Tensor x = a.contiguous();
  Tensor out = detail::make_empty(a.shape(), a.dtype(), device);
  detail::run_kernel(device, log ? "log_softmax" : "softmax", kernels::softmax_stub, out, x, s,
                     log);
  return out;
}

}  // namespace

namespace detail {

Tensor plain_softmax(const Tensor& a, int64_t dim) {
  return softmax_impl(a, dim, false, "softmax");
}

Tensor plain_log_softmax(const Tensor& a, int64_t dim) {
  return softmax_impl(a, dim, true, "log_softmax");
}

}  // namespace detail

}  // namespace tide
