#pragma once
// Device side of Note [Device error records]: reporting a bad index from a kernel.

#include <cuda_runtime.h>

#include "backends/cuda/error_record.h"
#include "kernels/index_error.h"

namespace tide::backends::cuda {

/// Records that the thread found `value` at `position`, outside [0, bound). The caller then
/// skips the access. Rare path: atomics and a spin lock are fine here.
__device__ inline void report_index_error(const ErrorSink& sink, kernels::IndexErrorKind kind,
                                          int64_t position, int64_t value, int64_t bound,
                                          int64_t aux) {
  DeviceErrorRecord* r = sink.record;
  auto* token = reinterpret_cast<unsigned long long*>(&r->token);
  const unsigned long long prev = atomicCAS(token, 0ull, static_cast<unsigned long long>(sink.token));
  if (prev != 0ull && prev != sink.token) return;  // an earlier launch's error is pending
  while (atomicCAS(&r->lock, 0u, 1u) != 0u) {
  }
  __threadfence();
  if (position < r->position) {
    r->kind = static_cast<int32_t>(kind);
    r->position = position;
    r->value = value;
    r->bound = bound;
    r->aux = aux;
  }
  __threadfence();
  atomicExch(&r->lock, 0u);
  *sink.host_flag = 1;  // mapped host memory: a plain store, seen by the host after the sync
  __threadfence_system();
}

}  // namespace tide::backends::cuda
