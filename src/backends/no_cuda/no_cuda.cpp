// Built when nvcc is absent (TIDE_CUDA=OFF or not found): the CUDA backend reports itself as
// not compiled, so callers get a clear error instead of a link failure (see MLX's no_gpu/).

#include "backends/cuda_backend_info.h"

namespace tide::backends {

bool cuda_backend_compiled() { return false; }

runtime::Backend* create_cuda_backend(std::string& why_not) {
  why_not = "this build has no CUDA backend and TIDE_SIM_DEVICES is not set";
  return nullptr;
}

int real_cuda_device_count() { return 0; }

std::string load_cublas() { return ""; }

bool cublas_loaded() { return false; }

void register_cuda_kernels() {}

}  // namespace tide::backends
