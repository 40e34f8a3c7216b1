// The "mpi" process group: collectives between processes started by mpirun, for cpu tensors
// and simulated GPUs (whose memory is host memory), on Open MPI.

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "distributed/arrival_check.h"
#include "distributed/collective_header.h"
#include "distributed/collective_work.h"
#include "distributed/comm_thread.h"
#include "distributed/issue_hook.h"
#include "distributed/mpi/arrival_round.h"
#include "distributed/mpi/mpi_check.h"
#include "distributed/mpi/mpi_types.h"
#include "distributed/process_group_backend.h"
#include "runtime/registry.h"
#include "tide/cuda/stream.h"
#include "tide/error.h"

namespace tide::distributed::detail {
namespace {

using Clock = std::chrono::steady_clock;

/// Note [Arrival round]: before its data moves, each collective exchanges a CollectiveHeader
/// with every peer (ArrivalRound: nonblocking sends and receives on a communicator of its
/// own, polled against the deadline). It does two things torch cannot: when a peer never
/// arrives, the waiting rank knows exactly which ranks it waited for (the receives still open)
/// and raises instead of hanging; and when a peer called a different collective, or the same
/// one with another dtype or size, every rank sees the mismatch and raises, naming both calls.
///
/// The receives are posted as soon as the communication thread takes the collective, so the
/// peers' headers arrive while this rank's stream finishes the work before it (GPU tensors);
/// this rank's own header leaves only once its data is ready, so no peer starts moving data
/// with a rank that may still give up. The data moves after every header came and matched, on
/// Open MPI's blocking collectives. So a mismatch leaves the group usable: no data moved,
/// every rank raised, the next collective pairs as usual.
///
/// What the check costs, and why the data still waits for it (measured on 2 ranks, 2 cores:
/// bench/RESULTS.md, 2026-11-26). In a loop of synchronous all-reduces the round puts the
/// late rank's header on the critical path: about 3 us when the early rank polled between
/// yields (each yield about a microsecond on this machine), about as much as skipping the
/// round altogether once it polls without pause for its first 50 us (ArrivalRound::
/// wait_until); the rest of tide's cost over raw MPI, about 5.5 us, is the two hand-offs
/// between the calling thread and the communication thread, which a synchronous collective of
/// cpu tensors now skips (Note [Running a job on the caller]). Moving the data beside the round
/// was measured and rejected: Open MPI 4.1's nonblocking collectives (MPI_Iallreduce, which a
/// mismatch could abandon) reach 0.4-0.57x the bandwidth of the blocking ones from 64 KiB up;
/// a blocking collective started before the check hangs, out of reach of any deadline, when
/// the calls do not match; posting the headers from the issuing thread (MPI_THREAD_MULTIPLE)
/// gained nothing measurable; spinning instead of
/// sleeping at the hand-offs gained nothing on 2 cores and made collectives up to 20x slower
/// on a loaded machine.
///
/// After a timeout (a peer that never came, or this rank's own stream that never reached the
/// collective) the ranks' sequences are out of step for good: the group is broken, every
/// later collective raises, and at exit the process aborts the job instead of finalizing
/// (which would wait for the missing peers).
/// A peer that dies inside the data phase is Open MPI's to handle: mpirun aborts the job.
///
/// Note [Issuing a collective]: numbering a collective, enqueueing the task that tells the
/// communication thread its stream reached it (GPU tensors), and queueing its job on that
/// thread happen under one lock per group (issue_mutex_). So the order of the sequence
/// numbers, of the jobs on the communication thread and of the collectives on each stream is
/// one order, even when several host threads issue collectives at once (Python threads do,
/// with the GIL released): each rank then runs its collectives in its own issue order, and
/// the arrival round checks that every rank's order is the same. Issuing never waits for
/// another rank: the lock is held for a few queue operations, and every wait on a peer
/// happens on the communication thread — or on the issuing thread of a synchronous cpu
/// collective, after the lock is released.
///
/// Note [Running a job on the caller]: a synchronous all_reduce of cpu tensors used to cost
/// two thread hand-offs on top of MPI's own time — the issuing thread wakes the communication
/// thread, which wakes the issuing thread when done — about 5.5 us per collective on 2 cores,
/// a fifth of a 64 KiB all-reduce. The issuing thread waits anyway, so when the communication
/// thread has nothing queued or running, the issuing thread takes its place
/// (CommThread::borrow_if_idle, under issue_mutex_ so the sequence order holds) and runs the
/// job itself; jobs posted meanwhile wait until it gives the place back. MPI still sees one
/// thread at a time (MPI_THREAD_SERIALIZED allows calls from any thread, serialized). An
/// asynchronous collective still goes to the communication thread, so it overlaps the
/// caller's work (DDP's buckets during backward), and so do GPU tensors (their data is ready
/// only when the stream reaches the collective).

int as_count(int64_t n, const char* collective) {
  TIDE_CHECK(n <= INT_MAX, "[", collective, "] the mpi backend moves at most ", INT_MAX,
             " elements per tensor in this collective, found ", n,
             "; split the tensor into smaller ones");
  return static_cast<int>(n);
}

/// MPI itself: initialized once per process on the communication thread, finalized when the
/// process exits (MPI cannot be initialized again after MPI_Finalize).
class MpiRuntime {
 public:
  /// Never destroyed by static destruction (a leftover process group may still use it);
  /// at exit the communication thread drains and finalizes MPI (Note [One communication
  /// thread]).
  static MpiRuntime& get() {
    static MpiRuntime* runtime = [] {
      auto* made = new MpiRuntime;
      std::atexit([] { get().thread_.reset(); });
      return made;
    }();
    return *runtime;
  }

