// The front end of tide::distributed: the process's one group and the checks every backend
// shares (Note [Process group backends]).

#include "tide/distributed/process_group.h"

#include <mutex>
#include <utility>

#include "distributed/launcher_env.h"
#include "distributed/process_group_backend.h"
#include "runtime/registry.h"
#include "tensor/tensor_internal.h"
#include "tide/error.h"

namespace tide::distributed {
namespace {

std::mutex g_mutex;
// Leaked on purpose: a group still initialized at exit is left to its engine's exit handler
// (MPI finalizes on its own thread), not destroyed in an unknown static destruction order.
std::shared_ptr<detail::ProcessGroupBackend>& g_group =
    *new std::shared_ptr<detail::ProcessGroupBackend>();

std::shared_ptr<detail::ProcessGroupBackend> group(const char* fn) {
  std::lock_guard<std::mutex> lock(g_mutex);
  TIDE_CHECK(g_group != nullptr, "[", fn,
             "] expected an initialized process group, found none; call "
             "tide::distributed::init_process_group() first, in a program started by "
             "`mpirun -np N` or `tide launch -n N`");
  return g_group;
}

void check_tensor(const Tensor& t, const char* fn, const char* what) {
  TIDE_CHECK(t.defined(), "[", fn, "] expected a defined tensor as ", what,
             ", found an undefined one");
  TIDE_CHECK(t.is_contiguous(), "[", fn, "] expected a contiguous tensor as ", what,
             ", found sizes ", tide::detail::shape_str(t.shape()), " with strides ",
             tide::detail::shape_str(DimVector(t.strides())),
             "; communicate a .contiguous() copy and copy the result back");
}

void check_like(const Tensor& t, const Tensor& ref, const char* fn, const char* what, size_t i) {
  check_tensor(t, fn, what);
  TIDE_CHECK(t.device() == ref.device(), "[", fn, "] expected every tensor on ", ref.device(),
             ", found ", what, "[", i, "] on ", t.device(), "; move it with .to(", ref.device(),
             ")");
  TIDE_CHECK(t.dtype() == ref.dtype(), "[", fn, "] expected every tensor of dtype ",
             name(ref.dtype()), ", found ", what, "[", i, "] of dtype ", name(t.dtype()));
  TIDE_CHECK(t.numel() == ref.numel(), "[", fn, "] expected every tensor with ", ref.numel(),
             " elements (sizes ", tide::detail::shape_str(ref.shape()), "), found ", what, "[", i,
             "] with ", t.numel(), " (sizes ", tide::detail::shape_str(t.shape()), ")");
}

void check_list(const std::vector<Tensor>& list, const Tensor& ref, int world_size,
                const char* fn, const char* what) {
  TIDE_CHECK(static_cast<int>(list.size()) == world_size, "[", fn, "] expected ", what,
             " to hold world_size = ", world_size, " tensors, found ", list.size());
  for (size_t i = 0; i < list.size(); ++i) check_like(list[i], ref, fn, what, i);
}

// AVG on integers is NCCL's (and so torch's): the sum divided by the world size, truncated
// toward zero. torch rejects it on bool, and so does tide.
void check_op(ReduceOp op, const Tensor& t, const char* fn) {
  TIDE_CHECK(op != ReduceOp::AVG || t.dtype() != kBool, "[", fn,
             "] expected a numeric tensor for ReduceOp::AVG, found dtype bool; reduce with SUM "
             "(logical or) or MIN (logical and), or convert with .to(kInt32)");
}

std::shared_ptr<Work> wait_now(std::shared_ptr<Work> work) {
  work->wait();
  return work;
}

}  // namespace

const char* detail::name(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::Barrier: return "barrier";
    case CollectiveKind::AllReduce: return "all_reduce";
    case CollectiveKind::Broadcast: return "broadcast";
    case CollectiveKind::AllGather: return "all_gather";
    case CollectiveKind::ReduceScatter: return "reduce_scatter";
  }
  return "?";
}

const char* name(ReduceOp op) {
  switch (op) {
    case ReduceOp::SUM: return "SUM";
    case ReduceOp::AVG: return "AVG";
    case ReduceOp::MAX: return "MAX";
    case ReduceOp::MIN: return "MIN";
  }
  return "?";
}

