#include "backends/cuda/cuda_backend.h"

#include <nvtx3/nvToolsExt.h>

#include <atomic>
#include <cstring>
#include <utility>

#include "backends/cuda/error_record_take.h"
#include "backends/cuda/launch_context.h"
#include "backends/cuda_backend_info.h"
#include "runtime/error_channel.h"
#include "runtime/profiler_ranges.h"
#include "tide/error.h"

namespace tide::backends::cuda {
namespace {

CudaStream* as_stream(runtime::StreamHandle h) { return static_cast<CudaStream*>(h); }

struct CudaEvent final : runtime::EventRecord {
  CudaEvent(int device, EventOwner event) : device(device), event(std::move(event)) {}
  int device;
  EventOwner event;
};
CudaEvent* as_event(runtime::EventHandle h) { return static_cast<CudaEvent*>(h); }

/// The launch in progress on this thread, and the device that was current before it.
struct ThreadLaunch {
  LaunchContext context;
  int restore_device = -1;
  bool open = false;
};
thread_local ThreadLaunch t_launch;

std::string format_bytes(size_t n) {
  char buf[48];
  if (n >= (1ull << 30)) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(n) / (1ull << 30));
  } else if (n >= (1ull << 20)) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(n) / (1ull << 20));
  } else {
    std::snprintf(buf, sizeof buf, "%zu bytes", n);
  }
  return buf;
}

/// true: done; false: not ready. Other errors throw. cudaErrorNotReady is cleared, as torch does.
bool ready(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return true;
  if (status == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  throw_cuda_error(status, call, __FILE__, __LINE__);
}

void push_range(const char* name) { nvtxRangePushA(name); }
void pop_range() { nvtxRangePop(); }

}  // namespace

const LaunchContext& current_launch() {
  TIDE_INTERNAL_ASSERT(t_launch.open, "a GPU launcher ran outside a native launch");
  return t_launch.context;
}

CudaBackend::CudaBackend(int device_count) {
  devices_.reserve(static_cast<size_t>(device_count));
  for (int i = 0; i < device_count; ++i) {
    auto d = std::make_unique<Device>();
    // The default stream is the legacy default stream (nullptr), as torch's: naming it needs
    // no CUDA call, so the runtime's stream tables create no context (Note [Real CUDA backend]).
    auto stream = std::make_unique<CudaStream>();
    stream->device = i;
    stream->id = 0;
    stream->stream = nullptr;
    d->by_id.assign(1, stream.get());
    d->streams.push_back(std::move(stream));
    d->peer_enabled.assign(static_cast<size_t>(device_count), false);
    devices_.push_back(std::move(d));
  }
  // tide::Scope names become NVTX ranges too (Nsight Systems shows ops inside scopes).
  runtime::set_range_hooks(&push_range, &pop_range);
}

CudaBackend::~CudaBackend() = default;

CudaBackend::Device& CudaBackend::device(int index) const {
  Device& d = *devices_[static_cast<size_t>(index)];
  std::call_once(d.init_once, [&] { init_device(index, d); });
  return d;
}

void CudaBackend::init_device(int index, Device& d) const {
  CudaDeviceGuard guard(index);
  TIDE_CUDA_CHECK(cudaGetDeviceProperties(&d.props, index));
  TIDE_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&d.least_priority, &d.greatest_priority));
  // The error record (Note [Device error records]): device memory for the kernels' atomics,
  // a mapped host flag the host reads after every synchronization, a mapped buffer a take
  // copies the record into, and a private stream for the takes.
  cudaStream_t error_stream = nullptr;
  TIDE_CUDA_CHECK(cudaStreamCreateWithFlags(&error_stream, cudaStreamNonBlocking));
  d.error_stream = StreamOwner(error_stream);
  void* record = nullptr;
  TIDE_CUDA_CHECK(cudaMalloc(&record, sizeof(DeviceErrorRecord)));
  d.record = DeviceMemoryOwner(record);
  void* mapped = nullptr;
  TIDE_CUDA_CHECK(cudaHostAlloc(&mapped, sizeof(int32_t), cudaHostAllocMapped));
  d.flag = HostMemoryOwner(mapped);
  std::atomic_ref<int32_t>(*static_cast<int32_t*>(mapped)).store(0);
  TIDE_CUDA_CHECK(cudaHostGetDevicePointer(&mapped, d.flag.get(), 0));
  d.flag_device = static_cast<int32_t*>(mapped);
  TIDE_CUDA_CHECK(cudaHostAlloc(&mapped, sizeof(DeviceErrorRecord), cudaHostAllocMapped));
  d.taken = HostMemoryOwner(mapped);
  TIDE_CUDA_CHECK(cudaHostGetDevicePointer(&mapped, d.taken.get(), 0));
  d.taken_device = static_cast<DeviceErrorRecord*>(mapped);
  enqueue_init_error_record(static_cast<DeviceErrorRecord*>(record), error_stream);
  // Once per device: every kernel launched after this call sees the initialized record.
  TIDE_CUDA_CHECK(cudaDeviceSynchronize());
}

