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

template <class T>
void divide(T* data, size_t count, int divisor) {
  for (size_t i = 0; i < count; ++i) data[i] = T(static_cast<float>(data[i]) / divisor);
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

void divide_in_place(void* data, size_t count, Dtype dtype, int divisor) {
  switch (dtype) {
    case Dtype::Float16: return divide(static_cast<Half*>(data), count, divisor);
    case Dtype::BFloat16: return divide(static_cast<BFloat16*>(data), count, divisor);
    case Dtype::Float32: {
      float* f = static_cast<float*>(data);
      for (size_t i = 0; i < count; ++i) f[i] /= static_cast<float>(divisor);
      return;
    }
    case Dtype::Float64: {
      double* d = static_cast<double*>(data);
      for (size_t i = 0; i < count; ++i) d[i] /= divisor;
      return;
    }
    default: TIDE_INTERNAL_ASSERT(false, "AVG reached the backend with a non-floating dtype");
  }
}

}  // namespace tide::distributed::detail
