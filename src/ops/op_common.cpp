#include "ops/op_common.h"

namespace tide::detail {

Device common_device(std::initializer_list<const Tensor*> operands, const char* where) {
  const Tensor* first = nullptr;
  for (const Tensor* t : operands) {
    if (!t->defined()) continue;
    // A 0-dim cpu tensor is a scalar and may join any device (torch's wrapped-number rule).
    if (t->device().is_cpu() && t->dim() == 0 && operands.size() > 1) continue;
    if (!first) {
      first = t;
      continue;
    }
    TIDE_CHECK(t->device() == first->device(), "[", where,
               "] Expected all tensors to be on the same device, but found at least two devices, ",
               first->device(), " and ", t->device(), "!");
  }
  if (first) return first->device();
  for (const Tensor* t : operands) {
    if (t->defined()) return t->device();
  }
  return Device(kCPU);
}

Device same_device(std::initializer_list<NamedOperand> operands, const char* where) {
  const Tensor* first = nullptr;
  for (const NamedOperand& operand : operands) {
    const Tensor* t = operand.tensor;
    if (!t->defined()) continue;
    if (!first) {
      first = t;
      continue;
    }
    TIDE_CHECK(t->device() == first->device(), "[", where,
               "] Expected all tensors to be on the same device, but found at least two devices, ",
               first->device(), " and ", t->device(), "! (when checking argument for argument ",
               operand.name, " in method wrapper__", where,
               "); move it with .to(device) before the call");
  }
  return first ? first->device() : Device(kCPU);
}

DimVector broadcast_shapes(const DimVector& a, const DimVector& b, const char* where) {
  int64_t n = std::max(a.size(), b.size());
  DimVector out(n);
  for (int64_t i = n - 1; i >= 0; --i) {
    int64_t ia = i - (n - a.size()), ib = i - (n - b.size());
    int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
    TIDE_CHECK(sa == sb || sa == 1 || sb == 1, "[", where, "] The size of tensor a (", sa,
               ") must match the size of tensor b (", sb, ") at non-singleton dimension ", i,
               "; shapes ", shape_str(a), " and ", shape_str(b), " do not broadcast");
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

void check_defined(const Tensor& t, const char* where, const char* what) {
  TIDE_CHECK(t.defined(), "[", where, "] expected a defined tensor for ", what,
             " but got an undefined (default-constructed) Tensor");
}

}  // namespace tide::detail

namespace tide::detail {

void throw_no_cuda_kernel(const char* op) {
  throw Error(concat("[", op, "] this op has no kernel for real GPUs in this build (its GPU "
                     "launcher was not registered); run it on cpu or on simulated GPUs "
                     "(TIDE_SIM_DEVICES), and report it as a tide bug"));
}

}  // namespace tide::detail
