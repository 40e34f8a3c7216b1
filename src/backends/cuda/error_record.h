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
/// Ownership: the first launch to claim the record (CAS of `token` from empty to its
/// launch_token) owns it until the host takes it; errors of other launches meanwhile are
/// dropped, as the error channel keeps only the first failure. Threads of the owning launch
/// compete under the spin lock (Volta+ schedules threads independently, so spinning cannot
/// deadlock a warp) and the smallest position wins, so the report does not depend on thread
/// timing and matches the cpu's (unless a synchronization on another stream takes the record
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
