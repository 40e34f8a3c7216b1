// The "mpi" process group: collectives between processes started by mpirun, for cpu tensors
// and simulated GPUs (whose memory is host memory), on Open MPI.

#include <mpi.h>

#include <algorithm>
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
#include <thread>
#include <utility>
#include <vector>

#include "distributed/collective_work.h"
#include "distributed/comm_thread.h"
#include "distributed/mpi/mpi_types.h"
#include "distributed/process_group_backend.h"
#include "runtime/registry.h"
#include "tide/cuda/stream.h"
#include "tide/error.h"

namespace tide::distributed::detail {
namespace {

using Clock = std::chrono::steady_clock;

/// Note [Arrival round]: before its data moves, each collective exchanges a small header with
/// every peer (nonblocking sends and receives on a communicator of its own, polled against the
/// deadline). It does two things torch cannot: when a peer never arrives, the waiting rank
/// knows exactly which ranks it waited for (the receives still open) and raises instead of
/// hanging; and when a peer called a different collective, or the same one with another
/// dtype or size, every rank sees the mismatch and raises, leaving the group usable. Only then
/// does the blocking MPI collective run, so the data moves on Open MPI's tuned algorithms.
/// A peer that dies inside the data phase is Open MPI's to handle: mpirun aborts the job.
struct Header {
  int64_t seq = 0;
  int64_t kind = 0;
  int64_t dtype = 0;
  int64_t numel = 0;
  int64_t root = -1;  // broadcast's source
  int64_t op = -1;    // the ReduceOp, for reductions

  bool operator==(const Header&) const = default;
};
constexpr int kArriveTag = 7;

std::string describe(const Header& h) {
  std::string text = name(static_cast<CollectiveKind>(h.kind));
  if (h.kind == static_cast<int64_t>(CollectiveKind::Barrier)) return text;
  text += "(";
  if (h.op >= 0) text += name(static_cast<ReduceOp>(h.op));
  if (h.root >= 0) text += "src=" + std::to_string(h.root);
  text += ") of " + std::to_string(h.numel) + " " + name(static_cast<Dtype>(h.dtype)) +
          " elements";
  return text;
}

void check_mpi(int code, const char* call, const char* collective) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw DistBackendError(::tide::detail::concat("[", collective, "] ", call, " failed: ",
                                        std::string(text, length)));
}

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

  std::shared_ptr<Work> all_reduce(Tensor tensor, ReduceOp op) override {
    Header h = header(CollectiveKind::AllReduce, tensor);
    h.op = static_cast<int64_t>(op);
    return issue("all_reduce", h, tensor, [this, tensor, op] {
      const MpiReductions& r = runtime_.reductions();
      const bool avg = op == ReduceOp::AVG;
      if (avg) avg_prescale(tensor.raw_data(), tensor.numel(), tensor.dtype(), env_.world_size);
      check_mpi(MPI_Allreduce(MPI_IN_PLACE, tensor.raw_data(), as_count(tensor.numel(), "all_reduce"),
                              r.datatype(tensor.dtype()), r.op(op, tensor.dtype()), comm_),
                "MPI_Allreduce", "all_reduce");
      if (avg) avg_postdivide(tensor.raw_data(), tensor.numel(), tensor.dtype(), env_.world_size);
    });
  }

  std::shared_ptr<Work> broadcast(Tensor tensor, int src) override {
    Header h = header(CollectiveKind::Broadcast, tensor);
    h.root = src;
    return issue("broadcast", h, tensor, [this, tensor, src] {
      check_mpi(MPI_Bcast(tensor.raw_data(), as_count(tensor.numel(), "broadcast"),
                          runtime_.reductions().datatype(tensor.dtype()), src, comm_),
                "MPI_Bcast", "broadcast");
    });
  }

