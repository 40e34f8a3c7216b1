#include "backends/cuda/cudnn_handle.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda/launch_context.h"
#include "tide/error.h"

namespace tide::backends::cuda {

void throw_cudnn_error(cudnnStatus_t status, const char* call, const char* file, int line) {
  std::string message = detail::concat("cuDNN error ", cudnnGetErrorString(status), " in ", call,
                                       " at ", file, ":", line);
  if (status == CUDNN_STATUS_ALLOC_FAILED) throw OutOfMemoryError(message);
  throw Error(message);
}

CudnnHandle CudnnHandle::create() {
  cudnnHandle_t handle = nullptr;
  TIDE_CUDNN_CHECK(cudnnCreate(&handle));
  return CudnnHandle(handle);
}

CudnnHandle::~CudnnHandle() {
  if (handle_ == nullptr) return;
  const cudnnStatus_t status = cudnnDestroy(handle_);
  // The non-throwing form (STYLE.md habit 6); at exit the context may already be gone.
  if (status != CUDNN_STATUS_SUCCESS) {
    std::fprintf(stderr, "tide: warning: cudnnDestroy failed: %s\n", cudnnGetErrorString(status));
  }
}

CudnnHandle& CudnnHandle::operator=(CudnnHandle&& other) noexcept {
  if (this != &other) {
    CudnnHandle old(std::exchange(handle_, other.handle_));
    other.handle_ = nullptr;
  }
  return *this;
}

cudnnHandle_t current_cudnn_handle() {
  thread_local std::vector<CudnnHandle> handles;
  const LaunchContext& launch = current_launch();
  TIDE_INTERNAL_ASSERT(launch.device >= 0, "current_cudnn_handle() outside a GPU launcher");
  const auto device = static_cast<size_t>(launch.device);
  if (handles.size() <= device) handles.resize(device + 1);
  if (!handles[device]) handles[device] = CudnnHandle::create();
  const cudnnHandle_t handle = handles[device].get();
  TIDE_CUDNN_CHECK(cudnnSetStream(handle, launch.stream));
  return handle;
}

}  // namespace tide::backends::cuda
