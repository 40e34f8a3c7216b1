#pragma once
// cuDNN handles: a move-only owner, one handle per (device, host thread) bound to the current
// launch's stream, and TIDE_CUDNN_CHECK, the one way cuDNN calls are made (STYLE.md habits 6
// and 7). Built only when cuDNN was found (cmake/TideCuda.cmake).

#include <cudnn.h>

#include "tide/macros.h"

namespace tide::backends::cuda {

/// Throws for a failed cuDNN call: OutOfMemoryError for CUDNN_STATUS_ALLOC_FAILED, tide::Error
/// otherwise, naming the call, cuDNN's status text and where it was made.
[[noreturn]] void throw_cudnn_error(cudnnStatus_t status, const char* call, const char* file,
                                    int line);

/// Owns one cudnnHandle_t, created on the device current when it was made.
class CudnnHandle {
 public:
  CudnnHandle() = default;
  static CudnnHandle create();
  ~CudnnHandle();
  CudnnHandle(CudnnHandle&& other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }
  CudnnHandle& operator=(CudnnHandle&& other) noexcept;
  CudnnHandle(const CudnnHandle&) = delete;
  CudnnHandle& operator=(const CudnnHandle&) = delete;

  cudnnHandle_t get() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }

 private:
  explicit CudnnHandle(cudnnHandle_t handle) : handle_(handle) {}
  cudnnHandle_t handle_ = nullptr;
};

/// The handle for the current launch's device, bound to the current launch's stream, as
/// current_cublas_handle (Note [cuBLAS handles] applies unchanged). Only inside a GPU launcher.
cudnnHandle_t current_cudnn_handle();

}  // namespace tide::backends::cuda

#define TIDE_CUDNN_CHECK(expr)                                                                \
  do {                                                                                        \
    const cudnnStatus_t tide_cudnn_status_ = (expr);                                          \
    if (TIDE_UNLIKELY(tide_cudnn_status_ != CUDNN_STATUS_SUCCESS)) {                          \
      ::tide::backends::cuda::throw_cudnn_error(tide_cudnn_status_, #expr, __FILE__, __LINE__); \
    }                                                                                         \
  } while (false)