  std::shared_ptr<Work> all_gather(std::vector<Tensor> outputs, Tensor input) override {
    Header h = header(CollectiveKind::AllGather, input);
    return issue("all_gather", h, input, [this, outputs = std::move(outputs), input] {
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

  std::shared_ptr<Work> reduce_scatter(Tensor output, std::vector<Tensor> inputs,
                                       ReduceOp op) override {
    Header h = header(CollectiveKind::ReduceScatter, output);
    h.op = static_cast<int64_t>(op);
    return issue("reduce_scatter", h, output, [this, output, inputs = std::move(inputs), op] {
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
    Header h;
    h.kind = static_cast<int64_t>(CollectiveKind::Barrier);
    issue("barrier", h, Tensor(), [] {})->wait();
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
  Header header(CollectiveKind kind, const Tensor& t) const {
    Header h;
    h.kind = static_cast<int64_t>(kind);
    h.dtype = static_cast<int64_t>(t.dtype());
    h.numel = t.numel();
    return h;
  }

  /// -1 for cpu tensors (and the barrier); the device index for simulated GPUs.
  static int device_of(const Tensor& t, const char* collective) {
    if (!t.defined() || t.device().is_cpu()) return -1;
    TIDE_CHECK(!runtime::native_kernels(), "[", collective,
               "] the mpi backend reaches cpu tensors and simulated GPUs, found a tensor on ",
               t.device(), ", a real GPU; use the nccl backend (init_process_group(\"nccl\"), "
               "the default when real GPUs are present)");
    return t.device().index();
  }

  template <class Run>
  std::shared_ptr<Work> issue(const char* collective, Header h, const Tensor& ref, Run run) {
    const int device = device_of(ref, collective);
    auto state = std::make_shared<CollectiveState>(collective);
    std::lock_guard<std::mutex> lock(issue_mutex_);
    h.seq = ++seq_;
    if (device >= 0) {
      enqueue_stream_ready(state, cuda::current_stream(device));
    } else {
      state->mark_ready();
    }
    runtime_.thread().post([this, state, h, run = std::move(run)] {
      std::exception_ptr error;
      try {
        execute(*state, h, run);
      } catch (...) {
        error = std::current_exception();
      }
      state->finish(error);
    });
    return std::make_shared<CollectiveWork>(state, device);
  }

  template <class Run>
  void execute(CollectiveState& state, const Header& h, const Run& run) {
    const char* collective = state.name;
    TIDE_CHECK_T(DistBackendError, !broken_, "[", collective, "] the process group is broken: ",
                 broken_reason_, "; exit this process (non-zero) and restart the job");
    const Clock::time_point deadline = Clock::now() + timeout_;
    TIDE_CHECK_T(DistBackendError, state.wait_ready_until(deadline), "[", collective, "] rank ",
                 env_.rank, " waited ", timeout_.count(), " ms (the process group's timeout) "
                 "for its own stream to reach collective #", h.seq, " (", describe(h),
                 "); the work enqueued before it on that stream did not finish");
    arrive(collective, h, deadline);
    run();
  }

  /// Note [Arrival round].
  void arrive(const char* collective, const Header& mine, Clock::time_point deadline) {
    const int size = env_.world_size;
    if (size == 1) return;
    auto sent = std::make_unique<Header>(mine);
    std::vector<Header> theirs(size);
    std::vector<MPI_Request> requests;
    std::vector<int> peers;
    for (int peer = 0; peer < size; ++peer) {
      if (peer == env_.rank) continue;
      peers.push_back(peer);
      requests.emplace_back();
      check_mpi(MPI_Irecv(&theirs[peer], sizeof(Header), MPI_BYTE, peer, kArriveTag, arrive_comm_,
                          &requests.back()),
                "MPI_Irecv", collective);
    }
    const size_t receives = requests.size();
    for (int peer : peers) {
      requests.emplace_back();
      check_mpi(MPI_Isend(sent.get(), sizeof(Header), MPI_BYTE, peer, kArriveTag, arrive_comm_,
                          &requests.back()),
                "MPI_Isend", collective);
    }
    for (int polls = 0;; ++polls) {
      int all_done = 0;
      check_mpi(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &all_done,
                            MPI_STATUSES_IGNORE),
                "MPI_Testall", collective);
      if (all_done) break;
      if (polls % 64 == 63 && Clock::now() >= deadline) {
        give_up(collective, mine, requests, receives, peers, std::move(sent));
      }
      // Spin briefly (a peer usually arrives within microseconds), then stop taking a core
      // from the ranks that share it (4 ranks on 2 cores in CI).
      if (polls < 2000) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
    }
    for (int peer : peers) {
      if (theirs[peer] == mine) continue;
      throw Error(::tide::detail::concat(
          "[", collective, "] rank ", env_.rank, " called ", describe(mine), " as collective #",
          mine.seq, ", but rank ", peer, " called ", describe(theirs[peer]), " as collective #",
          theirs[peer].seq, "; every rank must call the same collectives in the same order with "
          "tensors of the same dtype and size"));
    }
  }

  [[noreturn]] void give_up(const char* collective, const Header& mine,
                            std::vector<MPI_Request>& requests, size_t receives,
                            const std::vector<int>& peers, std::unique_ptr<Header> sent) {
    std::string missing;
    for (size_t i = 0; i < receives; ++i) {
      if (requests[i] == MPI_REQUEST_NULL) continue;
      int arrived = 0;
      MPI_Test(&requests[i], &arrived, MPI_STATUS_IGNORE);
      if (arrived) continue;
      missing += (missing.empty() ? "" : ", ") + std::to_string(peers[i]);
      MPI_Cancel(&requests[i]);
      MPI_Request_free(&requests[i]);
    }
    for (size_t i = receives; i < requests.size(); ++i) {
      if (requests[i] != MPI_REQUEST_NULL) MPI_Request_free(&requests[i]);
    }
    (void)sent.release();  // an unfinished send may still read it: never freed
    broken_ = true;
    broken_reason_ = ::tide::detail::concat("collective #", mine.seq, " (", collective, ") timed out");
    runtime_.mark_broken();
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
  // Communication thread only.
  bool broken_ = false;
  std::string broken_reason_;
};

}  // namespace

bool mpi_available() { return true; }

std::unique_ptr<ProcessGroupBackend> make_mpi_backend(const LauncherEnv& env,
                                                      std::chrono::milliseconds timeout) {
  return std::make_unique<MpiBackend>(env, timeout);
}

}  // namespace tide::distributed::detail
