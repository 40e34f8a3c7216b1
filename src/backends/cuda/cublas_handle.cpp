#include "backends/cuda/cublas_handle.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda/cublas_library.h"
#include "backends/cuda/launch_context.h"
#include "tide/error.h"

namespace tide::backends::cuda {

void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  // A status came from a call into the loaded library, so cublas() returns at once.
  const CublasLibrary& lib = cublas();
  std::string message = detail::concat("cuBLAS error ", lib.status_name(status), " (",
                                       lib.status_string(status), ") in ", call, " at ", file,
                                       ":", line);
  if (status == CUBLAS_STATUS_ALLOC_FAILED) throw OutOfMemoryError(message);
  throw Error(message);
}

CublasHandle CublasHandle::create() {
  cublasHandle_t handle = nullptr;
  TIDE_CUBLAS_CHECK(cublas().create(&handle));
  return CublasHandle(handle);
}

CublasHandle::~CublasHandle() {
  if (handle_ == nullptr) return;
  const CublasLibrary& lib = cublas();  // loaded: it made the handle
  const cublasStatus_t status = lib.destroy(handle_);
  // The non-throwing form (STYLE.md habit 6). At process exit the CUDA context may already be
  // torn down; a failed destroy then only means the handle died with it.
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "tide: warning: cublasDestroy failed: %s (%s)\n",
                 lib.status_name(status), lib.status_string(status));
  }
}

CublasHandle& CublasHandle::operator=(CublasHandle&& other) noexcept {
  if (this != &other) {
    CublasHandle old(std::exchange(handle_, other.handle_));
    other.handle_ = nullptr;
  }
  return *this;
}

cublasHandle_t current_cublas_handle() {
  // Note [cuBLAS handles]. Indexed by device; grows to the highest device this thread used.
  thread_local std::vector<CublasHandle> handles;
  const LaunchContext& launch = current_launch();
  TIDE_INTERNAL_ASSERT(launch.device >= 0, "current_cublas_handle() outside a GPU launcher");
  const auto device = static_cast<size_t>(launch.device);
  if (handles.size() <= device) handles.resize(device + 1);
  // The launch made its device current on this thread, so the new handle belongs to it.
  if (!handles[device]) handles[device] = CublasHandle::create();
  const cublasHandle_t handle = handles[device].get();
  TIDE_CUBLAS_CHECK(cublas().set_stream(handle, launch.stream));
  return handle;
}

}  // namespace tide::backends::cuda
