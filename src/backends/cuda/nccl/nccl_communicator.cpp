// NcclCommunicator on the CUDA toolkit's NCCL (Note in backends/nccl_communicator.h).

#include "backends/nccl_communicator.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstring>

#include "backends/cuda/cuda_check.h"
#include "tide/error.h"

namespace tide::backends {
namespace {

void check_nccl(ncclResult_t result, const char* call) {
  if (result == ncclSuccess) return;
  throw Error(detail::concat("[nccl] ", call, " failed: ", ncclGetErrorString(result), " (",
                             static_cast<int>(result), "); ", ncclGetLastError(nullptr)));
}

ncclDataType_t nccl_type(Dtype dtype) {
  switch (dtype) {
    case Dtype::Bool:
    case Dtype::UInt8: return ncclUint8;
    case Dtype::Int32: return ncclInt32;
    case Dtype::Int64: return ncclInt64;
    case Dtype::Float16: return ncclFloat16;
    case Dtype::BFloat16: return ncclBfloat16;
    case Dtype::Float32: return ncclFloat32;
    case Dtype::Float64: return ncclFloat64;
  }
  TIDE_INTERNAL_ASSERT(false, "unknown dtype");
}

ncclRedOp_t nccl_op(NcclOp op, Dtype dtype) {
  if (dtype == Dtype::Bool) return op == NcclOp::Min ? ncclMin : ncclMax;
  switch (op) {
    case NcclOp::Sum: return ncclSum;
    case NcclOp::Max: return ncclMax;
    case NcclOp::Min: return ncclMin;
    case NcclOp::Avg: return ncclAvg;
  }
  TIDE_INTERNAL_ASSERT(false, "unknown op");
}

ncclComm_t as_comm(void* comm) { return static_cast<ncclComm_t>(comm); }
cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

}  // namespace

bool nccl_compiled() { return true; }

NcclUniqueId nccl_unique_id() {
  ncclUniqueId id;
  check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  NcclUniqueId out;
  static_assert(sizeof(id) == sizeof(out.bytes));
  std::memcpy(out.bytes.data(), &id, sizeof(id));
  return out;
}

NcclCommunicator::NcclCommunicator(int device, int rank, int world_size, const NcclUniqueId& id)
    : device_(device) {
  int previous = 0;
  TIDE_CUDA_CHECK(cudaGetDevice(&previous));
  TIDE_CUDA_CHECK(cudaSetDevice(device));
  ncclUniqueId nccl_id;
  std::memcpy(&nccl_id, id.bytes.data(), sizeof(nccl_id));
  ncclComm_t comm = nullptr;
  ncclResult_t result = ncclCommInitRank(&comm, world_size, nccl_id, rank);
  TIDE_CUDA_CHECK(cudaSetDevice(previous));
  check_nccl(result, "ncclCommInitRank");
  comm_ = comm;
}

NcclCommunicator::~NcclCommunicator() {
  if (comm_ != nullptr) ncclCommDestroy(as_comm(comm_));
}

void NcclCommunicator::abort() noexcept {
  if (comm_ != nullptr) ncclCommAbort(as_comm(comm_));
  comm_ = nullptr;
}

void NcclCommunicator::all_reduce(void* data, size_t count, Dtype dtype, NcclOp op,
                                  void* stream) {
  check_nccl(ncclAllReduce(data, data, count, nccl_type(dtype), nccl_op(op, dtype),
                           as_comm(comm_), as_stream(stream)),
             "ncclAllReduce");
}

void NcclCommunicator::broadcast(void* data, size_t count, Dtype dtype, int root, void* stream) {
  check_nccl(ncclBroadcast(data, data, count, nccl_type(dtype), root, as_comm(comm_),
                           as_stream(stream)),
             "ncclBroadcast");
}

void NcclCommunicator::all_gather(const void* input, void* output, size_t count, Dtype dtype,
                                  void* stream) {
  check_nccl(ncclAllGather(input, output, count, nccl_type(dtype), as_comm(comm_),
                           as_stream(stream)),
             "ncclAllGather");
}

void NcclCommunicator::reduce_scatter(const void* input, void* output, size_t count,
                                      Dtype dtype, NcclOp op, void* stream) {
  check_nccl(ncclReduceScatter(input, output, count, nccl_type(dtype), nccl_op(op, dtype),
                               as_comm(comm_), as_stream(stream)),
             "ncclReduceScatter");
}

}  // namespace tide::backends
