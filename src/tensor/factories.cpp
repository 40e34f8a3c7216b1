// Factories and the *_like / new_* families.

#include "tide/factories.h"

#include <cmath>

#include "memory/device_allocators.h"
#include "memory/pinned_allocator.h"
#include "tensor/memory_format.h"
#include "tensor/tensor_internal.h"
#include "runtime/launch.h"
#include "runtime/registry.h"
#include "tide/allocator.h"
#include "tide/cuda/stream.h"

namespace tide {
namespace detail {

Device resolve_device(Device device, const char* where) {
  if (device.is_cpu()) {
    TIDE_CHECK(device.index() <= 0, "[", where, "] cpu has a single device (cpu or cpu:0), got ",
               device, "; use 'cpu'");
    return Device(kCPU);  // torch's cpu tensors report device 'cpu', without an index
  }
  TIDE_CHECK(runtime::cuda_device_count() > 0, "[", where, "] cannot use device ", device,
             ": no cuda device is available: device_count() is 0 (",
             runtime::cuda_unavailable_reason(), "). Use 'cpu', run on a machine with an NVIDIA "
             "GPU, or set TIDE_SIM_DEVICES=N for N simulated GPUs");
  // "cuda" means the current device at the time of the call (Note [Choosing the cuda backend]).
  return Device(kCUDA, runtime::check_cuda_device(device.index(), where));
}

namespace {

// Note [Device memory for tensors]: a cuda tensor's memory is a block of its device's caching
// allocator (memory/device_allocators.h), taken on the device's current stream — the stream
// its producing op runs on — and given back when the last storage reference goes. A block is
// reusable by its allocation stream at once; when ops used it on other streams, the op layer
// recorded those uses and it returns to the pool only after that work (Note [Stream uses] in
// ops/dispatch.h). Kernels also hold their tensors until they have run, so a block is never
// freed under a pending kernel of its own stream.
DataPtr allocate_device(Device device, size_t nbytes) {
  return memory::allocate_device_memory(device.index(), nbytes, "empty");
}

}  // namespace

Tensor make_empty(const DimVector& sizes, Dtype dtype, Device device, bool pinned,
                  const char* where) {
  const int64_t n = checked_numel(sizes, where);
  const size_t nbytes = checked_nbytes(sizes, n, element_size(dtype), where);
  if (device.is_cuda()) {
    Storage storage(std::make_shared<StorageImpl>(allocate_device(device, nbytes), false));
    return Tensor(std::move(storage), dtype, sizes, contiguous_strides(sizes), 0);
  }
  Storage storage =
      Storage::allocate(nbytes, pinned ? memory::pinned_allocator() : cpu_allocator(), pinned);
  return Tensor(std::move(storage), dtype, sizes, contiguous_strides(sizes), 0);
}

namespace {

/// The device a factory allocates on: the one given, else the thread's default device
/// (Note [Default device]), except that pinned memory without a device is on the cpu.
Device factory_device(const TensorOptions& o, const char* where) {
  if (o.pinned_memory() && !o.has_device()) return Device(kCPU);
  return detail::resolve_device(o.device(), where);
}

}  // namespace

Tensor empty_with(const DimVector& sizes, const TensorOptions& o, Dtype dtype, const char* where) {
  Device d = factory_device(o, where);
  TIDE_CHECK(!o.pinned_memory() || d.is_cpu(), "[", where, "] Only dense CPU tensors can be "
             "pinned, but the device is ", d, "; pin a cpu tensor and copy it with non_blocking=true");
  if (o.pinned_memory()) memory::check_pinned_memory_available(where);
  const auto format = o.memory_format_opt();
  if (!format || *format == MemoryFormat::Contiguous)
    return make_empty(sizes, dtype, d, o.pinned_memory(), where);
  return make_empty_strided(sizes, strides_for(*format, sizes, where), dtype, d,
                            o.pinned_memory(), where);
}

}  // namespace detail

namespace {

using detail::empty_with;
using detail::factory_device;

// The shape of a nested list follows its first elements down (as torch); then every node is
// checked against it, and the widest leaf kind (bool < int < float) is collected.
DimVector nested_shape(const NestedList& l) {
  DimVector shape;
  const NestedList* node = &l;
  while (!node->is_leaf()) {
    shape.push_back(static_cast<int64_t>(node->items().size()));
    if (node->items().empty()) break;
    node = &node->items().front();
  }
  return shape;
}

void check_nested(const NestedList& l, int64_t depth, const DimVector& shape, Scalar::Kind& kind,
                  bool& any_leaf) {
  if (l.is_leaf()) {
    TIDE_CHECK(depth == shape.size(), "[tensor] expected a sequence of length ", shape[depth],
               " at dim ", depth, " but found a number; nested lists must be rectangular");
    kind = any_leaf ? std::max(kind, l.scalar().kind()) : l.scalar().kind();
    any_leaf = true;
    return;
  }
  int64_t n = static_cast<int64_t>(l.items().size());
  TIDE_CHECK(depth < shape.size(), "[tensor] expected a number at dim ", depth,
             " but found a sequence of length ", n, "; nested lists must be rectangular");
  TIDE_CHECK(shape[depth] == n, "[tensor] expected sequence of length ", shape[depth], " at dim ",
             depth, " (got ", n, ")");
  for (const auto& item : l.items()) check_nested(item, depth + 1, shape, kind, any_leaf);
}

template <class T>
void fill_nested(const NestedList& l, T*& out) {
  if (l.is_leaf()) {
    *out++ = l.scalar().to<T>();
    return;
  }
  for (const auto& item : l.items()) fill_nested(item, out);
}

}  // namespace

Tensor empty(std::vector<int64_t> sizes, TensorOptions options) {
  if (options.requires_grad())
    return empty(std::move(sizes), options.requires_grad(false))
        .requires_grad_();  // a leaf, made after its values
  return empty_with(DimVector(sizes), options, options.dtype(), "empty");
}

Tensor empty_strided(std::vector<int64_t> sizes, std::vector<int64_t> strides, TensorOptions options) {
  if (options.requires_grad())
    return empty_strided(std::move(sizes), std::move(strides), options.requires_grad(false))
        .requires_grad_();  // a leaf, made after its values
  TIDE_CHECK(sizes.size() == strides.size(), "[empty_strided] sizes and strides must have the same "
             "length, got ", sizes.size(), " and ", strides.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    TIDE_CHECK(sizes[i] >= 0 && strides[i] >= 0, "[empty_strided] sizes and strides must be non-negative");
  }
  const DimVector size_v(sizes), stride_v(strides);
  detail::checked_numel(size_v, "empty_strided");
  const int64_t extent = detail::checked_storage_extent(size_v, stride_v, "empty_strided");
  Tensor base = empty_with(DimVector{extent}, options, options.dtype(), "empty_strided");
  return Tensor(base.storage(), base.dtype(), DimVector(sizes), DimVector(strides), 0);
}

Tensor zeros(std::vector<int64_t> sizes, TensorOptions options) {
  if (options.requires_grad())
    return zeros(std::move(sizes), options.requires_grad(false))
        .requires_grad_();  // a leaf, made after its values
  Tensor t = empty_with(DimVector(sizes), options, options.dtype(), "zeros");
  t.zero_();
  return t;
}

Tensor ones(std::vector<int64_t> sizes, TensorOptions options) {
  if (options.requires_grad())
    return ones(std::move(sizes), options.requires_grad(false))
        .requires_grad_();  // a leaf, made after its values
  Tensor t = empty_with(DimVector(sizes), options, options.dtype(), "ones");
  t.fill_(1);
  return t;
}

Tensor full(std::vector<int64_t> sizes, Scalar value, TensorOptions options) {
  if (options.requires_grad())
    return full(std::move(sizes), value, options.requires_grad(false))
        .requires_grad_();  // a leaf, made after its values
  Tensor t = empty_with(DimVector(sizes), options,
                        options.has_dtype() ? options.dtype() : value.default_dtype(), "full");
  t.fill_(value);
  return t;
}

// As torch.scalar_tensor: the default dtype unless options give one, whatever the value's kind
// (torch.scalar_tensor(1) is tensor(1.)).
Tensor scalar_tensor(Scalar value, TensorOptions options) {
  return full({}, value, options.dtype(options.dtype()));
}

Tensor tensor(const NestedList& data, TensorOptions options) {
  if (options.requires_grad())
    return tensor(data, options.requires_grad(false))
        .requires_grad_();  // a leaf, made after its values
  DimVector shape = nested_shape(data);
  Scalar::Kind kind = Scalar::Kind::Bool;
  bool any_leaf = false;
  check_nested(data, 0, shape, kind, any_leaf);
  // torch.tensor([]) has the default dtype; otherwise the widest leaf kind decides, floating
  // values taking the default dtype (Note [Default dtype]).
  Dtype inferred = !any_leaf ? get_default_dtype()
                   : kind == Scalar::Kind::Bool ? kBool
                   : kind == Scalar::Kind::Int  ? kInt64
                                                : get_default_dtype();
  Dtype dt = options.has_dtype() ? options.dtype() : inferred;
  Tensor host = detail::make_empty(shape, dt, Device(kCPU), /*pinned=*/false, "tensor");
  dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(host.raw_data());
    fill_nested(data, p);
  });
  Device d = factory_device(options, "tensor");
  return d.is_cpu() ? host : host.to(d);
}

