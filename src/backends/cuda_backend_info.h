#pragma once
// What the CUDA backend directory contributed to this build (no CUDA headers here).

#include <string>

namespace tide::runtime {
class Backend;
}

namespace tide::backends {

/// Whether src/backends/cuda was compiled by nvcc into this library.
bool cuda_backend_compiled();

/// The real CUDA backend when the driver finds at least one device (after
/// CUDA_VISIBLE_DEVICES), else nullptr with `why_not` saying why (no driver, no device).
/// Always nullptr in builds without nvcc. Called once, by the registry.
runtime::Backend* create_cuda_backend(std::string& why_not);
/// How many GPUs the CUDA driver sees (after CUDA_VISIBLE_DEVICES), without creating a
/// backend or a context; 0 without a driver, without a GPU, or in builds without nvcc.
int real_cuda_device_count();
/// Loads cuBLAS if no GPU product has yet (Note [cuBLAS loaded at first use] in
/// backends/cuda/cublas_library.h) and says where it was found; throws tide::Error when it
/// cannot be loaded. "" in builds without nvcc.
std::string load_cublas();
/// Whether this process has loaded cuBLAS (always false in builds without nvcc).
bool cublas_loaded();
/// Fills the `cuda` side of every kernel stub (Note [Kernel stubs]); no-op without nvcc.
void register_cuda_kernels();

}  // namespace tide::backends
