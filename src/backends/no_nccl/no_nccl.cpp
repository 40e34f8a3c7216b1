// Builds without NCCL (no CUDA toolkit, or one without nccl.h/libnccl): the nccl backend of
// tide::distributed raises a clear error when asked for.

#include "backends/nccl_communicator.h"
#include "tide/error.h"

namespace tide::backends {
namespace {

[[noreturn]] void no_nccl() {
  throw NcclError("[init_process_group] this tide was built without NCCL, so the nccl backend "
                  "is missing; rebuild with the CUDA toolkit's NCCL present, or use backend "
                  "\"mpi\"");
}

}  // namespace

bool nccl_compiled() { return false; }
NcclUniqueId nccl_unique_id() { no_nccl(); }
NcclCommunicator::NcclCommunicator(int, int, int, const NcclUniqueId&, std::chrono::milliseconds)
    : device_(-1), timeout_(0) {
  no_nccl();
}
NcclCommunicator::~NcclCommunicator() = default;
void NcclCommunicator::all_reduce(void*, size_t, Dtype, NcclOp, const tide::cuda::Stream&) {
  no_nccl();
}
void NcclCommunicator::broadcast(void*, size_t, Dtype, int, const tide::cuda::Stream&) {
  no_nccl();
}
void NcclCommunicator::all_gather(const void*, void*, size_t, Dtype, const tide::cuda::Stream&) {
  no_nccl();
}
void NcclCommunicator::reduce_scatter(const void*, void*, size_t, Dtype, NcclOp,
                                      const tide::cuda::Stream&) {
  no_nccl();
}
std::string NcclCommunicator::async_error() noexcept { return ""; }
void NcclCommunicator::abort() noexcept {}

}  // namespace tide::backends