  CommThread& thread() { return *thread_; }

  /// Runs `fn` on the communication thread and returns its result (rethrowing its error).
  template <class F>
  auto call(F fn) -> decltype(fn()) {
    auto task = std::make_shared<std::packaged_task<decltype(fn())()>>(std::move(fn));
    auto result = task->get_future();
    thread_->post([task] { (*task)(); });
    return result.get();
  }

  /// On the communication thread: MPI_Init_thread the first time.
  void ensure_initialized() {
    if (initialized_) return;
    int provided = 0;
    int code = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    check_mpi(code, "MPI_Init_thread", "init_process_group");
    TIDE_CHECK(provided >= MPI_THREAD_SERIALIZED,
               "[init_process_group] expected an MPI library with MPI_THREAD_SERIALIZED, found "
               "thread level ", provided, "; use an MPI built with thread support (Open MPI is)");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    reductions_ = std::make_unique<MpiReductions>();
    initialized_ = true;
  }

  const MpiReductions& reductions() const { return *reductions_; }

  /// A group gave up on a peer (Note [Arrival round]): the process must not finalize, which
  /// would wait for that peer, but end the whole job.
  void mark_broken() { broken_ = true; }

 private:
  MpiRuntime() : thread_(std::make_unique<CommThread>()) {
    thread_->set_last([this] {
      if (!initialized_) return;
      if (broken_) {
        // The peers are stuck or gone: finalizing would wait for them. Abort the job, as
        // torch's NCCL watchdog tears the process down after a timeout.
        MPI_Abort(MPI_COMM_WORLD, 1);
        return;
      }
      reductions_->free();
      MPI_Finalize();
    });
  }

  std::unique_ptr<CommThread> thread_;
  bool initialized_ = false;  // communication thread only
  std::atomic<bool> broken_{false};
  std::unique_ptr<MpiReductions> reductions_;
};

class MpiBackend final : public ProcessGroupBackend {
 public:
  MpiBackend(const LauncherEnv& env, std::chrono::milliseconds timeout)
      : runtime_(MpiRuntime::get()), env_(env), timeout_(timeout) {
    runtime_.call([this] {
      runtime_.ensure_initialized();
      int rank = -1, size = -1;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      MPI_Comm_size(MPI_COMM_WORLD, &size);
      TIDE_CHECK(rank == env_.rank && size == env_.world_size,
                 "[init_process_group] expected MPI to see the launcher's rank ", env_.rank,
                 " of ", env_.world_size, " (from ", env_.source, "), found rank ", rank, " of ",
                 size, "; the mpi backend needs processes started by mpirun (or tide launch)");
      MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
      MPI_Comm_dup(MPI_COMM_WORLD, &arrive_comm_);
      MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
      MPI_Comm_set_errhandler(arrive_comm_, MPI_ERRORS_RETURN);
      return 0;
    });
  }

  ~MpiBackend() override {
    if (!shut_down_) shutdown();
  }

  std::string backend() const override { return "mpi"; }
  int rank() const override { return env_.rank; }
  int world_size() const override { return env_.world_size; }
  int local_rank() const override { return env_.local_rank; }

  std::shared_ptr<Work> all_reduce(Tensor tensor, ReduceOp op, bool async_op) override {
    CollectiveHeader h = make_header(CollectiveKind::AllReduce, tensor, static_cast<int64_t>(op));
    return issue("all_reduce", h, tensor, async_op, [this, tensor, op] {
      const MpiReductions& r = runtime_.reductions();
      const bool avg = op == ReduceOp::AVG;
      if (avg) avg_prescale(tensor.raw_data(), tensor.numel(), tensor.dtype(), env_.world_size);
      check_mpi(MPI_Allreduce(MPI_IN_PLACE, tensor.raw_data(), as_count(tensor.numel(), "all_reduce"),
                              r.datatype(tensor.dtype()), r.op(op, tensor.dtype()), comm_),
                "MPI_Allreduce", "all_reduce");
      if (avg) avg_postdivide(tensor.raw_data(), tensor.numel(), tensor.dtype(), env_.world_size);
    });
  }

