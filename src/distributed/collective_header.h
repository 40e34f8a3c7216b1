#pragma once
// CollectiveHeader: what one rank tells every peer about the collective it is about to run.

#include <cstdint>
#include <string>

#include "distributed/process_group_backend.h"

namespace tide::distributed::detail {

/// Note [Arrival round] in mpi/mpi_backend.cpp: every rank sends its header to every peer
/// before the data moves; equal headers on every rank mean every rank called the same
/// collective, as the same call of its sequence, on tensors of the same dtype and size.
/// Plain int64 fields (no padding): headers travel and compare as bytes.
struct CollectiveHeader {
  int64_t seq = 0;     // 1 for the group's first collective
  int64_t kind = 0;    // CollectiveKind
  int64_t dtype = 0;   // Dtype (unused by the barrier)
  int64_t numel = 0;
  int64_t root = -1;   // broadcast's source
  int64_t op = -1;     // the ReduceOp, for reductions

  bool operator==(const CollectiveHeader&) const = default;
};

/// The header of `kind` on `t` (sequence number left 0: the group assigns it when it issues
/// the collective); op and root as in CollectiveHeader (-1: none).
CollectiveHeader make_header(CollectiveKind kind, const Tensor& t, int64_t op = -1,
                             int64_t root = -1);
/// "all_reduce(SUM) of 4 float32 elements", "broadcast(src=0) of 2 int64 elements", "barrier".
std::string describe(const CollectiveHeader& h);
/// The error every rank raises when a peer's header differs from its own: names both calls.
std::string mismatch_message(const char* collective, int rank, const CollectiveHeader& mine,
                             int peer, const CollectiveHeader& theirs);

}  // namespace tide::distributed::detail
