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
/// logical and (MIN), as torch's backends do. MPI has no average: AVG is a SUM with NCCL's
/// order of operations around it (Note [AVG as NCCL computes it]).
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

/// Note [AVG as NCCL computes it]: NCCL's ncclAvg is a premultiplied sum on floating dtypes —
/// each rank's input is multiplied by 1/world_size (rounded to the dtype) before the values
/// are summed — and on integers a sum divided by world_size afterwards, truncating toward
/// zero (the sum wraps as the integer type does). The mpi backend does the same, so that both
/// backends give the same bits: float16 inputs whose sum would overflow (two ranks of 40000)
/// average to a finite value, and rounding happens where NCCL's does. bool is rejected by the
/// front end, as torch does.
/// Before the SUM: multiplies floating elements in place by 1/world_size; integers untouched.
void avg_prescale(void* data, size_t count, Dtype dtype, int world_size);
/// After the SUM: divides integer elements in place by world_size; floating ones untouched.
void avg_postdivide(void* data, size_t count, Dtype dtype, int world_size);

}  // namespace tide::distributed::detail
