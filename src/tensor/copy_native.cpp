// Note [Copies on real GPUs]: a real GPU cannot run the cpu loop on host memory, so a copy
// between devices is one cudaMemcpyAsync (runtime::memcpy_async, cudaMemcpyDefault) between
// two buffers that already have the destination's dtype, shape and a contiguous layout.
// Whatever is not yet in that form is brought there first on the side that holds it — a cpu
// copy_ on the host, a copy kernel on the GPU — into a temporary, and a non-contiguous
// destination receives the transfer through a temporary plus one more copy on its side. The
// ordering rules are those of Note [Copies between devices]:
// - host -> device runs on the destination's current stream. cudaMemcpyAsync from pageable
//   memory returns once CUDA has staged the source, so the caller may reuse it at once; from
//   pinned memory with non_blocking the transfer reads it later, and the stream's use is
//   recorded on the pinned block; from pinned memory without non_blocking the call waits for
//   the stream, since nothing was staged.
// - device -> host runs on the source's current stream; a blocking copy waits for that stream
//   (which also raises its pending KernelError); into pinned memory with non_blocking and a
//   contiguous destination it does not wait, and the use is recorded on the pinned block.
// - device -> device runs on the source's current stream between the two-way barrier with the
//   destination's current stream; cudaMemcpyDefault with unified addressing uses peer access
//   (enabled at the first copy between the pair) and is staged by the driver where the
//   hardware has none.
// Temporaries come from the caching allocator on the stream that uses them, so freeing them
// at the end of the call is safe in stream order.

#include "tensor/copy_native.h"

#include "memory/pinned_allocator.h"
#include "ops/dispatch.h"
#include "kernels/stubs.h"
#include "runtime/launch.h"
#include "runtime/registry.h"
#include "tensor/tensor_internal.h"
#include "tide/cuda/stream.h"

namespace tide::detail {
namespace {

/// Whether `t` already is what the transfer moves: dst's dtype and shape, contiguous.
bool transfer_ready(const Tensor& t, const Tensor& dst) {
  return t.dtype() == dst.dtype() && t.shape() == dst.shape() && t.is_contiguous();
}

/// `src` in dst's dtype and shape, contiguous, on src's device (a copy there if needed).
Tensor in_transfer_form(const Tensor& src, const Tensor& dst) {
  if (transfer_ready(src, dst)) return src;
  Tensor staged = make_empty(dst.shape(), dst.dtype(), src.device());
  staged.copy_(src);  // same device: the cpu loop, or the GPU copy kernel
  return staged;
}

void transfer(const Tensor& to, const Tensor& from, const cuda::Stream& stream) {
  if (to.numel() == 0) return;
  sanitize_copy(stream, to, from);
  runtime::memcpy_async(to.raw_data(), from.raw_data(), to.nbytes(), stream);
}

void host_to_device(const Tensor& dst, const Tensor& src, bool non_blocking) {
  const cuda::Stream stream = cuda::current_stream(dst.device().index());
  const Tensor host = in_transfer_form(src, dst);
  const bool async = non_blocking && host.is_same(src) && src.is_pinned();
  if (dst.is_contiguous()) {
    note_stream_use(dst, stream);
    transfer(dst, host, stream);
  } else {
    Tensor landing = make_empty(dst.shape(), dst.dtype(), dst.device());
    transfer(landing, host, stream);
    dst.copy_(landing);  // a GPU copy kernel on the same stream
  }
  if (async) {
    memory::record_pinned_use(src.storage().data_ptr(), stream);
  } else if (host.is_pinned()) {
    // From pinned memory the transfer is truly asynchronous: a blocking copy waits for it,
    // so the caller may write or free the source at once (as torch).
    stream.synchronize();
  }
}

void device_to_host(const Tensor& dst, const Tensor& src, bool non_blocking) {
  const cuda::Stream stream = cuda::current_stream(src.device().index());
  const Tensor device_side = in_transfer_form(src, dst);
  note_stream_use(device_side, stream);
  if (dst.is_contiguous()) {
    transfer(dst, device_side, stream);
    if (non_blocking && dst.is_pinned()) {
      memory::record_pinned_use(dst.storage().data_ptr(), stream);
      return;
    }
    stream.synchronize();
    return;
  }
  Tensor landing = make_empty(dst.shape(), dst.dtype(), dst.device());
  transfer(landing, device_side, stream);
  stream.synchronize();
  dst.copy_(landing);  // cpu loop
}

void device_to_device(const Tensor& dst, const Tensor& src) {
  runtime::backend(kCUDA)->enable_peer_access(src.device().index(), dst.device().index());
  cuda::Stream src_stream = cuda::current_stream(src.device().index());
  cuda::Stream dst_stream = cuda::current_stream(dst.device().index());
  const Tensor source = in_transfer_form(src, dst);
  note_stream_use(source, src_stream);
  Tensor landing = dst.is_contiguous() ? dst : make_empty(dst.shape(), dst.dtype(), dst.device());
  // The destination's stream stands for the copy's use of dst's memory (Note [Copies between
  // devices]): it waits for the copy before its later work.
  note_stream_use(landing, dst_stream);
  src_stream.wait_stream(dst_stream);
  transfer(landing, source, src_stream);
  dst_stream.wait_stream(src_stream);
  if (!landing.is_same(dst)) dst.copy_(landing);  // on dst's device and current stream
}

}  // namespace

void copy_between_devices_native(const Tensor& dst, const Tensor& src, bool non_blocking) {
  // copy_ broadcasts src to dst's shape (expand raises torch's error otherwise).
  const Tensor s = src.shape() == dst.shape() ? src : src.expand(dst.sizes());
  if (s.device().is_cpu()) {
    host_to_device(dst, s, non_blocking);
  } else if (dst.device().is_cpu()) {
    device_to_host(dst, s, non_blocking);
  } else {
    device_to_device(dst, s);
  }
}

}  // namespace tide::detail
