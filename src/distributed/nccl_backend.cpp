// The "nccl" process group: collectives between real GPUs on NCCL, bootstrapped and checked
// by the mpi group (the NCCL id travels by MPI broadcast; each collective's header is
// compared on MPI beside the data, Note [Arrival check beside NCCL]), watched by a watchdog
// (Note [NCCL watchdog]). With the default backend it also serves cpu tensors, on the mpi
// group, as torch's "cpu:gloo,cuda:nccl".

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "backends/nccl_communicator.h"
#include "distributed/arrival_check.h"
#include "distributed/collective_header.h"
#include "distributed/gpu_group.h"
#include "distributed/nccl_watchdog.h"
#include "distributed/process_group_backend.h"
#include "runtime/registry.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::distributed::detail {
namespace {

constexpr std::chrono::milliseconds kWatchdogInterval(2);

/// Every NCCL failure reaches the user as a DistBackendError (torch's type for them).
template <class F>
auto nccl_call(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const backends::NcclError& e) {
    throw DistBackendError(e.what());
  }
}

backends::NcclOp nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::SUM: return backends::NcclOp::Sum;
    case ReduceOp::AVG: return backends::NcclOp::Avg;
    case ReduceOp::MAX: return backends::NcclOp::Max;
    case ReduceOp::MIN: return backends::NcclOp::Min;
  }
  return backends::NcclOp::Sum;
}

/// Events for the collectives' ends, reused once nothing refers to them (creating a CUDA event
/// per collective costs a driver call on the issuing path).
class EventPool : public std::enable_shared_from_this<EventPool> {
 public:
  std::shared_ptr<cuda::Event> acquire() {
    cuda::Event event;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        event = free_.back();
        free_.pop_back();
      }
    }
    std::shared_ptr<EventPool> self = shared_from_this();
    return std::shared_ptr<cuda::Event>(new cuda::Event(event), [self](cuda::Event* done) {
      {
        std::lock_guard<std::mutex> lock(self->mutex_);
        self->free_.push_back(*done);
      }
      delete done;
    });
  }

 private:
  std::mutex mutex_;
  std::vector<cuda::Event> free_;
};

/// Note [NCCL work]: as torch's ProcessGroupNCCL, each collective runs on the group's own
/// stream, after the work already enqueued on the tensor's current stream (the comm stream
/// waits for it), so communication overlaps the caller's later work; wait() makes the caller's
/// current stream wait for the collective's end event, and raises DistBackendError once the
/// watchdog failed the collective. The tensors' memory is recorded as used by the comm stream
/// (no manual record_stream: Note [Stream uses] in ops/dispatch.h), and the watchdog holds the
/// tensors themselves until the collective ended (Note [Work keeps its tensors]).
class NcclWork final : public Work {
 public:
  NcclWork(std::shared_ptr<cuda::Event> done, std::shared_ptr<WorkStatus> status, int device)
      : done_(std::move(done)), status_(std::move(status)), device_(device) {}

  void wait() override {
    check();
    done_->wait(cuda::current_stream(device_));
  }
  /// Once the watchdog has its verdict: the collective ended and every rank called the same
  /// (Note [Arrival check beside NCCL]), or it failed (then wait() raises).
  bool is_completed() override { return status_->settled(); }
  /// Blocks the host until the collective ended (barrier).
  void synchronize() {
    done_->synchronize();
    check();
  }

 private:
  void check() const {
    const std::string reason = status_->reason();
    if (!reason.empty()) throw DistBackendError(reason);
  }

  std::shared_ptr<cuda::Event> done_;
  std::shared_ptr<WorkStatus> status_;
  int device_;
};

/// The communicator as the watchdog sees it.
class Health final : public CommunicatorHealth {
 public:
  explicit Health(backends::DeviceCommunicator& comm) : comm_(comm) {}
  std::string async_error() override { return comm_.async_error(); }
  void abort() override { comm_.abort(); }

 private:
  backends::DeviceCommunicator& comm_;
};

