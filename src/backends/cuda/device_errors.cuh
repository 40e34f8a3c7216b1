#pragma once
// Device side of Note [Device error records]: reporting a bad index from a kernel.

#include <cuda_runtime.h>

#include "backends/cuda/error_record.h"
#include "kernels/index_error.h"

namespace tide::backends::cuda {

/// Claims the record for `mine`: true when this launch owns it (now or already), false when
/// another launch's error is pending or this launch's error was already taken.
__device__ inline bool claim_error_record(DeviceErrorRecord* r, uint64_t mine) {
  auto* token = reinterpret_cast<unsigned long long*>(&r->token);
  unsigned long long current = atomicAdd(token, 0ull);
  while (true) {
    if (current == mine) return true;
    if (current == (mine | kTakenBit)) return false;  // already reported
    if (!token_is_empty(current)) return false;       // another launch's error is pending
    const unsigned long long prev = atomicCAS(token, current, static_cast<unsigned long long>(mine));
    if (prev == current) return true;
    current = prev;
  }
}

/// Records that the thread found `value` at `position`, outside [0, bound). The caller then
/// skips the access. Rare path: atomics and a spin lock are fine here.
__device__ inline void report_index_error(const ErrorSink& sink, kernels::IndexErrorKind kind,
                                          int64_t position, int64_t value, int64_t bound,
                                          int64_t aux) {
  DeviceErrorRecord* r = sink.record;
  if (!claim_error_record(r, sink.token)) {
    // Make sure the host looks (the pending record may be another launch's, not yet flagged).
    atomicExch(sink.host_flag, 1);
    return;
  }
  while (atomicCAS(&r->lock, 0u, 1u) != 0u) {
  }
  __threadfence();
  // The host may have taken the record between the claim and the lock.
  const auto owner = atomicAdd(reinterpret_cast<unsigned long long*>(&r->token), 0ull);
  if (owner == sink.token && position < r->position) {
    r->kind = static_cast<int32_t>(kind);
    r->position = position;
    r->value = value;
    r->bound = bound;
    r->aux = aux;
  }
  __threadfence();
  atomicExch(&r->lock, 0u);
  __threadfence_system();  // the record before the flag, at system scope
  atomicExch(sink.host_flag, 1);
}

}  // namespace tide::backends::cuda
