#pragma once
// The test hook a process group calls inside its issue critical section.

#include <cstdint>
#include <functional>

namespace tide::distributed::detail {

/// Tests only: `hook(seq)` runs on the issuing thread inside a group's critical section
/// (Note [Issuing a collective] in mpi/mpi_backend.cpp), after the collective got its
/// sequence number and before it is queued, so a test can hold one thread there while
/// another issues. An empty function removes it. Not for use while collectives are issued.
void set_issue_hook_for_testing(std::function<void(int64_t seq)> hook);
/// Runs the hook if one is set: one relaxed atomic load otherwise.
void run_issue_hook(int64_t seq);

}  // namespace tide::distributed::detail