/// One GPU communicator and what runs beside it: its stream, its health, its watchdog.
struct GpuComm {
  GpuComm(std::unique_ptr<backends::DeviceCommunicator> made, int rank,
          std::chrono::milliseconds timeout)
      : owned(std::move(made)),
        comm(*owned),
        stream(comm.device()),
        health(comm),
        watchdog(health, rank, timeout) {
    watchdog.start(kWatchdogInterval);
  }

  std::unique_ptr<backends::DeviceCommunicator> owned;
  backends::DeviceCommunicator& comm;
  cuda::Stream stream;
  Health health;
  NcclWatchdog watchdog;  // declared last: stops before the communicator goes
};

class NcclBackend final : public ProcessGroupBackend {
 public:
  NcclBackend(const LauncherEnv& env, std::chrono::milliseconds timeout, bool serve_cpu,
              CommunicatorMaker maker)
      : env_(env), timeout_(timeout), serve_cpu_(serve_cpu), maker_(std::move(maker)) {
    mpi_ = make_mpi_backend(env, timeout);
  }

  ~NcclBackend() override {
    try {
      shutdown();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tide: destroying the nccl process group: %s\n", e.what());
    }
  }

  std::string backend() const override { return serve_cpu_ ? "cpu:mpi,cuda:nccl" : "nccl"; }
  int rank() const override { return env_.rank; }
  int world_size() const override { return env_.world_size; }
  int local_rank() const override { return env_.local_rank; }

  // cpu tensors go to the mpi group as asynchronous collectives even when the caller waits at
  // once: run on this thread, they would wait for the peers under issue_mutex_ (Note [Issuing
  // a collective]).
  std::shared_ptr<Work> all_reduce(Tensor tensor, ReduceOp op, bool /*async_op*/) override {
    std::lock_guard<std::mutex> lock(issue_mutex_);
    if (on_cpu(tensor, "all_reduce")) return mpi_->all_reduce(tensor, op, /*async_op=*/true);
    CollectiveHeader h =
        make_header(CollectiveKind::AllReduce, tensor, static_cast<int64_t>(op));
    return issue("all_reduce", h, tensor, {tensor}, [&](GpuComm& g) {
      g.comm.all_reduce(tensor.raw_data(), tensor.numel(), tensor.dtype(), nccl_op(op), g.stream);
    });
  }

  std::shared_ptr<Work> broadcast(Tensor tensor, int src, bool /*async_op*/) override {
    std::lock_guard<std::mutex> lock(issue_mutex_);
    if (on_cpu(tensor, "broadcast")) return mpi_->broadcast(tensor, src, /*async_op=*/true);
    CollectiveHeader h = make_header(CollectiveKind::Broadcast, tensor, -1, src);
    return issue("broadcast", h, tensor, {tensor}, [&](GpuComm& g) {
      g.comm.broadcast(tensor.raw_data(), tensor.numel(), tensor.dtype(), src, g.stream);
    });
  }

  std::shared_ptr<Work> all_gather(std::vector<Tensor> outputs, Tensor input,
                                   bool /*async_op*/) override {
    std::lock_guard<std::mutex> lock(issue_mutex_);
    if (on_cpu(input, "all_gather")) {
      return mpi_->all_gather(std::move(outputs), input, /*async_op=*/true);
    }
    std::vector<Tensor> used = outputs;
    used.push_back(input);
    return issue("all_gather", make_header(CollectiveKind::AllGather, input), input, used,
                 [&](GpuComm& g) {
      // NCCL gathers into one buffer; it is made and read on the comm stream (current here).
      Tensor flat = empty({env_.world_size * input.numel()},
                          TensorOptions().dtype(input.dtype()).device(input.device()));
      g.comm.all_gather(input.raw_data(), flat.raw_data(), input.numel(), input.dtype(),
                        g.stream);
      for (int r = 0; r < env_.world_size; ++r) {
        outputs[r].copy_(flat.narrow(0, r * input.numel(), input.numel()).view(outputs[r].sizes()));
      }
    });
  }

