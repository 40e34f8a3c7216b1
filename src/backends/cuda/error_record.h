#pragma once
// Device-side error records: how a GPU kernel reports bad input without faulting.
// Plain C++ (no CUDA headers) so the host side is unit-tested without a GPU.

#include <cstdint>
#include <climits>
#include <optional>
#include <string>

#include "kernels/index_error.h"
#include "tide/macros.h"

namespace tide::backends::cuda {

/// Note [Device error records]: a kernel that meets bad input (an index out of range) must
/// not touch the bad address — an illegal access is sticky and loses the CUDA context — so it
/// skips the access and writes an error record into its device's one record (device memory,
/// allocated at the device's first use), then raises a flag in mapped pinned host memory.
/// Synchronizing calls read the flag (one host load; nothing else happens unless it is set),
/// clear it, and take the record with a one-thread kernel on a private stream that holds the
/// record's lock while it copies the record to pinned host memory and empties it; the host
/// waits for that kernel, decodes the copy and reports a KernelFailure through the error
/// channel with the op looked up in the stream's OpRing by the record's sequence number —
/// exactly the path simulated GPUs take. Work after the bad launch runs normally.
///
/// Ownership: the first launch to claim the record (its token written over an empty one)
/// owns it until the host takes it; errors of other launches meanwhile are dropped, as the
/// error channel keeps only the first failure. Claiming and filling are one critical section
/// under the record's spin lock (report_locked), which the take also holds (take_locked), so
/// a take never sees a claimed but unfilled record. Threads of the owning launch compete
/// under the lock (Volta+ schedules threads independently, so spinning cannot deadlock a
/// warp) and the smallest position wins, so the report does not depend on thread timing and
/// matches the cpu's (unless a synchronization on another stream takes the record
/// while the launch is still running: its later threads then see their launch as reported,
/// and the message may name a later bad position than the cpu's). Taking leaves a tombstone (the taken token with kTakenBit)
/// rather than 0, so late threads of the same launch recognise their launch as reported and
/// do not report it twice; any other launch may claim a tombstone as if it were empty. The
/// flag is cleared before the record is taken, so an error recorded after the take raises the
/// flag again and is collected at a later synchronization.
struct DeviceErrorRecord {
  uint64_t token;     // launch_token of the owning launch; 0 or a tombstone: empty
  uint32_t lock;      // spin lock among the owning launch's threads
  int32_t kind;       // kernels::IndexErrorKind
  int64_t position;   // smallest bad position seen
  int64_t value;      // the index found there
  int64_t bound;      // valid indices are [0, bound)
  int64_t aux;        // the kernel's context for the message (dim, ignore_index)
};

/// What a kernel needs to report an error: the record, the host flag (the device's view of
/// the mapped host memory) and its launch's token.
struct ErrorSink {
  DeviceErrorRecord* record;
  int32_t* host_flag;
  uint64_t token;
};

/// Runtime stream ids fit in 23 bits and sequence numbers in 40 (10^12 launches per stream);
/// the token is never 0 because sequence numbers start at 1.
inline constexpr int kTokenSeqBits = 40;
TIDE_HOST_DEVICE constexpr uint64_t launch_token(uint64_t stream_id, uint64_t seq) {
  return (stream_id << kTokenSeqBits) | (seq & ((uint64_t{1} << kTokenSeqBits) - 1));
}
/// Marks a taken record's token (bit 63: stream ids use bits 40..62).
inline constexpr uint64_t kTakenBit = uint64_t{1} << 63;
TIDE_HOST_DEVICE constexpr bool token_is_empty(uint64_t token) {
  return token == 0 || (token & kTakenBit) != 0;
}
TIDE_HOST_DEVICE constexpr uint64_t token_stream_id(uint64_t token) {
  return (token & ~kTakenBit) >> kTokenSeqBits;
}
TIDE_HOST_DEVICE constexpr uint64_t token_seq(uint64_t token) {
  return token & ((uint64_t{1} << kTokenSeqBits) - 1);
}

/// An empty record (the initial state).
TIDE_HOST_DEVICE inline DeviceErrorRecord empty_error_record() {
  return DeviceErrorRecord{0, 0, 0, INT64_MAX, 0, 0, 0};
}

/// What a reporting thread did to the record (report_locked).
enum class ReportOutcome {
  Filled,          // the record now holds this position (claimed now or before)
  EarlierKept,     // the record already holds an earlier position of the same launch
  AlreadyTaken,    // the host took this launch's error: not reported twice
  OtherPending,    // another launch's error waits for the host: this one is dropped
};

/// The reporting thread's step, under the record's lock: claim (when the record is empty or
/// a tombstone of another launch) and fill in one go. Host-callable so the interleavings with
/// take_locked are unit-tested without a GPU.
TIDE_HOST_DEVICE inline ReportOutcome report_locked(DeviceErrorRecord& r, uint64_t mine,
                                                    int32_t kind, int64_t position,
                                                    int64_t value, int64_t bound, int64_t aux) {
  if (r.token == (mine | kTakenBit)) return ReportOutcome::AlreadyTaken;
  if (r.token != mine) {
    if (!token_is_empty(r.token)) return ReportOutcome::OtherPending;
    r.token = mine;
    r.position = INT64_MAX;
  }
  if (position >= r.position) return ReportOutcome::EarlierKept;
  r.kind = kind;
  r.position = position;
  r.value = value;
  r.bound = bound;
  r.aux = aux;
  return ReportOutcome::Filled;
}

/// The take's step, under the record's lock: a copy of the record for the host, and the
/// record emptied, leaving a tombstone of a taken launch. The lock field is left alone.
TIDE_HOST_DEVICE inline DeviceErrorRecord take_locked(DeviceErrorRecord& r) {
  DeviceErrorRecord out = r;
  out.lock = 0;
  if (!token_is_empty(r.token)) r.token |= kTakenBit;
  r.kind = 0;
  r.position = INT64_MAX;
  r.value = 0;
  r.bound = 0;
  r.aux = 0;
  return out;
}

/// Note [Many bad elements]: a kernel over 10^7 bad targets must not push every thread
/// through the lock. Lanes of a warp that report together elect the one with the smallest
/// position (device_errors.cuh), and a thread skips the lock altogether when a lock-free read
/// of the record shows its launch already taken, or already holding an earlier position:
/// its report could not change the record. Positions only decrease while a launch owns the
/// record, so a stale read can only send a thread to the lock needlessly, never skip a
/// report that matters.
TIDE_HOST_DEVICE constexpr bool report_is_redundant(uint64_t token, int64_t recorded_position,
                                                    uint64_t mine, int64_t position) {
  return token == (mine | kTakenBit) || (token == mine && recorded_position <= position);
}

/// A decoded record: which launch failed and the message its KernelError carries.
struct DecodedError {
  uint64_t stream_id;
  uint64_t seq;
  std::string message;
};
/// Decodes a record copied back from the device; nullopt when it is empty. Inline, so the
/// decoding is unit-tested in builds without nvcc too.
inline std::optional<DecodedError> decode_error_record(const DeviceErrorRecord& record) {
  if (token_is_empty(record.token)) return std::nullopt;
  const kernels::IndexError error{record.position, record.value, record.bound};
  return DecodedError{token_stream_id(record.token), token_seq(record.token),
                      kernels::index_error_message(
                          static_cast<kernels::IndexErrorKind>(record.kind), error, record.aux)};
}

}  // namespace tide::backends::cuda