void CudaBackend::enable_peer_access(int index, int peer) {
  if (index == peer) return;
  Device& d = device(index);
  device(peer);
  std::lock_guard<std::mutex> lock(d.peers_mutex);
  if (d.peer_enabled[static_cast<size_t>(peer)]) return;
  d.peer_enabled[static_cast<size_t>(peer)] = true;  // asked once, whatever the answer
  int can = 0;
  TIDE_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, index, peer));
  if (!can) return;
  CudaDeviceGuard guard(index);
  const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
  // Already enabled (by the user), or the device's peer limit reached (8 on most systems):
  // copies then go through the driver's staging, slower but correct.
  if (status == cudaErrorPeerAccessAlreadyEnabled || status == cudaErrorTooManyPeers) {
    (void)cudaGetLastError();
  } else {
    TIDE_CUDA_CHECK(status);
  }
}

int CudaBackend::current_device() const {
  const int device = logical_current_device();
  if (device >= 0) return device;
  int failed = 0;
  TIDE_CUDA_CHECK(cudaGetDevice(&failed));  // raises the driver's error
  return failed;
}

void CudaBackend::set_device(int index) {
  device(index);
  TIDE_CUDA_CHECK(cudaSetDevice(index));
  thread_device().forget_target();
}

void CudaBackend::restore_device(int index) noexcept { cuda::restore_device(index); }

tide::cuda::DeviceProperties CudaBackend::properties(int index) const {
  const cudaDeviceProp& p = device(index).props;
  tide::cuda::DeviceProperties out;
  out.name = p.name;
  out.total_memory = static_cast<int64_t>(p.totalGlobalMem);
  out.major = p.major;
  out.minor = p.minor;
  out.multi_processor_count = p.multiProcessorCount;
  out.simulated = false;
  return out;
}

bool CudaBackend::can_access_peer(int index, int peer) const {
  if (index == peer) return false;
  int can = 0;
  TIDE_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, index, peer));
  return can != 0;
}

void CudaBackend::synchronize_device(int index) {
  device(index);
  {
    CudaDeviceGuard guard(index);
    TIDE_CUDA_CHECK(cudaDeviceSynchronize());
  }
  collect_errors(index);
}

runtime::StreamHandle CudaBackend::default_stream(int index) {
  Device& d = device_state(index);
  std::lock_guard<std::mutex> lock(d.streams_mutex);
  return d.streams.front().get();
}

runtime::StreamHandle CudaBackend::create_stream(int index, int priority, uint64_t id) {
  Device& d = device(index);
  TIDE_INTERNAL_ASSERT(id < (uint64_t{1} << (63 - kTokenSeqBits)), "stream id ", id, " too large");
  auto s = std::make_unique<CudaStream>();
  s->device = index;
  s->id = id;
  {
    CudaDeviceGuard guard(index);
    cudaStream_t raw = nullptr;
    const int p = priority < 0 ? d.greatest_priority : d.least_priority;
    TIDE_CUDA_CHECK(cudaStreamCreateWithPriority(&raw, cudaStreamNonBlocking, p));
    s->owner = StreamOwner(raw);
    s->stream = raw;
  }
  std::lock_guard<std::mutex> lock(d.streams_mutex);
  if (d.by_id.size() <= id) d.by_id.resize(id + 1, nullptr);
  d.by_id[id] = s.get();
  d.streams.push_back(std::move(s));
  return d.streams.back().get();
}

CudaStream* CudaBackend::stream_by_id(int index, uint64_t id) const {
  Device& d = device_state(index);
  std::lock_guard<std::mutex> lock(d.streams_mutex);
  return id < d.by_id.size() ? d.by_id[id] : nullptr;
}

bool CudaBackend::query_stream(runtime::StreamHandle stream) {
  CudaStream* s = as_stream(stream);
  CudaDeviceGuard guard(s->device);
  return ready(cudaStreamQuery(s->stream), "cudaStreamQuery");
}

