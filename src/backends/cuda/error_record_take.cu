#include "backends/cuda/error_record_take.h"

#include "backends/cuda/cuda_check.h"

namespace tide::backends::cuda {
namespace {

__global__ void take_error_record(DeviceErrorRecord* r, DeviceErrorRecord* out) {
  while (atomicCAS(&r->lock, 0u, 1u) != 0u) {
  }
  __threadfence();
  auto* token = reinterpret_cast<unsigned long long*>(&r->token);
  const unsigned long long taken = atomicAdd(token, 0ull);
  out->token = taken;
  out->lock = 0;
  out->kind = r->kind;
  out->position = r->position;
  out->value = r->value;
  out->bound = r->bound;
  out->aux = r->aux;
  r->kind = 0;
  r->position = INT64_MAX;
  r->value = 0;
  r->bound = 0;
  r->aux = 0;
  if (!token_is_empty(taken)) atomicExch(token, taken | kTakenBit);
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
