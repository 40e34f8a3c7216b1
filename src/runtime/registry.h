#pragma once
// The backend registry: one Backend per DeviceType, chosen once per process at first use.

#include <memory>
#include <optional>
#include <string>

#include "runtime/backend.h"

namespace tide::runtime {

/// Note [Choosing the cuda backend]: the first call that needs cuda (any tide::cuda function,
/// a cuda tensor) runs register_builtin_backends once for the process. It reads
/// TIDE_SIM_DEVICES (or the value given to testing::set_sim_devices_for_testing): when set,
/// cuda is served by the simulated backend, even if real GPUs exist; otherwise by the real
/// CUDA backend when it is compiled in and finds a device; otherwise cuda has no backend and
/// device_count() is 0. CUDA_VISIBLE_DEVICES, TIDE_SIM_MEMORY, CUDA_LAUNCH_BLOCKING,
/// TIDE_ASYNC_BACKTRACE (backtrace.h) and TIDE_CUDA_SANITIZER (sanitizer.h) are read at the same moment, so changing any of them
/// later has no effect on this process, exactly as with the CUDA driver. Backends are registered by this explicit function, not by
/// static registrar objects, which a static link would drop (STYLE.md habit 3). A bad value
/// raises tide::Error at that first use, and the next use tries again.
void register_builtin_backends();

/// The backend serving `type`, or nullptr if none (cuda without devices). Starts backends.
/// Raises tide::Error for cuda in a child forked after the cuda runtime started (Note [Fork
/// safety] in fork_safety.h).
Backend* backend(DeviceType type);
/// For destructors and other cleanup: the started backend serving `type`, or nullptr when
/// none is started or (cuda) in a forked child, where the device work to clean up is the
/// parent's. Never throws and starts nothing.
Backend* backend_for_cleanup(DeviceType type) noexcept;
/// The cuda backend; raises tide::Error (starting with "[fn] ") when no cuda device exists or
/// in a forked child (Note [Fork safety]).
Backend& cuda_backend(const char* fn);
/// Number of cuda devices; 0 without a backend. Answers in a forked child too.
int cuda_device_count();
/// Resolves -1 to the current device and checks that `device` exists; raises tide::Error
/// naming the device count otherwise.
int check_cuda_device(int device, const char* fn);
/// Whether cuda kernels are GPU launchers (the real backend) rather than host tasks
/// (simulated GPUs, or no cuda at all); see Note [Kernel stubs].
bool native_kernels();
/// Whether CUDA_LAUNCH_BLOCKING=1 was set at first use.
bool launch_blocking();
/// Why cuda has no device, for error messages (empty when devices exist).
const std::string& cuda_unavailable_reason();

/// Whether the CUDA driver sees a GPU, asked without choosing the backend (0 in builds
/// without nvcc); for callers that pick a default before the first use (`tide demo`).
bool real_cuda_devices_present();
/// Sets the number of simulated devices the first use will create (testing hook).
void set_sim_devices_override(int n);
/// Whether register_builtin_backends has completed.
bool backends_initialized();

}  // namespace tide::runtime