  std::shared_ptr<Work> reduce_scatter(Tensor output, std::vector<Tensor> inputs, ReduceOp op,
                                       bool /*async_op*/) override {
    std::lock_guard<std::mutex> lock(issue_mutex_);
    if (on_cpu(output, "reduce_scatter")) {
      return mpi_->reduce_scatter(output, std::move(inputs), op, /*async_op=*/true);
    }
    CollectiveHeader h =
        make_header(CollectiveKind::ReduceScatter, output, static_cast<int64_t>(op));
    std::vector<Tensor> used = inputs;
    used.push_back(output);
    return issue("reduce_scatter", h, output, used, [&](GpuComm& g) {
      std::vector<Tensor> flat_inputs;
      for (const Tensor& t : inputs) flat_inputs.push_back(t.flatten());
      Tensor flat = cat(flat_inputs);
      g.comm.reduce_scatter(flat.raw_data(), output.raw_data(), output.numel(), output.dtype(),
                            nccl_op(op), g.stream);
    });
  }

  /// torch's NCCL barrier: an all-reduce of one element on the group's device (Note [Which GPU
  /// a rank uses]), after the GPU collectives issued before it, waited for on the host until
  /// it ended and every rank was seen to call a barrier. Under the default backend, before any
  /// GPU collective, the barrier is mpi's, as torch's default group takes gloo's: a program that
  /// communicates only cpu tensors makes no NCCL communicator, and ranks that share one GPU
  /// (which NCCL refuses) can still meet (the H200's first run: two ranks, one GPU).
  void barrier() override {
    if (serve_cpu_) {
      std::unique_lock<std::mutex> lock(issue_mutex_);
      if (!gpu_) {
        lock.unlock();
        mpi_->barrier();
        return;
      }
    }
    std::shared_ptr<Work> work;
    {
      std::lock_guard<std::mutex> lock(issue_mutex_);
      const int device = gpu_ ? gpu_->comm.device() : guess_device();
      Tensor token = zeros({1}, TensorOptions().dtype(kFloat32).device(Device(kCUDA, device)));
      CollectiveHeader h = make_header(CollectiveKind::Barrier, token);
      work = issue("barrier", h, token, {token}, [&](GpuComm& g) {
        g.comm.all_reduce(token.raw_data(), 1, kFloat32, backends::NcclOp::Sum, g.stream);
      });
    }
    // Outside the lock: other threads may issue meanwhile.
    static_cast<NcclWork&>(*work).synchronize();
    // The watchdog's verdict on the arrival check follows within its polling interval; a
    // broken peer fails it within the group's timeout.
    while (!work->is_completed()) std::this_thread::sleep_for(kWatchdogInterval);
    work->wait();  // raises what the watchdog found
  }

  void shutdown() override {
    std::lock_guard<std::mutex> lock(issue_mutex_);
    if (shut_down_) return;
    shut_down_ = true;
    std::exception_ptr error;
    if (gpu_) {
      try {
        // A hung peer makes this wait until the watchdog aborts the communicator.
        gpu_->stream.synchronize();
      } catch (...) {
        error = std::current_exception();  // a CUDA error: the communicator cannot finish
        gpu_->watchdog.fail("the process group's stream failed while it was destroyed");
      }
      // The arrival checks still in flight; a failed group only drains its end events.
      while (gpu_->watchdog.pending() > 0) {
        if (!gpu_->watchdog.broken_reason().empty() && error) break;
        gpu_->watchdog.poll(WatchdogClock::now());
        std::this_thread::sleep_for(kWatchdogInterval);
      }
      gpu_.reset();
    }
    mpi_->shutdown();
    if (error) std::rethrow_exception(error);
  }

 private:
  /// cpu tensors go to the mpi group when this group serves them (the default backend).
  bool on_cpu(const Tensor& t, const char* collective) const {
    if (!t.device().is_cpu()) return false;
    TIDE_CHECK(serve_cpu_, "[", collective, "] the nccl backend communicates cuda tensors, "
               "found a tensor on cpu; move it with .cuda(), or call init_process_group() "
               "without a backend (cpu tensors on mpi, cuda tensors on nccl, as torch's "
               "default)");
    return true;
  }

