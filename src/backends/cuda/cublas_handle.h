#pragma once
// cuBLAS handles: a move-only owner, one handle per (device, host thread), and
// TIDE_CUBLAS_CHECK, the one way cuBLAS calls are made (STYLE.md habits 6 and 7).

#include <cublas_v2.h>

#include "tide/macros.h"

namespace tide::backends::cuda {

/// Throws for a failed cuBLAS call: OutOfMemoryError for CUBLAS_STATUS_ALLOC_FAILED,
/// tide::Error otherwise, naming the call as written (through the loaded library's table:
/// `lib.gemm_ex(...)` is cublasGemmEx), cuBLAS's status name and text and where it was made.
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call, const char* file,
                                     int line);

/// Owns one cublasHandle_t, created on the device current when it was made.
class CublasHandle {
 public:
  CublasHandle() = default;
  /// Creates a handle on the current device (cublasCreate).
  static CublasHandle create();
  ~CublasHandle();
  CublasHandle(CublasHandle&& other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }
  CublasHandle& operator=(CublasHandle&& other) noexcept;
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;

  cublasHandle_t get() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }

 private:
  explicit CublasHandle(cublasHandle_t handle) : handle_(handle) {}
  cublasHandle_t handle_ = nullptr;
};

/// Note [cuBLAS handles]: a handle holds per-call state (its stream, its workspace), so two
/// threads must not share one; torch keeps one per (device, thread) too. Each host thread
/// that launches a product gets its own handle for the device, created lazily on first use
/// (cublasCreate is slow and allocates, so never on every call) and destroyed when the thread
/// ends. Every call binds the handle to the current launch's stream first (cublasSetStream is
/// cheap), so products are ordered on that stream like any other kernel; cuBLAS uses its
/// default workspace, which cublasSetStream rebinds for that stream. Pointer mode stays
/// CUBLAS_POINTER_MODE_HOST: alpha and beta are host values read at the call.
///
/// The handle for the current launch's device, bound to the current launch's stream
/// (backends/cuda/launch_context.h). Only valid inside a GPU launcher.
cublasHandle_t current_cublas_handle();

}  // namespace tide::backends::cuda

#define TIDE_CUBLAS_CHECK(expr)                                                               \
  do {                                                                                        \
    const cublasStatus_t tide_cublas_status_ = (expr);                                        \
    if (TIDE_UNLIKELY(tide_cublas_status_ != CUBLAS_STATUS_SUCCESS)) {                        \
      ::tide::backends::cuda::throw_cublas_error(tide_cublas_status_, #expr, __FILE__, __LINE__); \
    }                                                                                         \
  } while (false)