Tensor from_blob(void* data, std::vector<int64_t> sizes, TensorOptions options,
                 std::function<void(void*)> deleter) {
  DimVector s(sizes);
  detail::checked_numel(s, "from_blob");  // before the strides are computed from the sizes
  return from_blob(data, sizes, detail::contiguous_strides(s).vec(), options, std::move(deleter));
}

Tensor from_blob(void* data, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                 TensorOptions options, std::function<void(void*)> deleter) {
  if (options.requires_grad())
    return from_blob(data, std::move(sizes), std::move(strides), options.requires_grad(false),
                     std::move(deleter))
        .requires_grad_();  // a leaf, made after its values
  TIDE_CHECK(sizes.size() == strides.size(), "[from_blob] sizes and strides must have the same "
             "length, got ", sizes.size(), " and ", strides.size());
  // The memory is where the caller's pointer is: cpu unless options say otherwise, never the
  // default device (Note [Default device]); the dtype defaults as libtorch's from_blob.
  Device d = detail::resolve_device(options.device_opt().value_or(Device(kCPU)), "from_blob");
  for (int64_t st : strides) {
    TIDE_CHECK(st >= 0, "[from_blob] strides must be non-negative, got ", st,
               "; negative strides are not supported");
  }
  // The storage is the memory the strides reach (Note [Size overflow]).
  const DimVector size_v(sizes), stride_v(strides);
  detail::checked_numel(size_v, "from_blob");
  const int64_t extent = detail::checked_storage_extent(size_v, stride_v, "from_blob");
  Dtype dt = options.dtype();
  const size_t nbytes = detail::checked_nbytes(size_v, extent, element_size(dt), "from_blob");
  DataPtr ptr;
  if (deleter) {
    auto* ctx = new std::function<void(void*)>(std::move(deleter));
    ptr = DataPtr(data, nbytes, d, 0, ctx,
                  [](void* c, void* p, size_t) {
                    auto* f = static_cast<std::function<void(void*)>*>(c);
                    (*f)(p);
                    delete f;
                  });
  } else {
    ptr = DataPtr(data, nbytes, d, 0, nullptr, nullptr);
  }
  Storage storage(std::make_shared<StorageImpl>(std::move(ptr), false));
  return Tensor(std::move(storage), dt, DimVector(sizes), DimVector(strides), 0);
}

