// Copies, dtype conversion, fill and reading values back to the host. copy_, to, clone,
// contiguous, pin_memory and the fills are the plain front ends of the op table's copies and
// fills families (src/ops/ops.yaml); their Tensor methods, with the op entry, are generated
// (src/tensor/generated_tensor_methods.cpp).

#include <cstring>

#include "kernels/cpu/copy_kernels.h"
#include "kernels/stubs.h"
#include "memory/pinned_allocator.h"
#include "ops/dispatch.h"
#include "ops/plain_front_ends.h"
#include "tide/cuda/stream.h"
#include "runtime/registry.h"
#include "tensor/copy_native.h"
#include "tensor/memory_format.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"
#include "tide/tensor.h"

namespace tide {

using kernels::copy_kernel;

// Note [Copies between devices] (torch's copy_ semantics, DESIGN.md decision 4):
// - same device: an ordinary kernel on that device's current stream;
// - host -> device: the pageable source is read (staged) before the call returns, so the
//   caller may reuse it at once; the device copy then runs on the destination's current
//   stream without blocking the host (as cudaMemcpyAsync from pageable memory). From pinned
//   memory with non_blocking=true nothing is staged: the device copy reads the source when it
//   runs (writing the source before then changes what arrives, as in torch), and the stream's
//   use is recorded on the pinned block (Note [Pinned host memory]);
// - device -> host: ordered on the source device's current stream; a blocking copy waits for
//   that stream only, not for other streams (the seeds' point about streams). Into pinned
//   memory with non_blocking=true it does not wait at all (the user synchronizes), and the
//   stream's use is recorded on the pinned block;
// - device -> device: runs on the source device's current stream with a two-way event
//   barrier: it waits for the destination's current stream before writing, and the
//   destination's current stream waits for the copy before its later work.
// Stream uses (Note [Stream uses] in ops/dispatch.h): a copy that reads a device tensor on a
// stream other than its allocation stream records that use, as run_kernel does for ops. A
// device -> device copy writes the destination from a stream of another device; since the
// destination's current stream waits for the copy, that stream's use stands for the copy's.
namespace detail {

Tensor& plain_copy_(Tensor& self, const Tensor& src, bool non_blocking) {
  TIDE_CHECK(self.defined() && src.defined(), "[Tensor::copy_] both tensors must be defined");
  self.storage().bump_version();  // Note [Version counters] in src/autograd/autograd_meta.h
  const Device dd = self.device(), sd = src.device();
  if (dd == sd) {
    run_kernel(dd, "copy_", kernels::copy_stub, self, src);
    return self;
  }
  if (runtime::native_kernels()) {
    copy_between_devices_native(self, src, non_blocking);
    return self;
  }
  if (sd.is_cpu()) {
    // A contiguous snapshot of the (pageable) source, owned by the enqueued copy.
    const bool async = src.is_pinned() && non_blocking;
    Tensor staged = async ? src : src.clone();
    run_kernel(dd, "copy_", kernels::copy_stub, self, staged);
    if (async) memory::record_pinned_use(src.storage().data_ptr(), cuda::current_stream(dd.index()));
    return self;
  }
  if (dd.is_cpu()) {
    cuda::Stream stream = cuda::current_stream(sd.index());
    sanitize_copy(stream, self, src);
    note_stream_use(src, stream);
    runtime::launch(stream, "copy_",
                    [dst = task_copy(self), src = task_copy(src)] { copy_kernel(dst, src); });
    if (!(non_blocking && self.is_pinned())) {
      stream.synchronize();
    } else {
      memory::record_pinned_use(self.storage().data_ptr(), stream);
    }
    return self;
  }
  cuda::Stream src_stream = cuda::current_stream(sd.index());
  cuda::Stream dst_stream = cuda::current_stream(dd.index());
  src_stream.wait_stream(dst_stream);
  sanitize_copy(src_stream, self, src);
  note_stream_use(src, src_stream);
  note_stream_use(self, dst_stream);
  runtime::launch(src_stream, "copy_",
                  [dst = task_copy(self), src = task_copy(src)] { copy_kernel(dst, src); });
  dst_stream.wait_stream(src_stream);
  return self;
}

Tensor plain_contiguous(const Tensor& self, MemoryFormat memory_format) {
  if (self.is_contiguous(memory_format)) return self;
  TIDE_CHECK(memory_format != MemoryFormat::Preserve, "[Tensor::contiguous] preserve memory "
             "format is unsupported by the contiguous operator; pass contiguous_format or "
             "channels_last");
  return self.clone(memory_format);
}

// Preserve (the default) keeps a dense source's strides (Note [Memory formats]).
Tensor plain_clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Preserve);
  Tensor out = make_empty_strided(self.shape(), strides_for(format, self, "Tensor::clone"),
                                  self.dtype(), self.device());
  out.copy_(self);
  return out;
}

// What options do not give stays as it is: x.to(tide::dtype(kFloat64)) keeps x's device, never
// the default device (Note [Default device]).
Tensor plain_to(const Tensor& self, const TensorOptions& options, bool non_blocking, bool copy) {
  const Device device = self.device();
  Device target = options.has_device() ? options.device() : device;
  Dtype dt = options.has_dtype() ? options.dtype() : self.dtype();
  bool same_device = target == device || (target.is_cpu() && device.is_cpu()) ||
                     (target.is_cuda() && !target.has_index() && device.is_cuda() &&
                      resolve_device(target, "Tensor::to") == device);
  // a memory format (Preserve when not given, as torch's) the tensor is already in asks no copy
  const auto format = options.memory_format_opt();
  const bool same_layout = !format || *format == MemoryFormat::Preserve ||
                           self.is_contiguous(*format);
  if (same_device && dt == self.dtype() && same_layout && !copy) return self;
  Device dst_device = same_device ? device : resolve_device(target, "Tensor::to");
  // GPU -> cpu with non_blocking: the result is pinned so the copy can be asynchronous (torch).
  const bool pin = non_blocking && dst_device.is_cpu() && device.is_cuda();
  Tensor out = make_empty_strided(
      self.shape(), strides_for(format.value_or(MemoryFormat::Preserve), self, "Tensor::to"), dt,
      dst_device, pin);
  out.copy_(self, non_blocking);
  return out;
}