  /// Note [Which GPU a rank uses]: as torch, a collective runs on its tensor's device; the
  /// communicator is made at the group's first GPU collective, on that device. A barrier
  /// before any GPU collective uses the current device when the program chose one (a device
  /// other than cuda:0 is current), else cuda:(local_rank % device_count) — torch's guess,
  /// which keeps ranks that never called set_device off one shared cuda:0, where NCCL's init
  /// would fail. tide runs one GPU per process, so later collectives must use the same
  /// device. Making the communicator waits for every rank (NCCL's init is collective); after
  /// that a collective waits for no rank on the host, except while NCCL connects a new kind
  /// of collective lazily (ncclInProgress, polled up to the timeout). A failed init breaks
  /// the group: the ranks cannot agree on a second try.
  int guess_device() const {
    const int current = cuda::current_device();
    if (current != 0) return current;
    return env_.local_rank % cuda::device_count();
  }

  GpuComm& gpu(int device, const char* collective) {
    TIDE_CHECK_T(DistBackendError, !shut_down_, "[", collective, "] the process group was "
                 "destroyed; call init_process_group again first");
    TIDE_CHECK_T(DistBackendError, init_error_.empty(), "[", collective, "] the process group "
                 "is broken: its NCCL communicator could not be made: ", init_error_);
    if (gpu_) {
      TIDE_CHECK(device == gpu_->comm.device(), "[", collective, "] the nccl process group "
                 "communicates on cuda:", gpu_->comm.device(), " (the device of its first "
                 "collective), found a tensor on cuda:", device, "; tide runs one GPU per "
                 "process: move the tensor with .to(\"cuda:", gpu_->comm.device(), "\")");
      return *gpu_;
    }
    Tensor id = zeros({static_cast<int64_t>(sizeof(backends::NcclUniqueId::bytes))},
                      dtype(kUInt8));
    if (env_.rank == 0) {
      backends::NcclUniqueId made = nccl_call([&] { return maker_.unique_id(); });
      std::memcpy(id.raw_data(), made.bytes.data(), made.bytes.size());
    }
    mpi_->broadcast(id, 0, /*async_op=*/false)->wait();
    backends::NcclUniqueId shared;
    std::memcpy(shared.bytes.data(), id.raw_data(), shared.bytes.size());
    try {
      gpu_ = nccl_call([&] {
        return std::make_unique<GpuComm>(
            maker_.make(device, env_.rank, env_.world_size, shared, timeout_), env_.rank,
            timeout_);
      });
    } catch (const std::exception& e) {
      init_error_ = e.what();
      throw;
    }
    return *gpu_;
  }

  /// Note [Arrival check beside NCCL]: each GPU collective's header goes through the mpi
  /// group's arrival round (Note [Asynchronous arrival check] in distributed/arrival_check.h)
  /// while the collective is already enqueued, so issuing never waits for the other ranks (in
  /// DDP's gradient hooks a fast rank's backward would otherwise stall on the slowest rank's
  /// host). The watchdog reads the result: a peer that called something else fails the group
  /// with a message naming both calls; a peer that never arrives fails it naming that rank
  /// (the mpi group's timeout). The NCCL data of a mismatched call may already be moving,
  /// wrong, or hung: so the group is broken then (aborted, every later collective raises),
  /// where the mpi group, which checks before its data moves, stays usable.
  std::function<Arrival()> post_arrival(const char* collective, const CollectiveHeader& mine) {
    std::shared_ptr<Work> check = check_arrival(*mpi_, collective, mine);
    const int rank = env_.rank;
    return [check, mine, rank, collective]() -> Arrival {
      if (!check->is_completed()) return {};
      try {
        check->wait();
      } catch (const DistBackendError& e) {
        return {Arrival::State::Failed,
                tide::detail::concat("[", collective, "] rank ", rank, " could not compare "
                                     "collective #", mine.seq, " (", describe(mine), ") with "
                                     "the other ranks' calls: ", e.what())};
      } catch (const std::exception& e) {  // a mismatch, naming both calls
        return {Arrival::State::Failed,
                tide::detail::concat(e.what(), ". The NCCL communicator is aborted and the "
                                     "process group is broken")};
      }
      return {Arrival::State::Matched, ""};
    };
  }

