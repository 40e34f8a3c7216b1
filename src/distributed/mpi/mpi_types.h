#pragma once
// How tide's dtypes and reductions map onto MPI's (the mpi backend only: includes mpi.h).

#include <mpi.h>

#include <cstddef>

#include "tide/distributed/process_group.h"
#include "tide/dtype.h"

namespace tide::distributed::detail {

/// Note [MPI reductions]: MPI has no 16-bit floats, so float16 and bfloat16 travel as
/// MPI_UINT16_T with user-defined commutative operations that widen to float, reduce and
/// round back (what NCCL does on the wire too). bool reduces with logical or (SUM, MAX) and
/// logical and (MIN), as torch's backends do. AVG is SUM followed by a division by the world
/// size on the result (MPI has no average); the front end admits it for floating dtypes only.
class MpiReductions {
 public:
  /// Creates the user-defined operations; call after MPI_Init, on the communication thread.
  MpiReductions();
  /// Frees them; call before MPI_Finalize.
  void free();

  MPI_Datatype datatype(Dtype dtype) const;
  MPI_Op op(ReduceOp op, Dtype dtype) const;

 private:
  MPI_Op half_[3] = {MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL};      // sum, max, min
  MPI_Op bfloat_[3] = {MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL};
};

/// Divides `count` elements at `data` by `divisor` in place (the second half of AVG).
void divide_in_place(void* data, size_t count, Dtype dtype, int divisor);

}  // namespace tide::distributed::detail
