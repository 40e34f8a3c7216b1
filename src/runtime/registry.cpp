#include "runtime/registry.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "backends/cuda_backend_info.h"
#include "backends/sim/sim_backend.h"
#include "runtime/backtrace.h"
#include "runtime/error_channel.h"
#include "runtime/fork_safety.h"
#include "runtime/sanitizer.h"
#include "runtime/stream_pool.h"
#include "tide/error.h"

namespace tide::runtime {
namespace {

// Backends live for the whole process and are never destroyed: worker threads of simulated
// streams may still be parked at exit, and static destruction order must not matter.
std::array<Backend*, 2> g_backends{};
std::once_flag g_once;
std::atomic<bool> g_initialized{false};
std::mutex g_override_mutex;
std::optional<int> g_sim_override;
bool g_launch_blocking = false;
bool g_native_kernels = false;
std::string g_unavailable_reason;
sim::SimBackend* g_sim_at_exit = nullptr;

size_t slot(DeviceType type) { return static_cast<size_t>(type); }

void initialize() {
  // Held throughout, so a concurrent set_sim_devices_for_testing either lands before the
  // configuration is read or sees the backend chosen.
  std::lock_guard<std::mutex> lock(g_override_mutex);
  std::optional<sim::SimConfig> config = sim::config_from_environment(g_sim_override);
  const char* blocking = std::getenv("CUDA_LAUNCH_BLOCKING");
  g_launch_blocking = blocking != nullptr && std::strcmp(blocking, "1") == 0;
  const char* async_backtrace = std::getenv("TIDE_ASYNC_BACKTRACE");
  set_async_backtrace_enabled(async_backtrace != nullptr &&
                              std::strcmp(async_backtrace, "1") == 0);
  const char* sanitizer = std::getenv("TIDE_CUDA_SANITIZER");
  if (sanitizer != nullptr && std::strcmp(sanitizer, "1") == 0) sanitizer_enable();

  Backend* cuda = nullptr;
  if (config) {
    auto* sim = new sim::SimBackend(std::move(*config));
    cuda = sim;
    // Stop the simulated streams' workers before exit unloads what their tasks call into
    // (Note [Simulated streams at exit]). Registered once: the backend is chosen once.
    g_sim_at_exit = sim;
    // A forked child inherits the handler but not the workers (Note [Fork safety]): skip it.
    std::atexit([] {
      if (!in_bad_fork()) g_sim_at_exit->quiesce_for_exit();
    });
    const int asked = static_cast<sim::SimBackend*>(cuda)->config().physical_devices;
    if (asked == 0) {
      g_unavailable_reason = "TIDE_SIM_DEVICES=0 asks for no simulated GPU";
    } else if (cuda->device_count() == 0) {
      g_unavailable_reason = detail::concat(
          "TIDE_SIM_DEVICES asks for ", static_cast<sim::SimBackend*>(cuda)->config().physical_devices,
          " simulated GPUs and CUDA_VISIBLE_DEVICES='",
          std::getenv("CUDA_VISIBLE_DEVICES") ? std::getenv("CUDA_VISIBLE_DEVICES") : "",
          "' leaves none visible");
    }
  } else if (backends::cuda_backend_compiled()) {
    // The driver applies CUDA_VISIBLE_DEVICES itself; no device (or no driver) is not an
    // error here, only a reason to report when cuda is used.
    cuda = backends::create_cuda_backend(g_unavailable_reason);
    if (cuda) {
      backends::register_cuda_kernels();
      g_native_kernels = true;
    }
  } else {
    g_unavailable_reason =
        "this build has no CUDA backend and TIDE_SIM_DEVICES is not set";
  }
  const int count = cuda ? cuda->device_count() : 0;
  init_error_channel(count);
  init_stream_pools(cuda, count);
  g_backends[slot(kCUDA)] = cuda;
  if (count > 0) watch_forks();  // Note [Fork safety]
  g_initialized.store(true, std::memory_order_release);
}

void start() {
  if (TIDE_UNLIKELY(!g_initialized.load(std::memory_order_acquire))) register_builtin_backends();
}

}  // namespace

void register_builtin_backends() { std::call_once(g_once, initialize); }

Backend* backend(DeviceType type) {
  start();
  if (TIDE_UNLIKELY(in_bad_fork()) && type == kCUDA) raise_bad_fork("cuda");
  return g_backends[slot(type)];
}

Backend* backend_for_cleanup(DeviceType type) noexcept {
  if (!g_initialized.load(std::memory_order_acquire)) return nullptr;
  if (TIDE_UNLIKELY(in_bad_fork()) && type == kCUDA) return nullptr;
  return g_backends[slot(type)];
}

int cuda_device_count() {
  start();
  Backend* b = g_backends[slot(kCUDA)];  // answers in a forked child too (Note [Fork safety])
  return b ? b->device_count() : 0;
}

Backend& cuda_backend(const char* fn) {
  start();
  if (TIDE_UNLIKELY(in_bad_fork())) raise_bad_fork(fn);
  Backend* b = g_backends[slot(kCUDA)];
  TIDE_CHECK(b != nullptr && b->device_count() > 0, "[", fn,
             "] no cuda device is available: device_count() is 0 (", cuda_unavailable_reason(),
             "). Set TIDE_SIM_DEVICES=N to simulate N GPUs, or check cuda::is_available() "
             "before using cuda.");
  return *b;
}

int check_cuda_device(int device, const char* fn) {
  Backend& b = cuda_backend(fn);
  if (device == -1) return b.current_device();
  const int count = b.device_count();
  TIDE_CHECK(device >= 0 && device < count, "[", fn, "] invalid device ordinal: cuda:", device,
             " does not exist; ",
             count == 1 ? std::string("there is 1 cuda device (cuda:0)")
                        : detail::concat("there are ", count, " cuda devices (cuda:0..cuda:",
                                         count - 1, ")"));
  return device;
}

bool real_cuda_devices_present() { return backends::real_cuda_device_count() > 0; }

bool native_kernels() {
  start();
  return g_native_kernels;
}

bool launch_blocking() {
  start();
  return g_launch_blocking;
}

const std::string& cuda_unavailable_reason() {
  start();
  return g_unavailable_reason;
}

void set_sim_devices_override(int n) {
  TIDE_CHECK(n >= 0, "[set_sim_devices_for_testing] expected a non-negative number of devices, "
                     "but got ", n);
  std::lock_guard<std::mutex> lock(g_override_mutex);
  TIDE_CHECK(!g_initialized.load(std::memory_order_acquire),
             "[set_sim_devices_for_testing] the cuda backend was already chosen at first use, "
             "with ", g_backends[slot(kCUDA)] ? g_backends[slot(kCUDA)]->device_count() : 0,
             " devices; changing the number of simulated devices after first use has no effect. "
             "Call it before any tide::cuda function or cuda tensor is used.");
  g_sim_override = n;
}

bool backends_initialized() { return g_initialized.load(std::memory_order_acquire); }

}  // namespace tide::runtime
