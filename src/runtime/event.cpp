// tide::cuda::Event over the backend's events (created lazily at the first record).

#include "tide/cuda/event.h"

#include <mutex>

#include "runtime/error_channel.h"
#include "runtime/registry.h"
#include "runtime/sanitizer.h"
#include "tide/error.h"

namespace tide::cuda {
namespace detail {

struct EventState {
  EventState(bool timing, bool block) : enable_timing(timing), blocking(block) {}
  ~EventState() {
    if (handle) {
      // Note [Fork safety]: a forked child leaves the parent's events alone.
      if (runtime::Backend* b = runtime::backend_for_cleanup(kCUDA)) b->destroy_event(handle);
    }
    if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) runtime::sanitizer_event_destroyed(this);
  }
  const bool enable_timing;
  const bool blocking;
  // Set once at the first record (under mutex); read by every other call.
  std::mutex mutex;
  runtime::EventHandle handle = nullptr;
  int device = -1;
};

}  // namespace detail

namespace {

struct Created {
  runtime::EventHandle handle;
  int device;
};

Created created(detail::EventState& s) {
  std::lock_guard<std::mutex> lock(s.mutex);
  return Created{s.handle, s.device};
}

}  // namespace

Event::Event(bool enable_timing, bool blocking)
    : state_(std::make_shared<detail::EventState>(enable_timing, blocking)) {}

void Event::record(const Stream& stream) {
  runtime::Backend& b = *runtime::backend(kCUDA);
  runtime::EventHandle handle;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (state_->handle == nullptr) {
      state_->handle =
          b.create_event(stream.device_index(), state_->enable_timing, state_->blocking);
      state_->device = stream.device_index();
    }
    TIDE_CHECK(state_->device == stream.device_index(), "[Event::record] Event device ",
               state_->device, " does not match recording stream's device ",
               stream.device_index(), ". Record an event only on streams of one device.");
    handle = state_->handle;
  }
  b.record_event(handle, stream.native_handle());
  if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) runtime::sanitizer_event_record(id(), stream);
}

void Event::wait(const Stream& stream) const {
  Created c = created(*state_);
  if (c.handle == nullptr) return;  // never recorded: nothing to wait for, as torch
  runtime::backend(kCUDA)->stream_wait_event(stream.native_handle(), c.handle);
  if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) runtime::sanitizer_event_wait(id(), stream);
}

bool Event::query() const {
  Created c = created(*state_);
  if (c.handle == nullptr) return true;
  const bool done = runtime::backend(kCUDA)->query_event(c.handle);
  // The host saw the recorded work finish: as a synchronize for the sanitizer.
  if (TIDE_UNLIKELY(runtime::sanitizer_enabled()) && done) runtime::sanitizer_event_synchronize(id());
  return done;
}

void Event::synchronize() const {
  Created c = created(*state_);
  if (c.handle == nullptr) return;
  runtime::backend(kCUDA)->synchronize_event(c.handle);
  if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) runtime::sanitizer_event_synchronize(id());
  runtime::raise_pending_kernel_error(c.device);
}

float Event::elapsed_time(const Event& end) const {
  TIDE_CHECK(state_->enable_timing && end.state_->enable_timing,
             "[Event::elapsed_time] Both events must be created with argument "
             "'enable_timing=True'.");
  Created a = created(*state_), b = created(*end.state_);
  TIDE_CHECK(a.handle != nullptr && b.handle != nullptr,
             "[Event::elapsed_time] Both events must be recorded before calculating elapsed "
             "time.");
  TIDE_CHECK(a.device == b.device, "[Event::elapsed_time] the events were recorded on different "
             "devices (cuda:", a.device, " and cuda:", b.device, "); elapsed time is measured "
             "between two events of one device");
  return runtime::backend(kCUDA)->elapsed_time(a.handle, b.handle);
}

bool Event::enable_timing() const { return state_->enable_timing; }
bool Event::blocking() const { return state_->blocking; }
int Event::device_index() const { return created(*state_).device; }

std::ostream& operator<<(std::ostream& os, const Event& e) {
  os << "Event(";
  if (e.device_index() >= 0) {
    os << "device=cuda:" << e.device_index();
  } else {
    os << "not recorded";
  }
  return os << ", enable_timing=" << (e.enable_timing() ? "true" : "false") << ")";
}

}  // namespace tide::cuda