void CudaBackend::synchronize_stream(runtime::StreamHandle stream) {
  CudaStream* s = as_stream(stream);
  {
    CudaDeviceGuard guard(s->device);
    TIDE_CUDA_CHECK(cudaStreamSynchronize(s->stream));
  }
  collect_errors(s->device);
}

uintptr_t CudaBackend::cuda_stream(runtime::StreamHandle stream) {
  return reinterpret_cast<uintptr_t>(as_stream(stream)->stream);
}

void CudaBackend::external_stream_wait(uintptr_t consumer, runtime::StreamHandle producer) {
  // CUDA spells its legacy and per-thread default streams 1 and 2 (cudaStreamLegacy,
  // cudaStreamPerThread), the values DLPack took from it, and 0 is the null stream, which is
  // the legacy one here (tide builds without per-thread default streams): the integer is the
  // handle as it stands.
  const cudaStream_t target = reinterpret_cast<cudaStream_t>(consumer);
  CudaStream* p = as_stream(producer);
  const bool producer_is_legacy = p->stream == nullptr;
  if (target == p->stream || (producer_is_legacy && target == cudaStreamLegacy)) return;
  // On the producer's device: the event is recorded there, and 1 and 2 name that device's
  // default streams (the tensor's device, which is where the consumer reads it).
  CudaDeviceGuard guard(p->device);
  cudaEvent_t raw = nullptr;
  TIDE_CUDA_CHECK(cudaEventCreateWithFlags(&raw, cudaEventDisableTiming));
  // Destroying the event right after the wait is allowed: CUDA releases it once it completes.
  const EventOwner event(raw);
  TIDE_CUDA_CHECK(cudaEventRecord(event.get(), p->stream));
  TIDE_CUDA_CHECK(cudaStreamWaitEvent(target, event.get(), 0));
}

uint64_t CudaBackend::next_seq(CudaStream& s, const runtime::LaunchInfo& info,
                               std::shared_ptr<const runtime::RawBacktrace> backtrace) {
  std::lock_guard<std::mutex> lock(s.mutex);
  const uint64_t seq = ++s.next_seq;
  s.ring.put(seq, info);
  if (backtrace || !s.backtraces.empty()) {
    s.backtraces.resize(runtime::OpRing::kCapacity);
    s.backtraces[seq % runtime::OpRing::kCapacity] = std::move(backtrace);
  }
  return seq;
}

uint64_t CudaBackend::launch(runtime::StreamHandle stream, const runtime::LaunchInfo& info,
                             runtime::Task task) {
  // A host task on a real GPU is a launcher: it runs here and enqueues device work.
  const uint64_t seq = begin_native_launch(stream, info);
  try {
    task();
  } catch (...) {
    end_native_launch();
    throw;
  }
  end_native_launch();
  return seq;
}

uint64_t CudaBackend::begin_native_launch(runtime::StreamHandle stream,
                                          const runtime::LaunchInfo& info) {
  CudaStream* s = as_stream(stream);
  Device& d = device(s->device);
  TIDE_INTERNAL_ASSERT(!t_launch.open, "native launches do not nest");
  std::shared_ptr<const runtime::RawBacktrace> backtrace;
  if (TIDE_UNLIKELY(runtime::async_backtrace_enabled())) {
    // Skip this function and NativeLaunch's constructor: the trace starts at run_kernel.
    backtrace = std::make_shared<const runtime::RawBacktrace>(runtime::capture_backtrace(2));
  }
  const int previous = logical_current_device();
  int real = 0;
  TIDE_CUDA_CHECK(cudaGetDevice(&real));
  const uint64_t seq = next_seq(*s, info, std::move(backtrace));
  // Last: nothing below throws, so the launch always ends with the device restored.
  if (real != s->device) TIDE_CUDA_CHECK(cudaSetDevice(s->device));
  thread_device().forget_target();
  LaunchContext& c = t_launch.context;
  c.device = s->device;
  c.stream = s->stream;
  c.stream_id = s->id;
  c.seq = seq;
  c.sm_count = d.props.multiProcessorCount;
  c.max_threads_per_sm = d.props.maxThreadsPerMultiProcessor;
  c.errors = static_cast<DeviceErrorRecord*>(d.record.get());
  c.error_flag = d.flag_device;
  t_launch.restore_device = previous;
  t_launch.open = true;
  nvtxRangePushA(info.op);
  return seq;
}

