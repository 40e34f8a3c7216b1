// torch.backends.cudnn's switches (tide/backends/cudnn.h): relaxed atomics, read once per
// convolution launch by kernels/cuda/cudnn_conv.cpp.

#include <atomic>

#include "tide/backends/cudnn.h"
#include "tide/detail/build_config.h"

namespace tide::backends::cudnn {
namespace {

std::atomic<bool> benchmark_flag{false};
std::atomic<bool> deterministic_flag{false};
std::atomic<bool> allow_tf32_flag{true};

}  // namespace

bool is_available() { return TIDE_BUILT_WITH_CUDNN == 1; }
int version() { return TIDE_CUDNN_VERSION; }

bool benchmark() { return benchmark_flag.load(std::memory_order_relaxed); }
void set_benchmark(bool on) { benchmark_flag.store(on, std::memory_order_relaxed); }
bool deterministic() { return deterministic_flag.load(std::memory_order_relaxed); }
void set_deterministic(bool on) { deterministic_flag.store(on, std::memory_order_relaxed); }
bool allow_tf32() { return allow_tf32_flag.load(std::memory_order_relaxed); }
void set_allow_tf32(bool on) { allow_tf32_flag.store(on, std::memory_order_relaxed); }

}  // namespace tide::backends::cudnn
