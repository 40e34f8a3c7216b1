#pragma once
// TensorOptions: how a factory makes a tensor. Chainable, like torch's keyword arguments.

#include <optional>
#include <string>

#include "tide/default_device.h"
#include "tide/default_dtype.h"
#include "tide/device.h"
#include "tide/dtype.h"
#include "tide/memory_format.h"

namespace tide {

// TensorOptions remembers whether a device, a dtype and a memory format were given at all, as libtorch's: a
// factory uses the thread's default device (Note [Default device]) and the default dtype
// (Note [Default dtype]) only for what was not given, and `*_like` overrides only what was.
// device() and dtype() return the effective value; device_opt() and dtype_opt() what was given.
// A few bytes, passed by value.
class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(Device d) : device_(d), has_device_(true) {}
  TensorOptions(Dtype t) : dtype_(t), has_dtype_(true) {}
  /// tide::empty({2}, "cuda:1"): a string names a device (see Note [String devices] in tensor.h).
  TensorOptions(const char* device_spec) : TensorOptions(Device(device_spec)) {}
  TensorOptions(const std::string& device_spec) : TensorOptions(Device(device_spec)) {}

  TensorOptions device(Device d) const {
    TensorOptions o = *this;
    o.device_ = d;
    o.has_device_ = true;
    return o;
  }
  TensorOptions dtype(Dtype t) const {
    TensorOptions o = *this;
    o.dtype_ = t;
    o.has_dtype_ = true;
    return o;
  }
  /// The layout a factory gives its result (torch's memory_format=): tide::empty's default is
  /// Contiguous, the *_like factories' Preserve.
  TensorOptions memory_format(MemoryFormat f) const {
    TensorOptions o = *this;
    o.memory_format_ = f;
    o.has_memory_format_ = true;
    return o;
  }
  TensorOptions pinned_memory(bool p) const { TensorOptions o = *this; o.pinned_ = p; return o; }
  TensorOptions requires_grad(bool r) const { TensorOptions o = *this; o.requires_grad_ = r; return o; }

  /// The device given, else this thread's default device (cpu unless set_default_device).
  Device device() const { return has_device_ ? device_ : detail::thread_default_device(); }
  /// The dtype given, else the default dtype (float32 unless set_default_dtype).
  Dtype dtype() const { return has_dtype_ ? dtype_ : get_default_dtype(); }
  /// Whether device() was set explicitly.
  bool has_device() const { return has_device_; }
  /// Whether dtype() was set explicitly (factories that infer a dtype need to know).
  bool has_dtype() const { return has_dtype_; }
  std::optional<Device> device_opt() const {
    return has_device_ ? std::optional<Device>(device_) : std::nullopt;
  }
  std::optional<Dtype> dtype_opt() const {
    return has_dtype_ ? std::optional<Dtype>(dtype_) : std::nullopt;
  }
  std::optional<MemoryFormat> memory_format_opt() const {
    return has_memory_format_ ? std::optional<MemoryFormat>(memory_format_) : std::nullopt;
  }
  bool pinned_memory() const { return pinned_; }
  bool requires_grad() const { return requires_grad_; }

 private:
  Device device_{kCPU, -1};
  Dtype dtype_ = kFloat32;
  bool has_device_ = false;
  bool has_dtype_ = false;
  MemoryFormat memory_format_ = MemoryFormat::Contiguous;
  bool has_memory_format_ = false;
  bool pinned_ = false;
  bool requires_grad_ = false;
};

/// Start a chain: tide::device("cuda:1").dtype(kInt64).
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions dtype(Dtype t) { return TensorOptions().dtype(t); }

}  // namespace tide