void CudaBackend::end_native_launch() noexcept {
  if (!t_launch.open) return;
  nvtxRangePop();
  t_launch.open = false;
  // Note [Restoring a device]: never a new context on the previous device.
  if (t_launch.restore_device != t_launch.context.device) {
    cuda::restore_device(t_launch.restore_device);
  }
}

void CudaBackend::collect_errors(int index) {
  Device& d = device(index);
  std::atomic_ref<int32_t> flag(*static_cast<int32_t*>(d.flag.get()));
  if (flag.load(std::memory_order_acquire) == 0) return;  // the common case: one host load
  std::lock_guard<std::mutex> lock(d.errors_mutex);
  if (flag.load(std::memory_order_acquire) == 0) return;
  // Cleared before the take: an error recorded after the take raises it again.
  flag.store(0, std::memory_order_seq_cst);
  auto* taken = static_cast<DeviceErrorRecord*>(d.taken.get());
  {
    CudaDeviceGuard guard(index);
    enqueue_take_error_record(static_cast<DeviceErrorRecord*>(d.record.get()), d.taken_device,
                              d.error_stream.get());
    TIDE_CUDA_CHECK(cudaStreamSynchronize(d.error_stream.get()));
  }
  const DeviceErrorRecord record = *taken;
  std::optional<DecodedError> decoded = decode_error_record(record);
  if (!decoded) return;
  runtime::KernelFailure failure;
  failure.device = index;
  failure.stream_id = decoded->stream_id;
  failure.seq = decoded->seq;
  if (CudaStream* s = stream_by_id(index, decoded->stream_id)) {
    std::lock_guard<std::mutex> stream_lock(s->mutex);
    failure.info = s->ring.find(decoded->seq);
    if (failure.info.op != nullptr && !s->backtraces.empty()) {
      failure.enqueued_at = s->backtraces[decoded->seq % runtime::OpRing::kCapacity];
    }
  }
  failure.message = std::move(decoded->message);
  runtime::report_kernel_error(std::move(failure));
}

runtime::EventHandle CudaBackend::create_event(int index, bool enable_timing, bool blocking) {
  device(index);
  CudaDeviceGuard guard(index);
  unsigned flags = enable_timing ? cudaEventDefault : cudaEventDisableTiming;
  if (blocking) flags |= cudaEventBlockingSync;
  cudaEvent_t raw = nullptr;
  TIDE_CUDA_CHECK(cudaEventCreateWithFlags(&raw, flags));
  return new CudaEvent(index, EventOwner(raw));
}

void CudaBackend::destroy_event(runtime::EventHandle event) noexcept {
  // On the event's device (as torch's CUDAEvent): never a context on the current one.
  CudaEvent* e = as_event(event);
  CudaDeviceGuardNoThrow guard(e->device);
  delete e;
}

void CudaBackend::record_event(runtime::EventHandle event, runtime::StreamHandle stream) {
  CudaStream* s = as_stream(stream);
  CudaDeviceGuard guard(s->device);
  TIDE_CUDA_CHECK(cudaEventRecord(as_event(event)->event.get(), s->stream));
}

// Event calls run with the event's device current: on another device without a context the
// runtime would create one (hundreds of MiB) just to answer.
bool CudaBackend::query_event(runtime::EventHandle event) {
  CudaEvent* e = as_event(event);
  CudaDeviceGuard guard(e->device);
  return ready(cudaEventQuery(e->event.get()), "cudaEventQuery");
}

void CudaBackend::synchronize_event(runtime::EventHandle event) {
  CudaEvent* e = as_event(event);
  {
    CudaDeviceGuard guard(e->device);
    TIDE_CUDA_CHECK(cudaEventSynchronize(e->event.get()));
  }
  collect_errors(e->device);
}

void CudaBackend::stream_wait_event(runtime::StreamHandle stream, runtime::EventHandle event) {
  CudaStream* s = as_stream(stream);
  CudaDeviceGuard guard(s->device);
  TIDE_CUDA_CHECK(cudaStreamWaitEvent(s->stream, as_event(event)->event.get(), 0));
}

