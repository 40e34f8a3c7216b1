#pragma once
// CollectiveHeader: what the ranks compare about each collective before trusting its result
// (Note [Arrival round] in mpi/mpi_backend.cpp, Note [Asynchronous arrival check] in
// nccl_backend.cpp).

#include <cstdint>
#include <string>

#include "distributed/process_group_backend.h"
#include "tide/dtype.h"

namespace tide::distributed::detail {

/// Plain int64 fields, so that it travels as bytes or as an int64 tensor of kFields.
struct CollectiveHeader {
  static constexpr int kFields = 6;

  int64_t seq = 0;
  int64_t kind = 0;
  int64_t dtype = 0;
  int64_t numel = 0;
  int64_t root = -1;  // broadcast's source
  int64_t op = -1;    // the ReduceOp, for reductions

  bool operator==(const CollectiveHeader&) const = default;
};
static_assert(sizeof(CollectiveHeader) == CollectiveHeader::kFields * sizeof(int64_t));

/// "all_reduce(SUM) of 4 float32 elements", "broadcast(src=0) of ...", "barrier".
std::string describe(const CollectiveHeader& h);

}  // namespace tide::distributed::detail
