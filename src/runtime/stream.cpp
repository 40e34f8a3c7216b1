// tide::cuda::Stream, the current stream functions and StreamGuard.

#include "runtime/error_channel.h"
#include "runtime/registry.h"
#include "runtime/sanitizer.h"
#include "runtime/stream_pool.h"
#include "tide/cuda/event.h"
#include "tide/cuda/stream.h"
#include "tide/cuda/stream_guard.h"
#include "tide/error.h"

namespace tide::cuda {
namespace {
runtime::Backend& backend_of(const Stream&) { return *runtime::backend(kCUDA); }
}  // namespace

Stream::Stream(int device, int priority)
    : Stream(runtime::next_pool_stream(runtime::check_cuda_device(device, "cuda::Stream"),
                                       priority)) {}

bool Stream::query() const {
  const bool done = backend_of(*this).query_stream(handle_);
  // The host saw the work finish: as a synchronize for the sanitizer.
  if (TIDE_UNLIKELY(runtime::sanitizer_enabled()) && done) runtime::sanitizer_stream_synchronize(*this);
  return done;
}

void Stream::synchronize() const {
  backend_of(*this).synchronize_stream(handle_);
  if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) runtime::sanitizer_stream_synchronize(*this);
  runtime::raise_pending_kernel_error(device_);
}

uintptr_t Stream::cuda_stream() const { return backend_of(*this).cuda_stream(handle_); }

void Stream::wait_event(const Event& event) const { event.wait(*this); }

void Stream::wait_stream(const Stream& other) const {
  if (other == *this) return;
  wait_event(other.record_event());
}

Event Stream::record_event() const {
  Event e;
  e.record(*this);
  return e;
}

std::ostream& operator<<(std::ostream& os, const Stream& s) {
  return os << "Stream(device=" << s.device() << ", id=" << s.id()
            << ", priority=" << s.priority() << ")";
}

Stream current_stream(int device) {
  return runtime::current_stream_of(runtime::check_cuda_device(device, "cuda::current_stream"));
}

Stream default_stream(int device) {
  return runtime::default_stream_of(runtime::check_cuda_device(device, "cuda::default_stream"));
}

void set_stream(const Stream& stream) { runtime::set_current_stream(stream); }

StreamGuard::StreamGuard(const Stream& stream)
    : original_stream_(runtime::current_stream_of(stream.device_index())),
      original_device_(runtime::backend(kCUDA)->current_device()) {
  runtime::Backend& b = *runtime::backend(kCUDA);
  if (original_device_ != stream.device_index()) b.set_device(stream.device_index());
  runtime::set_current_stream(stream);
}

StreamGuard::~StreamGuard() {
  runtime::Backend* b = runtime::backend_for_cleanup(kCUDA);
  if (b == nullptr) return;  // a forked child (Note [Fork safety])
  runtime::set_current_stream(original_stream_);
  b->restore_device(original_device_);  // noexcept, and a no-op when nothing changed
}

}  // namespace tide::cuda
