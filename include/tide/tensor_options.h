#pragma once
// TensorOptions: how a factory makes a tensor. Chainable, like torch's keyword arguments.

#include "tide/device.h"
#include "tide/dtype.h"

namespace tide {

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(Device d) : device_(d) {}
  TensorOptions(Dtype t) : dtype_(t), has_dtype_(true) {}
  TensorOptions(const char* device_spec) : device_(device_spec) {}

  TensorOptions device(Device d) const { TensorOptions o = *this; o.device_ = d; return o; }
  TensorOptions dtype(Dtype t) const {
    TensorOptions o = *this;
    o.dtype_ = t;
    o.has_dtype_ = true;
    return o;
  }
  TensorOptions pinned_memory(bool p) const { TensorOptions o = *this; o.pinned_ = p; return o; }
  TensorOptions requires_grad(bool r) const { TensorOptions o = *this; o.requires_grad_ = r; return o; }

  Device device() const { return device_; }
  Dtype dtype() const { return dtype_; }
  /// Whether dtype() was set explicitly (factories that infer a dtype need to know).
  bool has_dtype() const { return has_dtype_; }
  bool pinned_memory() const { return pinned_; }
  bool requires_grad() const { return requires_grad_; }

 private:
  Device device_{kCPU, -1};
  Dtype dtype_ = kFloat32;
  bool has_dtype_ = false;
  bool pinned_ = false;
  bool requires_grad_ = false;
};

/// Start a chain: tide::device("cuda:1").dtype(kInt64).
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions dtype(Dtype t) { return TensorOptions().dtype(t); }

}  // namespace tide