namespace {
// The source's device and dtype, overridden only by what options give: the defaults of Note
// [Default device] and Note [Default dtype] never apply to *_like. No memory format: make_like
// lays the result out.
TensorOptions like_options(const Tensor& like, const std::optional<TensorOptions>& o) {
  TensorOptions r = like.options();
  if (o) {
    if (o->has_dtype()) r = r.dtype(o->dtype());
    if (o->has_device()) r = r.device(o->device());
  }
  return r;
}

/// A *_like result: `make(sizes, options)` (a contiguous factory whose values do not depend on
/// their position) in the layout of options' memory format, Preserve by default: like's own
/// layout (Note [Memory formats] in tensor/memory_format.cpp). Dense strides in another order
/// address the same storage, so the made tensor is only restrided.
template <class Make>
Tensor make_like(const Tensor& like, const std::optional<TensorOptions>& o, const char* where,
                 const Make& make) {
  const MemoryFormat format =
      o ? o->memory_format_opt().value_or(MemoryFormat::Preserve) : MemoryFormat::Preserve;
  Tensor t = make(like.sizes(), like_options(like, o));
  const DimVector strides = detail::strides_for(format, like, where);
  if (strides != t.stride_vector()) t = Tensor(t.storage(), t.dtype(), t.shape(), strides, 0);
  if (o && o->requires_grad()) t.requires_grad_();  // a leaf, made after its values
  return t;
}

}  // namespace

