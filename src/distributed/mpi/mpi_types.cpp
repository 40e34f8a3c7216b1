#include "distributed/mpi/mpi_types.h"

#include <algorithm>
#include <cstdint>

#include "tide/error.h"
#include "tide/half.h"

namespace tide::distributed::detail {
namespace {

enum Which { kSum = 0, kMax = 1, kMin = 2 };

template <class H, Which W>
void reduce_16bit(void* in, void* inout, int* len, MPI_Datatype* /*type*/) {
  const H* a = static_cast<const H*>(in);
  H* b = static_cast<H*>(inout);
  for (int i = 0; i < *len; ++i) {
    float x = static_cast<float>(a[i]);
    float y = static_cast<float>(b[i]);
    float r = W == kSum ? x + y : W == kMax ? std::max(x, y) : std::min(x, y);
    b[i] = H(r);
  }
}

// NCCL's scalar: 1/n in double, rounded to float, then to the 16-bit type. The product of
// two 16-bit values is exact in float, so rounding it once gives the 16-bit product NCCL's
// __hmul computes.
template <class H>
void prescale_16bit(H* data, size_t count, int world_size) {
  const float scale = static_cast<float>(H(static_cast<float>(1.0 / world_size)));
  for (size_t i = 0; i < count; ++i) data[i] = H(static_cast<float>(data[i]) * scale);
}

template <class T>
void prescale(T* data, size_t count, T scale) {
  for (size_t i = 0; i < count; ++i) data[i] *= scale;
}

// C++'s integer division truncates toward zero: NCCL's FuncSumPostDiv (the magnitude
// divided, the sign kept) gives the same quotient.
template <class T>
void postdivide(T* data, size_t count, int world_size) {
  const T n = static_cast<T>(world_size);
  for (size_t i = 0; i < count; ++i) data[i] = static_cast<T>(data[i] / n);
}

}  // namespace

MpiReductions::MpiReductions() {
  MPI_Op_create(&reduce_16bit<Half, kSum>, 1, &half_[kSum]);
  MPI_Op_create(&reduce_16bit<Half, kMax>, 1, &half_[kMax]);
  MPI_Op_create(&reduce_16bit<Half, kMin>, 1, &half_[kMin]);
  MPI_Op_create(&reduce_16bit<BFloat16, kSum>, 1, &bfloat_[kSum]);
  MPI_Op_create(&reduce_16bit<BFloat16, kMax>, 1, &bfloat_[kMax]);
  MPI_Op_create(&reduce_16bit<BFloat16, kMin>, 1, &bfloat_[kMin]);
}

void MpiReductions::free() {
  for (MPI_Op& op : half_) MPI_Op_free(&op);
  for (MPI_Op& op : bfloat_) MPI_Op_free(&op);
}

MPI_Datatype MpiReductions::datatype(Dtype dtype) const {
  switch (dtype) {
    case Dtype::Bool: return MPI_C_BOOL;
    case Dtype::UInt8: return MPI_UINT8_T;
    case Dtype::Int32: return MPI_INT32_T;
    case Dtype::Int64: return MPI_INT64_T;
    case Dtype::Float16:
    case Dtype::BFloat16: return MPI_UINT16_T;
    case Dtype::Float32: return MPI_FLOAT;
    case Dtype::Float64: return MPI_DOUBLE;
  }
  TIDE_INTERNAL_ASSERT(false, "unknown dtype");
}

MPI_Op MpiReductions::op(ReduceOp op, Dtype dtype) const {
  Which which = op == ReduceOp::MAX ? kMax : op == ReduceOp::MIN ? kMin : kSum;  // AVG: SUM
  if (dtype == Dtype::Bool) return which == kMin ? MPI_LAND : MPI_LOR;
  if (dtype == Dtype::Float16) return half_[which];
  if (dtype == Dtype::BFloat16) return bfloat_[which];
  return which == kMax ? MPI_MAX : which == kMin ? MPI_MIN : MPI_SUM;
}

void avg_prescale(void* data, size_t count, Dtype dtype, int world_size) {
  switch (dtype) {
    case Dtype::Float16: return prescale_16bit(static_cast<Half*>(data), count, world_size);
    case Dtype::BFloat16: return prescale_16bit(static_cast<BFloat16*>(data), count, world_size);
    case Dtype::Float32:
      return prescale(static_cast<float*>(data), count, static_cast<float>(1.0 / world_size));
    case Dtype::Float64: return prescale(static_cast<double*>(data), count, 1.0 / world_size);
    default: return;  // integers divide after the sum
  }
}

void avg_postdivide(void* data, size_t count, Dtype dtype, int world_size) {
  switch (dtype) {
    case Dtype::UInt8: return postdivide(static_cast<uint8_t*>(data), count, world_size);
    case Dtype::Int32: return postdivide(static_cast<int32_t*>(data), count, world_size);
    case Dtype::Int64: return postdivide(static_cast<int64_t*>(data), count, world_size);
    case Dtype::Bool:
      TIDE_INTERNAL_ASSERT(false, "AVG reached the backend with a bool tensor");
      return;
    default: return;  // floating dtypes were scaled before the sum
  }
}

}  // namespace tide::distributed::detail