Tensor plain_pin_memory(const Tensor& self) {
  TIDE_CHECK(self.device().is_cpu(), "[Tensor::pin_memory] cannot pin a tensor on ",
             self.device(), ": only dense CPU tensors can be pinned");
  memory::check_pinned_memory_available("Tensor::pin_memory");
  if (self.is_pinned()) return self;  // as torch: already pinned, nothing to copy
  Tensor out = make_empty(self.shape(), self.dtype(), self.device(), /*pinned=*/true);
  out.copy_(self);
  return out;
}

Tensor& plain_fill_(Tensor& self, Scalar value) {
  self.storage().bump_version();
  run_kernel(self.device(), "fill_", kernels::fill_stub, self, value);
  return self;
}

Tensor& plain_fill_(Tensor& self, const Tensor& value) {
  TIDE_CHECK(value.dim() == 0, "[Tensor::fill_] fill_ only supports 0-dimension value tensor but "
             "got tensor with ", value.dim(), " dimensions");
  return self.fill_(value.item());
}

Tensor& plain_zero_(Tensor& self) { return self.fill_(0); }

}  // namespace detail

const Tensor& Tensor::copy_(const Tensor& src, bool non_blocking) const {
  // The generated copy_ (the op entry, then detail::plain_copy_) writes the storage and never
  // the handle, so calling it on a const handle is sound.
  const_cast<Tensor*>(this)->copy_(src, non_blocking);
  return *this;
}

Tensor Tensor::to(Device device, bool non_blocking, bool copy) const {
  return to(TensorOptions().device(device).dtype(dtype()), non_blocking, copy);
}

Tensor Tensor::to(Dtype dt, bool non_blocking, bool copy) const {
  return to(TensorOptions().device(device()).dtype(dt), non_blocking, copy);
}

Tensor Tensor::to(Device device, Dtype dt, bool non_blocking, bool copy) const {
  return to(TensorOptions().device(device).dtype(dt), non_blocking, copy);
}

Tensor Tensor::cuda(int index, bool non_blocking) const {
  return to(Device(kCUDA, index), non_blocking);
}

Tensor Tensor::cuda(Device device, bool non_blocking) const {
  TIDE_CHECK(device.is_cuda(), "[Tensor::cuda] expected a cuda device, got ", device,
             "; use .to(device) to move to other devices");
  return to(device, non_blocking);
}

Tensor Tensor::cpu() const { return to(Device(kCPU)); }

void Tensor::record_stream(const cuda::Stream& stream) const {
  TIDE_CHECK(defined(), "[Tensor::record_stream] expected a defined tensor");
  TIDE_CHECK(is_cuda(), "[Tensor::record_stream] expected a cuda tensor, but it is on ", device(),
             "; only device memory of the caching allocator is tracked per stream");
  TIDE_CHECK(device() == stream.device(), "[Tensor::record_stream] the tensor is on ", device(),
             " but the stream is on ", stream.device(), "; record a stream of the tensor's device "
             "(make that stream wait for the other device's stream first)");
  // Memory that is not the allocator's (from_blob) is ignored, as torch does.
  memory::record_stream_use(storage().data_ptr(), stream);
}

Scalar Tensor::item() const {
  TIDE_CHECK(numel() == 1, "[Tensor::item] a Tensor with ", numel(),
             " elements cannot be converted to Scalar; item() needs exactly one element");
  Tensor host = device().is_cpu() ? *this : cpu();
  detail::sanitize_host_read("item", host);  // pinned memory a stream may still write
  return dispatch_dtype(dtype(), [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    return Scalar(*static_cast<const T*>(host.raw_data()));
  });
}

template <class T>
T Tensor::item() const {
  return item().to<T>();
}

template <class T>
std::vector<T> Tensor::tolist() const {
  Tensor host = (device().is_cpu() ? *this : cpu()).to(dtype_v<T>).contiguous();
  detail::sanitize_host_read("tolist", host);  // pinned memory a stream may still write
  const T* p = static_cast<const T*>(host.raw_data());
  return std::vector<T>(p, p + host.numel());
}

// Explicit instantiations: every element type, plus the common aliases.
template bool Tensor::item<bool>() const;
template uint8_t Tensor::item<uint8_t>() const;
template int32_t Tensor::item<int32_t>() const;
template int64_t Tensor::item<int64_t>() const;
template float Tensor::item<float>() const;
template double Tensor::item<double>() const;
template Half Tensor::item<Half>() const;
template BFloat16 Tensor::item<BFloat16>() const;
template std::vector<bool> Tensor::tolist<bool>() const;
template std::vector<uint8_t> Tensor::tolist<uint8_t>() const;
template std::vector<int32_t> Tensor::tolist<int32_t>() const;
template std::vector<int64_t> Tensor::tolist<int64_t>() const;
template std::vector<float> Tensor::tolist<float>() const;
template std::vector<double> Tensor::tolist<double>() const;
template std::vector<Half> Tensor::tolist<Half>() const;
template std::vector<BFloat16> Tensor::tolist<BFloat16>() const;

}  // namespace tide
