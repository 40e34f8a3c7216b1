#pragma once
// The stream sanitizer: raises when two streams touch the same memory without ordering.

namespace tide::cuda {

/// Turns the stream sanitizer on for this process from now on (as TIDE_CUDA_SANITIZER=1 at
/// start does; torch.cuda._sanitizer.enable_cuda_sanitizer). Every later launch, copy and
/// host read of pinned memory is checked against what other streams did to the same bytes;
/// an access with no happens-before ordering raises tide::StreamRaceError at the call that
/// enqueues it, naming both ops, their streams, scopes and where each was enqueued
/// (Note [Stream sanitizer] in src/runtime/sanitizer.h). Work enqueued before this call is
/// not known to it. Costs a few microseconds per op while on; nothing but one branch off.
void enable_sanitizer();
/// Turns the sanitizer off and forgets every stream clock and access it recorded.
void disable_sanitizer();
/// Whether the sanitizer checks launches now.
bool sanitizer_enabled();

}  // namespace tide::cuda
