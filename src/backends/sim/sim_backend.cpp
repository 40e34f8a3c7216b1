#include "backends/sim/sim_backend.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "tide/error.h"

namespace tide::sim {
namespace {

thread_local int t_current_device = 0;

struct SimEvent final : runtime::EventRecord {
  int device;
  bool timing;
  std::mutex mutex;
  SimStream* stream = nullptr;  // nullptr until recorded
  uint64_t seq = 0;
  std::shared_ptr<std::atomic<int64_t>> stamp_ns;  // timing events: set by the marker task
};

SimStream* as_stream(runtime::StreamHandle h) { return static_cast<SimStream*>(h); }
SimEvent* as_event(runtime::EventHandle h) { return static_cast<SimEvent*>(h); }

struct Recorded {
  SimStream* stream;
  uint64_t seq;
  std::shared_ptr<std::atomic<int64_t>> stamp_ns;
};

Recorded snapshot(SimEvent* e) {
  std::lock_guard<std::mutex> lock(e->mutex);
  return Recorded{e->stream, e->seq, e->stamp_ns};
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string format_bytes(int64_t n) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  if (u == 0) return detail::concat(n, " bytes");
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %s", v, units[u]);
  return buf;
}

}  // namespace

SimBackend::SimBackend(SimConfig config) : config_(std::move(config)) {
  for (size_t i = 0; i < config_.visible.size(); ++i) {
    auto device = std::make_unique<Device>();
    device->streams.push_back(std::make_unique<SimStream>(static_cast<int>(i), 0, 0));
    devices_.push_back(std::move(device));
  }
}

SimBackend::~SimBackend() = default;

void SimBackend::quiesce_for_exit() {
  std::vector<SimStream*> all;
  for (auto& device : devices_) {
    std::lock_guard<std::mutex> lock(device->streams_mutex);
    for (auto& stream : device->streams) all.push_back(stream.get());
  }
  for (SimStream* stream : all) stream->begin_exit();
  // A task that never returns (user code blocked on something exit will not provide) must not
  // hang the exit: after the bound the process exits as it did before this existed.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (SimStream* stream : all) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || !stream->wait_idle_for_exit(left)) break;
  }
}

int SimBackend::current_device() const { return t_current_device; }

void SimBackend::set_device(int device) { t_current_device = device; }

void SimBackend::restore_device(int device) noexcept { t_current_device = device; }

cuda::DeviceProperties SimBackend::properties(int device) const {
  cuda::DeviceProperties p;
  p.name = detail::concat("tide simulated GPU (physical ", physical_ordinal(device), ")");
  p.total_memory = config_.capacity;
  // Reported as an H100 (compute capability 9.0, 132 SMs): the GPU the real backend targets.
  p.major = 9;
  p.minor = 0;
  p.multi_processor_count = 132;
  p.simulated = true;
  return p;
}

bool SimBackend::can_access_peer(int device, int peer) const { return device != peer; }

void SimBackend::synchronize_device(int device) {
  Device& d = *devices_[static_cast<size_t>(device)];
  std::vector<std::pair<SimStream*, uint64_t>> targets;
  {
    std::lock_guard<std::mutex> lock(d.streams_mutex);
    for (auto& s : d.streams) targets.emplace_back(s.get(), s->last_enqueued());
  }
  for (auto& [stream, seq] : targets) stream->wait_through(seq);
}

runtime::StreamHandle SimBackend::default_stream(int device) {
  Device& d = *devices_[static_cast<size_t>(device)];
  std::lock_guard<std::mutex> lock(d.streams_mutex);
  return d.streams.front().get();
}

runtime::StreamHandle SimBackend::create_stream(int device, int priority, uint64_t id) {
  Device& d = *devices_[static_cast<size_t>(device)];
  auto stream = std::make_unique<SimStream>(device, id, priority);
  std::lock_guard<std::mutex> lock(d.streams_mutex);
  d.streams.push_back(std::move(stream));
  return d.streams.back().get();
}

bool SimBackend::query_stream(runtime::StreamHandle stream) { return as_stream(stream)->query(); }

void SimBackend::synchronize_stream(runtime::StreamHandle stream) {
  as_stream(stream)->synchronize();
}

uint64_t SimBackend::launch(runtime::StreamHandle stream, const runtime::LaunchInfo& info,
                            runtime::Task task) {
  return as_stream(stream)->enqueue(info, std::move(task));
}

uintptr_t SimBackend::cuda_stream(runtime::StreamHandle stream) {
  const SimStream* s = as_stream(stream);
  throw Error(detail::concat(
      "[Stream::cuda_stream] expected a stream of a real GPU, found stream ", s->id(), " of "
      "simulated cuda:", s->device(), ", which runs on a host thread and has no cudaStream_t "
      "(Note [A stream's cudaStream_t]: any integer would be taken for a real stream by CUDA "
      "libraries); tell streams apart by their id (stream_id in Python), or run on a real GPU"));
}