float CudaBackend::elapsed_time(runtime::EventHandle start, runtime::EventHandle end) {
  CudaDeviceGuard guard(as_event(start)->device);
  float ms = 0;
  const cudaError_t status =
      cudaEventElapsedTime(&ms, as_event(start)->event.get(), as_event(end)->event.get());
  if (status == cudaErrorNotReady) {
    (void)cudaGetLastError();
    throw Error(
        "[Event::elapsed_time] both events must have completed before calculating elapsed "
        "time, but at least one is still pending; call synchronize() on the end event first");
  }
  TIDE_CUDA_CHECK(status);
  return ms;
}

void* CudaBackend::malloc(int index, size_t nbytes) {
  if (nbytes == 0) return nullptr;
  device(index);
  CudaDeviceGuard guard(index);
  void* p = nullptr;
  const cudaError_t status = cudaMalloc(&p, nbytes);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    size_t free_bytes = 0, total = 0;
    TIDE_CUDA_CHECK_NOTHROW(cudaMemGetInfo(&free_bytes, &total));
    throw OutOfMemoryError(detail::concat(
        "[cuda malloc] CUDA out of memory. Tried to allocate ", format_bytes(nbytes), ". GPU ",
        index, " has a total capacity of ", format_bytes(total), " of which ",
        format_bytes(free_bytes), " is free (other processes and CUDA contexts included). Free "
        "tensors that are no longer needed or use smaller batches."));
  }
  TIDE_CUDA_CHECK(status);
  return p;
}

void CudaBackend::free(int index, void* ptr, size_t) noexcept {
  if (ptr == nullptr) return;
  // The device owning ptr has a context (it allocated ptr), so entering it creates none.
  CudaDeviceGuardNoThrow guard(index);
  TIDE_CUDA_CHECK_NOTHROW(cudaFree(ptr));
}

int64_t CudaBackend::memory_in_use(int index) const {
  device(index);
  CudaDeviceGuard guard(index);
  size_t free_bytes = 0, total = 0;
  TIDE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  return static_cast<int64_t>(total - free_bytes);
}

int64_t CudaBackend::memory_capacity(int index) const {
  return static_cast<int64_t>(device(index).props.totalGlobalMem);
}

uint64_t CudaBackend::memcpy_async(void* dst, const void* src, size_t nbytes,
                                   runtime::StreamHandle stream) {
  CudaStream* s = as_stream(stream);
  CudaDeviceGuard guard(s->device);
  const uint64_t seq = next_seq(*s, runtime::LaunchInfo{"memcpy_async", nullptr});
  // cudaMemcpyDefault: unified addressing tells host, device and peer memory apart.
  if (nbytes > 0) TIDE_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDefault, s->stream));
  return seq;
}

void* CudaBackend::host_alloc(size_t nbytes) {
  // On a device that already has a context (Note [Restoring a device]): pinning memory must
  // not create a context on the current device when the process works on another one.
  RuntimeDriver driver;
  const int current = logical_current_device();
  CudaDeviceGuard guard(host_alloc_device(driver, current < 0 ? 0 : current, device_count()));
  void* p = nullptr;
  const cudaError_t status = cudaHostAlloc(&p, nbytes == 0 ? 1 : nbytes, cudaHostAllocDefault);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    return nullptr;  // the pinned allocator reports it (Backend::host_alloc contract)
  }
  TIDE_CUDA_CHECK(status);
  return p;
}

void CudaBackend::host_free(void* ptr, size_t) noexcept {
  if (!ptr) return;
  // As host_alloc: on a device that has a context (the one that allocated it does).
  RuntimeDriver driver;
  const int current = logical_current_device();
  CudaDeviceGuardNoThrow guard(host_alloc_device(driver, current < 0 ? 0 : current, device_count()));
  TIDE_CUDA_CHECK_NOTHROW(cudaFreeHost(ptr));
}

}  // namespace tide::backends::cuda

namespace tide::backends {

bool cuda_backend_compiled() { return true; }

int real_cuda_device_count() {
  // cudaGetDeviceCount initializes the runtime but creates no context (Note [Restoring a
  // device]), so asking before the backend is chosen costs no GPU memory.
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

runtime::Backend* create_cuda_backend(std::string& why_not) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    why_not = detail::concat("the CUDA driver reports ", cudaGetErrorName(status), ": ",
                             cudaGetErrorString(status), ", and TIDE_SIM_DEVICES is not set");
    return nullptr;
  }
  if (count == 0) {
    why_not = "the CUDA driver finds no GPU (after CUDA_VISIBLE_DEVICES) and TIDE_SIM_DEVICES is not set";
    return nullptr;
  }
  return new cuda::CudaBackend(count);
}

}  // namespace tide::backends