Tensor empty_like(const Tensor& like, std::optional<TensorOptions> o) {
  return make_like(like, o, "empty_like", [](std::vector<int64_t> s, TensorOptions opts) {
    return empty(std::move(s), opts);
  });
}
Tensor zeros_like(const Tensor& like, std::optional<TensorOptions> o) {
  return make_like(like, o, "zeros_like", [](std::vector<int64_t> s, TensorOptions opts) {
    return zeros(std::move(s), opts);
  });
}
Tensor ones_like(const Tensor& like, std::optional<TensorOptions> o) {
  return make_like(like, o, "ones_like", [](std::vector<int64_t> s, TensorOptions opts) {
    return ones(std::move(s), opts);
  });
}
Tensor full_like(const Tensor& like, Scalar value, std::optional<TensorOptions> o) {
  return make_like(like, o, "full_like", [&value](std::vector<int64_t> s, TensorOptions opts) {
    return full(std::move(s), value, opts);
  });
}
Tensor rand_like(const Tensor& like, std::optional<TensorOptions> o) {
  return make_like(like, o, "rand_like", [](std::vector<int64_t> s, TensorOptions opts) {
    return rand(std::move(s), opts);
  });
}
Tensor randn_like(const Tensor& like, std::optional<TensorOptions> o) {
  return make_like(like, o, "randn_like", [](std::vector<int64_t> s, TensorOptions opts) {
    return randn(std::move(s), opts);
  });
}
Tensor rand_like(const Tensor& like, std::optional<Generator> generator,
                 std::optional<TensorOptions> o) {
  return rand(like.sizes(), std::move(generator), like_options(like, o));
}
Tensor randn_like(const Tensor& like, std::optional<Generator> generator,
                  std::optional<TensorOptions> o) {
  return randn(like.sizes(), std::move(generator), like_options(like, o));
}

// options() carries no requires_grad, so the new_* family goes straight to empty_with and
// names itself in size errors.
Tensor Tensor::new_empty(std::vector<int64_t> sizes) const {
  return empty_with(DimVector(sizes), options(), dtype(), "Tensor::new_empty");
}
Tensor Tensor::new_zeros(std::vector<int64_t> sizes) const {
  Tensor t = empty_with(DimVector(sizes), options(), dtype(), "Tensor::new_zeros");
  t.zero_();
  return t;
}
Tensor Tensor::new_ones(std::vector<int64_t> sizes) const {
  Tensor t = empty_with(DimVector(sizes), options(), dtype(), "Tensor::new_ones");
  t.fill_(1);
  return t;
}
Tensor Tensor::new_full(std::vector<int64_t> sizes, Scalar value) const {
  Tensor t = empty_with(DimVector(sizes), options(), dtype(), "Tensor::new_full");
  t.fill_(value);
  return t;
}
Tensor Tensor::new_tensor(const NestedList& data) const { return tensor(data, options()); }

}  // namespace tide
