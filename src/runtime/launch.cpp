#include "runtime/launch.h"

#include "runtime/backtrace.h"
#include "runtime/error_channel.h"
#include "runtime/fork_safety.h"
#include "runtime/registry.h"
#include "tide/macros.h"
#include "tide/scope.h"

namespace tide::runtime {
namespace {

void after_launch(Backend& b, const cuda::Stream& stream) {
  if (TIDE_UNLIKELY(launch_blocking())) {
    b.synchronize_stream(stream.native_handle());
    raise_pending_kernel_error(stream.device_index());
  }
}

// The cuda backend; in a forked child, the error names the op (Note [Fork safety]).
Backend& backend_for_launch(const char* op) {
  if (TIDE_UNLIKELY(in_bad_fork())) raise_bad_fork(op != nullptr ? op : "cuda launch");
  return *backend(kCUDA);
}

}  // namespace

uint64_t launch(const cuda::Stream& stream, const char* op, Task task) {
  Backend& b = backend_for_launch(op);
  if (TIDE_UNLIKELY(async_backtrace_enabled())) task = with_enqueue_backtrace(std::move(task));
  const uint64_t seq =
      b.launch(stream.native_handle(), LaunchInfo{op, Scope::current()}, std::move(task));
  after_launch(b, stream);
  return seq;
}

NativeLaunch::NativeLaunch(const cuda::Stream& stream, const char* op)
    : backend_(backend_for_launch(op)), stream_(stream) {
  seq_ = backend_.begin_native_launch(stream.native_handle(), LaunchInfo{op, Scope::current()});
}

NativeLaunch::~NativeLaunch() {
  if (open_) backend_.end_native_launch();
}

void NativeLaunch::finish() {
  open_ = false;
  backend_.end_native_launch();
  after_launch(backend_, stream_);
}

uint64_t memcpy_async(void* dst, const void* src, size_t nbytes, const cuda::Stream& stream) {
  Backend& b = *backend(kCUDA);
  const uint64_t seq = b.memcpy_async(dst, src, nbytes, stream.native_handle());
  after_launch(b, stream);
  return seq;
}

void* device_malloc(int device, size_t nbytes) {
  const int d = check_cuda_device(device, "cuda malloc");
  return cuda_backend("cuda malloc").malloc(d, nbytes);
}

void device_free(int device, void* ptr, size_t nbytes) noexcept {
  if (Backend* b = backend_for_cleanup(kCUDA)) b->free(device, ptr, nbytes);
}

}  // namespace tide::runtime