  std::shared_ptr<Work> broadcast(Tensor tensor, int src, bool async_op) override {
    CollectiveHeader h = make_header(CollectiveKind::Broadcast, tensor, -1, src);
    return issue("broadcast", h, tensor, async_op, [this, tensor, src] {
      check_mpi(MPI_Bcast(tensor.raw_data(), as_count(tensor.numel(), "broadcast"),
                          runtime_.reductions().datatype(tensor.dtype()), src, comm_),
                "MPI_Bcast", "broadcast");
    });
  }

  std::shared_ptr<Work> all_gather(std::vector<Tensor> outputs, Tensor input,
                                   bool async_op) override {
    CollectiveHeader h = make_header(CollectiveKind::AllGather, input);
    return issue("all_gather", h, input, async_op, [this, outputs = std::move(outputs), input] {
      const size_t nbytes = input.numel() * element_size(input.dtype());
      std::vector<std::byte> gathered(nbytes * outputs.size());
      const int count = as_count(input.numel(), "all_gather");
      MPI_Datatype type = runtime_.reductions().datatype(input.dtype());
      check_mpi(MPI_Allgather(input.raw_data(), count, type, gathered.data(), count, type, comm_),
                "MPI_Allgather", "all_gather");
      for (size_t r = 0; r < outputs.size(); ++r) {
        std::memcpy(outputs[r].raw_data(), gathered.data() + r * nbytes, nbytes);
      }
    });
  }

  std::shared_ptr<Work> reduce_scatter(Tensor output, std::vector<Tensor> inputs, ReduceOp op,
                                       bool async_op) override {
    CollectiveHeader h =
        make_header(CollectiveKind::ReduceScatter, output, static_cast<int64_t>(op));
    return issue("reduce_scatter", h, output, async_op,
                 [this, output, inputs = std::move(inputs), op] {
      const size_t nbytes = output.numel() * element_size(output.dtype());
      std::vector<std::byte> flat(nbytes * inputs.size());
      for (size_t r = 0; r < inputs.size(); ++r) {
        std::memcpy(flat.data() + r * nbytes, inputs[r].raw_data(), nbytes);
      }
      const bool avg = op == ReduceOp::AVG;
      const int world = env_.world_size;
      if (avg) avg_prescale(flat.data(), output.numel() * inputs.size(), output.dtype(), world);
      const MpiReductions& red = runtime_.reductions();
      check_mpi(MPI_Reduce_scatter_block(flat.data(), output.raw_data(),
                                         as_count(output.numel(), "reduce_scatter"),
                                         red.datatype(output.dtype()), red.op(op, output.dtype()),
                                         comm_),
                "MPI_Reduce_scatter_block", "reduce_scatter");
      if (avg) avg_postdivide(output.raw_data(), output.numel(), output.dtype(), world);
    });
  }

  void barrier() override {
    // The arrival round alone: it ends when every rank's header came.
    issue("barrier", make_header(CollectiveKind::Barrier, Tensor()), Tensor(), /*async_op=*/false,
          [] {})->wait();
  }

  /// Note [Asynchronous arrival check] in distributed/arrival_check.h.
  std::shared_ptr<Work> check_arrival(const char* collective, CollectiveHeader h) {
    return issue(collective, h, Tensor(), /*async_op=*/true, [] {});
  }

  void shutdown() override {
    shut_down_ = true;
    // Runs after every collective issued before it (one thread, first in first out).
    runtime_.call([this] {
      if (!broken_) {
        MPI_Comm_free(&comm_);
        MPI_Comm_free(&arrive_comm_);
      }
      return 0;
    });
  }

 private:
  /// -1 for cpu tensors (and the barrier); the device index for simulated GPUs.
  static int device_of(const Tensor& t, const char* collective) {
    if (!t.defined() || t.device().is_cpu()) return -1;
    TIDE_CHECK(!runtime::native_kernels(), "[", collective,
               "] the mpi backend reaches cpu tensors and simulated GPUs, found a tensor on ",
               t.device(), ", a real GPU; use the nccl backend (init_process_group(\"nccl\"), "
               "the default when real GPUs are present)");
    return t.device().index();
  }

