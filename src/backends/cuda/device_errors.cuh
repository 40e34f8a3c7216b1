#pragma once
// Device side of Note [Device error records]: reporting a bad index from a kernel.

#include <cuda_runtime.h>

#include <climits>

#include "backends/cuda/error_record.h"
#include "kernels/index_error.h"

namespace tide::backends::cuda {

/// This lane's index within its warp.
__device__ inline unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

/// Among the lanes that call this together (the active ones), whether this lane holds the
/// smallest position and is the lowest such lane: the only one that goes on to report (Note
/// [Many bad elements]). Positions are >= 0, so their unsigned order is their order.
__device__ inline bool elected_reporter(int64_t position) {
  const unsigned active = __activemask();
  const auto pos = static_cast<unsigned long long>(position);
  const unsigned hi = static_cast<unsigned>(pos >> 32);
  const unsigned lo = static_cast<unsigned>(pos);
  const unsigned min_hi = __reduce_min_sync(active, hi);
  const unsigned min_lo = __reduce_min_sync(active, hi == min_hi ? lo : UINT_MAX);
  const unsigned holders = __ballot_sync(active, hi == min_hi && lo == min_lo);
  return lane_id() == static_cast<unsigned>(__ffs(holders) - 1);
}

/// Records that the thread found `value` at `position`, outside [0, bound). The caller then
/// skips the access. Rare path, but it may be taken by every thread of a big launch (Note
/// [Many bad elements]): one lane per warp goes on, and it takes the lock only when its
/// report can change the record.
__device__ inline void report_index_error(const ErrorSink& sink, kernels::IndexErrorKind kind,
                                          int64_t position, int64_t value, int64_t bound,
                                          int64_t aux) {
  if (!elected_reporter(position)) return;
  DeviceErrorRecord* r = sink.record;
  const auto* token_word = reinterpret_cast<volatile unsigned long long*>(&r->token);
  const auto* position_word = reinterpret_cast<volatile long long*>(&r->position);
  const uint64_t seen_token = *token_word;
  __threadfence();
  if (report_is_redundant(seen_token, *position_word, sink.token, position)) return;

  // Claim and fill in one critical section: a take (which holds the same lock) never sees a
  // claimed but unfilled record.
  while (atomicCAS(&r->lock, 0u, 1u) != 0u) {
  }
  __threadfence();
  const ReportOutcome outcome = report_locked(*r, sink.token, static_cast<int32_t>(kind),
                                              position, value, bound, aux);
  __threadfence();
  atomicExch(&r->lock, 0u);
  if (outcome == ReportOutcome::AlreadyTaken || outcome == ReportOutcome::EarlierKept) return;
  // Filled: the record before the flag, at system scope. OtherPending: make sure the host
  // looks (the pending record may be another launch's, not yet flagged).
  __threadfence_system();
  atomicExch(sink.host_flag, 1);
}

}  // namespace tide::backends::cuda