void SimBackend::external_stream_wait(uintptr_t, runtime::StreamHandle producer) {
  throw Error(detail::concat(
      "[external_stream_wait] expected a stream of a real GPU, found one of simulated cuda:",
      as_stream(producer)->device(), ", which no CUDA stream can wait for; share simulated "
      "tensors through the cpu (Note [DLPack on simulated GPUs])"));
}

runtime::EventHandle SimBackend::create_event(int device, bool enable_timing, bool) {
  auto* e = new SimEvent();
  e->device = device;
  e->timing = enable_timing;
  return e;
}

void SimBackend::destroy_event(runtime::EventHandle event) noexcept { delete as_event(event); }

void SimBackend::record_event(runtime::EventHandle event, runtime::StreamHandle stream) {
  SimEvent* e = as_event(event);
  SimStream* s = as_stream(stream);
  std::shared_ptr<std::atomic<int64_t>> stamp;
  uint64_t seq;
  if (e->timing) {
    stamp = std::make_shared<std::atomic<int64_t>>(-1);
    seq = s->enqueue({"Event::record", nullptr}, [stamp] { stamp->store(now_ns()); });
  } else {
    seq = s->last_enqueued();
  }
  std::lock_guard<std::mutex> lock(e->mutex);
  e->stream = s;
  e->seq = seq;
  e->stamp_ns = std::move(stamp);
}

bool SimBackend::query_event(runtime::EventHandle event) {
  Recorded r = snapshot(as_event(event));
  return r.stream == nullptr || r.stream->done_through(r.seq);
}

void SimBackend::synchronize_event(runtime::EventHandle event) {
  Recorded r = snapshot(as_event(event));
  if (r.stream) r.stream->wait_through(r.seq);
}

void SimBackend::stream_wait_event(runtime::StreamHandle stream, runtime::EventHandle event) {
  Recorded r = snapshot(as_event(event));
  SimStream* waiter = as_stream(stream);
  if (r.stream == nullptr || r.stream == waiter || r.stream->done_through(r.seq)) return;
  SimStream* target = r.stream;
  const uint64_t seq = r.seq;
  waiter->enqueue({"Stream::wait_event", nullptr}, [target, seq] { target->wait_through(seq); });
}

float SimBackend::elapsed_time(runtime::EventHandle start, runtime::EventHandle end) {
  Recorded a = snapshot(as_event(start)), b = snapshot(as_event(end));
  TIDE_INTERNAL_ASSERT(a.stamp_ns && b.stamp_ns, "elapsed_time of events without timing");
  TIDE_CHECK(a.stream->done_through(a.seq) && b.stream->done_through(b.seq),
             "[Event::elapsed_time] both events must have completed before calculating elapsed "
             "time, but at least one is still pending; call synchronize() on the end event first");
  return static_cast<float>(static_cast<double>(b.stamp_ns->load() - a.stamp_ns->load()) / 1e6);
}

void* SimBackend::malloc(int device, size_t nbytes) {
  if (nbytes == 0) return nullptr;
  Device& d = *devices_[static_cast<size_t>(device)];
  const auto n = static_cast<int64_t>(nbytes);
  const int64_t before = d.in_use.fetch_add(n);
  if (before + n > config_.capacity || n < 0) {
    d.in_use.fetch_sub(n);
    throw OutOfMemoryError(detail::concat(
        "[cuda malloc] CUDA out of memory. Tried to allocate ", format_bytes(n), ". GPU ", device,
        " (simulated, physical ", physical_ordinal(device), ") has a total capacity of ",
        format_bytes(config_.capacity), " of which ", format_bytes(config_.capacity - before),
        " is free. Free tensors that are no longer needed, or give the simulated GPUs more "
        "memory with TIDE_SIM_MEMORY (for example TIDE_SIM_MEMORY=32GiB)."));
  }
  void* p = std::malloc(nbytes);
  if (p == nullptr) {
    d.in_use.fetch_sub(n);
    throw OutOfMemoryError(detail::concat(
        "[cuda malloc] the host could not provide ", format_bytes(n), " for simulated GPU ",
        device, " (its capacity is ", format_bytes(config_.capacity),
        ", but simulated memory comes from host memory as it is used); lower TIDE_SIM_MEMORY "
        "or free host memory"));
  }
  return p;
}

void SimBackend::free(int device, void* ptr, size_t nbytes) noexcept {
  if (ptr == nullptr) return;
  std::free(ptr);
  devices_[static_cast<size_t>(device)]->in_use.fetch_sub(static_cast<int64_t>(nbytes));
}

int64_t SimBackend::memory_in_use(int device) const {
  return devices_[static_cast<size_t>(device)]->in_use.load();
}

uint64_t SimBackend::memcpy_async(void* dst, const void* src, size_t nbytes,
                                  runtime::StreamHandle stream) {
  return as_stream(stream)->enqueue({"memcpy_async", nullptr},
                                    [dst, src, nbytes] { std::memcpy(dst, src, nbytes); });
}

void SimBackend::hold(runtime::StreamHandle stream) { as_stream(stream)->hold(); }
void SimBackend::release(runtime::StreamHandle stream) { as_stream(stream)->release(); }

}  // namespace tide::sim
