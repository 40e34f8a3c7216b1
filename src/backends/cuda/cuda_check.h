#pragma once
// TIDE_CUDA_CHECK: the one way CUDA runtime calls are made (STYLE.md habit 6).

#include <cuda_runtime.h>

#include "tide/error.h"

namespace tide::backends::cuda {

/// Throws for a failed CUDA call: OutOfMemoryError for cudaErrorMemoryAllocation, tide::Error
/// otherwise, naming the call, CUDA's error name and text and where it was made. The error is
/// cleared first (cudaGetLastError) so a non-sticky failure does not resurface in a later,
/// unrelated call.
[[noreturn]] void throw_cuda_error(cudaError_t error, const char* call, const char* file, int line);
/// The non-throwing form for destructors and noexcept paths: prints the same text to stderr.
void warn_cuda_error(cudaError_t error, const char* call, const char* file, int line) noexcept;

}  // namespace tide::backends::cuda

#define TIDE_CUDA_CHECK(expr)                                                              \
  do {                                                                                     \
    const cudaError_t tide_cuda_status_ = (expr);                                          \
    if (TIDE_UNLIKELY(tide_cuda_status_ != cudaSuccess)) {                                 \
      ::tide::backends::cuda::throw_cuda_error(tide_cuda_status_, #expr, __FILE__, __LINE__); \
    }                                                                                      \
  } while (false)

#define TIDE_CUDA_CHECK_NOTHROW(expr)                                                     \
  do {                                                                                     \
    const cudaError_t tide_cuda_status_ = (expr);                                          \
    if (TIDE_UNLIKELY(tide_cuda_status_ != cudaSuccess)) {                                 \
      ::tide::backends::cuda::warn_cuda_error(tide_cuda_status_, #expr, __FILE__, __LINE__); \
    }                                                                                      \
  } while (false)
