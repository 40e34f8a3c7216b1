#include "backends/cuda/error_record_take.h"

#include "backends/cuda/cuda_check.h"

namespace tide::backends::cuda {
namespace {

__global__ void take_error_record(DeviceErrorRecord* r, DeviceErrorRecord* out) {
  while (atomicCAS(&r->lock, 0u, 1u) != 0u) {
  }
  __threadfence();
  *out = take_locked(*r);
  __threadfence_system();
  atomicExch(&r->lock, 0u);
}

__global__ void init_error_record(DeviceErrorRecord* r) { *r = empty_error_record(); }

}  // namespace

void enqueue_take_error_record(DeviceErrorRecord* record, DeviceErrorRecord* out,
                               cudaStream_t stream) {
  take_error_record<<<1, 1, 0, stream>>>(record, out);
  TIDE_CUDA_CHECK(cudaGetLastError());
}

void enqueue_init_error_record(DeviceErrorRecord* record, cudaStream_t stream) {
  init_error_record<<<1, 1, 0, stream>>>(record);
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tide::backends::cuda