  /// Note [Collective critical section]: the caller holds issue_mutex_ from the sequence
  /// number to the enqueue, so that collectives issued from several host threads get the
  /// same order on the comm stream, in the headers and on the mpi group on every rank.
  template <class Launch>
  std::shared_ptr<Work> issue(const char* collective, CollectiveHeader h, const Tensor& ref,
                              const std::vector<Tensor>& used, Launch launch) {
    TIDE_CHECK(ref.device().is_cuda(), "[", collective, "] the nccl backend communicates cuda "
               "tensors, found a tensor on ", ref.device());
    const int device = ref.device().index();
    GpuComm& g = gpu(device, collective);
    g.watchdog.check_healthy(collective);
    h.seq = ++seq_;
    std::function<Arrival()> arrival = post_arrival(collective, h);
    const cuda::Stream current = cuda::current_stream(device);
    g.stream.wait_stream(current);
    for (const Tensor& t : used) t.record_stream(g.stream);
    try {
      cuda::StreamGuard on_comm(g.stream);
      nccl_call([&] { launch(g); });
    } catch (const std::exception& e) {
      // This rank announced the collective (its header is out) but cannot join it, or NCCL
      // refused or timed out mid-call: the peers may be inside it. Break the group, so that
      // every later collective raises instead of hanging.
      g.watchdog.fail(tide::detail::concat("[", collective, "] collective #", h.seq, " (",
                                           describe(h), ") failed as it was issued: ", e.what()));
      throw;
    }
    std::shared_ptr<cuda::Event> done = events_->acquire();
    done->record(g.stream);
    auto status = std::make_shared<WorkStatus>();
    WatchedCollective watched;
    watched.seq = static_cast<uint64_t>(h.seq);
    watched.name = collective;
    watched.description = describe(h);
    watched.issued = WatchdogClock::now();
    watched.finished = [done] { return done->query(); };
    watched.arrival = std::move(arrival);
    watched.status = status;
    watched.tensors = used;
    g.watchdog.watch(std::move(watched));
    return std::make_shared<NcclWork>(std::move(done), std::move(status), device);
  }

  LauncherEnv env_;
  std::chrono::milliseconds timeout_;
  bool serve_cpu_;
  CommunicatorMaker maker_;
  std::unique_ptr<ProcessGroupBackend> mpi_;
  std::mutex issue_mutex_;  // Note [Collective critical section]
  int64_t seq_ = 0;         // under issue_mutex_
  bool shut_down_ = false;  // under issue_mutex_
  std::string init_error_;  // under issue_mutex_: why the communicator could not be made
  std::shared_ptr<EventPool> events_ = std::make_shared<EventPool>();
  std::unique_ptr<GpuComm> gpu_;  // made at the first GPU collective
};

}  // namespace

bool nccl_available() { return backends::nccl_compiled(); }

std::unique_ptr<ProcessGroupBackend> make_gpu_group(const LauncherEnv& env,
                                                    std::chrono::milliseconds timeout,
                                                    bool serve_cpu, CommunicatorMaker maker) {
  return std::make_unique<NcclBackend>(env, timeout, serve_cpu, std::move(maker));
}

std::unique_ptr<ProcessGroupBackend> make_nccl_backend(const LauncherEnv& env,
                                                       std::chrono::milliseconds timeout,
                                                       bool serve_cpu) {
  TIDE_CHECK(backends::nccl_compiled(), "[init_process_group] this tide was built without "
             "NCCL, so the nccl backend is missing; use backend \"mpi\"");
  TIDE_CHECK(runtime::native_kernels(), "[init_process_group] the nccl backend runs on real "
             "GPUs, found ", cuda::device_count(), " simulated or no cuda devices; use backend "
             "\"mpi\" (the default without real GPUs)");
  CommunicatorMaker nccl;
  nccl.unique_id = [] { return backends::nccl_unique_id(); };
  nccl.make = [](int device, int rank, int world_size, const backends::NcclUniqueId& id,
                 std::chrono::milliseconds timeout)
      -> std::unique_ptr<backends::DeviceCommunicator> {
    return std::make_unique<backends::NcclCommunicator>(device, rank, world_size, id, timeout);
  };
  return make_gpu_group(env, timeout, serve_cpu, std::move(nccl));
}

}  // namespace tide::distributed::detail