void init_process_group(const std::string& backend, std::chrono::milliseconds timeout) {
  std::lock_guard<std::mutex> lock(g_mutex);
  TIDE_CHECK(g_group == nullptr, "[init_process_group] expected no process group, found one (",
             g_group ? g_group->backend() : "", ", rank ", g_group ? g_group->rank() : -1,
             "): init_process_group was called twice; call destroy_process_group() first");
  TIDE_CHECK(timeout.count() > 0, "[init_process_group] expected a positive timeout, found ",
             timeout.count(), " ms");
  TIDE_CHECK(backend.empty() || backend == "mpi" || backend == "nccl",
             "[init_process_group] expected backend \"mpi\", \"nccl\" or \"\" (nccl on real "
             "GPUs, mpi otherwise), found \"", backend, "\"");
  detail::LauncherEnv env = detail::read_launcher_env();
  if (backend == "nccl") {
    g_group = detail::make_nccl_backend(env, timeout, /*serve_cpu=*/false);
  } else if (backend.empty() && runtime::native_kernels()) {
    g_group = detail::make_nccl_backend(env, timeout, /*serve_cpu=*/true);
  } else {
    g_group = detail::make_mpi_backend(env, timeout);
  }
}

bool is_initialized() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_group != nullptr;
}

int get_rank() { return group("get_rank")->rank(); }
int get_world_size() { return group("get_world_size")->world_size(); }
int get_local_rank() { return group("get_local_rank")->local_rank(); }
std::string get_backend() { return group("get_backend")->backend(); }

void barrier() { group("barrier")->barrier(); }

void destroy_process_group() {
  std::shared_ptr<detail::ProcessGroupBackend> old;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    TIDE_CHECK(g_group != nullptr, "[destroy_process_group] expected an initialized process "
               "group, found none (never initialized, or already destroyed)");
    old = std::move(g_group);
  }
  old->shutdown();
}

std::shared_ptr<Work> all_reduce(Tensor& tensor, ReduceOp op, bool async_op) {
  auto g = group("all_reduce");
  check_tensor(tensor, "all_reduce", "tensor");
  check_op(op, tensor, "all_reduce");
  std::shared_ptr<Work> work = g->all_reduce(tensor, op, async_op);
  return async_op ? work : wait_now(std::move(work));
}
void all_reduce(Tensor& tensor, ReduceOp op) { all_reduce(tensor, op, false); }

std::shared_ptr<Work> broadcast(Tensor& tensor, int src, bool async_op) {
  auto g = group("broadcast");
  check_tensor(tensor, "broadcast", "tensor");
  TIDE_CHECK(src >= 0 && src < g->world_size(), "[broadcast] expected a source rank in [0, ",
             g->world_size(), "), found ", src);
  std::shared_ptr<Work> work = g->broadcast(tensor, src, async_op);
  return async_op ? work : wait_now(std::move(work));
}
void broadcast(Tensor& tensor, int src) { broadcast(tensor, src, false); }

std::shared_ptr<Work> all_gather(std::vector<Tensor>& outputs, const Tensor& input,
                                 bool async_op) {
  auto g = group("all_gather");
  check_tensor(input, "all_gather", "input");
  check_list(outputs, input, g->world_size(), "all_gather", "outputs");
  std::shared_ptr<Work> work = g->all_gather(outputs, input, async_op);
  return async_op ? work : wait_now(std::move(work));
}
void all_gather(std::vector<Tensor>& outputs, const Tensor& input) {
  all_gather(outputs, input, false);
}

std::shared_ptr<Work> reduce_scatter(Tensor& output, const std::vector<Tensor>& inputs,
                                     ReduceOp op, bool async_op) {
  auto g = group("reduce_scatter");
  check_tensor(output, "reduce_scatter", "output");
  check_list(inputs, output, g->world_size(), "reduce_scatter", "inputs");
  check_op(op, output, "reduce_scatter");
  std::shared_ptr<Work> work = g->reduce_scatter(output, inputs, op, async_op);
  return async_op ? work : wait_now(std::move(work));
}
void reduce_scatter(Tensor& output, const std::vector<Tensor>& inputs, ReduceOp op) {
  reduce_scatter(output, inputs, op, false);
}

}  // namespace tide::distributed
