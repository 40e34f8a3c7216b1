#include "backends/cuda/cuda_check.h"

#include <cstdio>

namespace tide::backends::cuda {
namespace {

std::string describe(cudaError_t error, const char* call, const char* file, int line) {
  return detail::concat("[", call, "] CUDA error ", cudaGetErrorName(error), ": ",
                        cudaGetErrorString(error), " (", file, ":", line, ")");
}

}  // namespace

void throw_cuda_error(cudaError_t error, const char* call, const char* file, int line) {
  (void)cudaGetLastError();  // clear a non-sticky error so later calls do not report it
  if (error == cudaErrorMemoryAllocation) {
    throw OutOfMemoryError(describe(error, call, file, line) +
                           "; the GPU has no memory left for this request. Free tensors, call "
                           "cuda::empty_cache(), or use smaller batches.");
  }
  throw Error(describe(error, call, file, line) +
              (error == cudaErrorNoDevice || error == cudaErrorInsufficientDriver
                   ? "; check the NVIDIA driver and CUDA_VISIBLE_DEVICES"
                   : ""));
}

void warn_cuda_error(cudaError_t error, const char* call, const char* file, int line) noexcept {
  (void)cudaGetLastError();
  std::fprintf(stderr, "tide: %s\n", describe(error, call, file, line).c_str());
}

}  // namespace tide::backends::cuda