  /// Note [Issuing a collective]. `run` moves the data; it holds the tensors, which the job
  /// drops only after the collective finished (Note [Work] in tide/distributed/process_group.h).
  /// A synchronous collective of cpu tensors (async_op = false) runs on the calling thread
  /// when the communication thread is idle (Note [Running a job on the caller]).
  template <class Run>
  std::shared_ptr<Work> issue(const char* collective, CollectiveHeader h, const Tensor& ref,
                              bool async_op, Run run) {
    const int device = device_of(ref, collective);
    auto state = std::make_shared<CollectiveState>(collective);
    std::unique_lock<std::mutex> lock(issue_mutex_);
    h.seq = ++seq_;
    run_issue_hook(h.seq);
    if (device >= 0) {
      enqueue_stream_ready(state, cuda::current_stream(device));
    } else {
      state->mark_ready();
    }
    auto job = [this, state, h, run = std::move(run)] {
      std::exception_ptr error;
      try {
        execute(*state, h, run);
      } catch (...) {
        error = std::current_exception();
      }
      state->finish(error);
    };
    if (device < 0 && !async_op) {
      // Taken under issue_mutex_, so no collective numbered after this one runs before it.
      if (CommThread::Borrow here = runtime_.thread().borrow_if_idle()) {
        lock.unlock();  // later collectives may be issued meanwhile: they queue behind this one
        job();
        return std::make_shared<CollectiveWork>(state, device);
      }
    }
    runtime_.thread().post(std::move(job));
    return std::make_shared<CollectiveWork>(state, device);
  }

  /// On the communication thread: the arrival round, then the data.
  template <class Run>
  void execute(CollectiveState& state, const CollectiveHeader& h, const Run& run) {
    const char* collective = state.name;
    TIDE_CHECK_T(DistBackendError, !broken_, "[", collective, "] the process group is broken: ",
                 broken_reason_, "; exit this process (non-zero) and restart the job");
    const Clock::time_point deadline = Clock::now() + timeout_;
    ArrivalRound round(arrive_comm_, env_.rank, env_.world_size, h, collective);
    if (!state.wait_ready_until(deadline)) {
      // The peers will wait for this rank's header until their own timeout: they give up on
      // it, so this rank's sequence is out of step with theirs for good.
      break_group(collective, h, "this rank's stream did not reach it");
      throw DistBackendError(::tide::detail::concat(
          "[", collective, "] rank ", env_.rank, " waited ", timeout_.count(), " ms (the process "
          "group's timeout) for its own stream to reach collective #", h.seq, " (", describe(h),
          "); the work enqueued before it on that stream did not finish. The process group is "
          "now broken: let this process exit"));
    }
    round.send();
    if (!round.wait_until(deadline)) give_up(collective, h, round);
    round.check();
    run();
  }

  void break_group(const char* collective, const CollectiveHeader& h, const char* why) {
    broken_ = true;
    broken_reason_ =
        ::tide::detail::concat("collective #", h.seq, " (", collective, ") timed out: ", why);
    runtime_.mark_broken();
  }

  [[noreturn]] void give_up(const char* collective, const CollectiveHeader& mine,
                            ArrivalRound& round) {
    const std::string missing = round.abandon();
    break_group(collective, mine, "peers did not arrive");
    throw DistBackendError(::tide::detail::concat(
        "[", collective, "] rank ", env_.rank, " waited ", timeout_.count(),
        " ms (the process group's timeout) for rank", missing.find(',') == std::string::npos ? " " : "s ",
        missing, " to reach collective #", mine.seq, " (", describe(mine),
        "); they hung or died before it. The process group is now broken: let this process "
        "exit (it ends with a non-zero status and mpirun stops the job), or raise the timeout "
        "in init_process_group if the peers are only slow"));
  }

  MpiRuntime& runtime_;
  LauncherEnv env_;
  std::chrono::milliseconds timeout_;
  MPI_Comm comm_ = MPI_COMM_NULL;         // the data
  MPI_Comm arrive_comm_ = MPI_COMM_NULL;  // arrival headers (Note [Arrival round])
  std::mutex issue_mutex_;
  int64_t seq_ = 0;  // under issue_mutex_
  bool shut_down_ = false;
  // Whoever runs the jobs: the communication thread or a caller holding its place, never both.
  bool broken_ = false;
  std::string broken_reason_;
};

}  // namespace

bool mpi_available() { return true; }

std::unique_ptr<ProcessGroupBackend> make_mpi_backend(const LauncherEnv& env,
                                                      std::chrono::milliseconds timeout) {
  return std::make_unique<MpiBackend>(env, timeout);
}

std::shared_ptr<Work> check_arrival(ProcessGroupBackend& mpi_group, const char* collective,
                                    const CollectiveHeader& header) {
  auto* mpi = dynamic_cast<MpiBackend*>(&mpi_group);
  TIDE_INTERNAL_ASSERT(mpi != nullptr, "check_arrival needs a group made by make_mpi_backend");
  return mpi->check_arrival(collective, header);
}

}  // namespace tide::distributed::detail
