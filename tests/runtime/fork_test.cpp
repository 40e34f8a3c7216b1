// Fork safety (Note [Fork safety] in src/runtime/fork_safety.h): a child fork()ed after the
// cuda runtime started gets a tide::Error naming the cause and the fix at its first touch of a
// cuda device — a factory, an op or a copy on a tensor it inherited, a stream, an event, a
// synchronize, pinned memory — while device_count() still answers and its cpu work (OpenMP
// loops, BLAS, autograd, an optimizer, a DataLoader with worker threads) gives the parent's
// results; a child forked before the first cuda use starts its own runtime and uses cuda; and
// DataLoader workers are threads of the process: an epoch forks nothing.
//
// Children report through a pipe and their exit status; they never run gtest assertions, and
// leave with _exit (the parent's objects are not theirs to destroy). alarm() turns a child
// that hangs into a failure instead of a hung test.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "runtime/device_test_util.h"
#include "runtime/registry.h"
#include "tide/tide.h"

using namespace tide;
using ::testing::HasSubstr;

namespace {

constexpr const char* kCauseAndFix =
    "cuda was initialized in the parent before fork; create worker processes before the first "
    "cuda use, or start them with spawn/exec";

struct ChildResult {
  int status = 0;      // as waitpid reports it
  std::string report;  // what the child wrote: "" when every check passed
};

/// Forks; the child runs `body` (its failures as text, "" for none), writes them to a pipe
/// and _exits with 0 (nothing failed) or 1. A child that hangs is killed by SIGALRM.
ChildResult run_in_child(const std::function<std::string()>& body) {
  int fds[2];
  if (pipe(fds) != 0) return {-1, std::string("pipe failed: ") + std::strerror(errno)};
  const pid_t pid = fork();
  if (pid < 0) return {-1, std::string("fork failed: ") + std::strerror(errno)};
  if (pid == 0) {
    close(fds[0]);
    alarm(120);
    std::string failures;
    try {
      failures = body();
    } catch (const std::exception& e) {
      failures = std::string("the child's checks raised: ") + e.what();
    }
    size_t written = 0;
    while (written < failures.size()) {
      const ssize_t n = write(fds[1], failures.data() + written, failures.size() - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    close(fds[1]);
    _exit(failures.empty() ? 0 : 1);
  }
  close(fds[1]);
  ChildResult result;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    result.report.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  while (waitpid(pid, &result.status, 0) < 0 && errno == EINTR) {
  }
  return result;
}

::testing::AssertionResult exited_cleanly(const ChildResult& r) {
  if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure();
  if (WIFSIGNALED(r.status)) {
    failure << "the child was killed by signal " << WTERMSIG(r.status)
            << (WTERMSIG(r.status) == SIGALRM ? " (it hung)" : "");
  } else if (WIFEXITED(r.status)) {
    failure << "the child exited with " << WEXITSTATUS(r.status);
  } else {
    failure << "the child ended with status " << r.status;
  }
  return failure << ": " << r.report;
}

/// Collects a child's failures as text.
class Report {
 public:
  void fail(const std::string& what) {
    if (!text_.empty()) text_ += '\n';
    text_ += what;
  }
  /// `touch` must raise a tide::Error with the cause and the fix, starting with `prefix`.
  void expect_refused(const char* what, const std::string& prefix, const std::function<void()>& touch) {
    try {
      touch();
      fail(std::string(what) + ": no error");
    } catch (const Error& e) {
      const std::string msg = e.what();
      if (msg.find(kCauseAndFix) == std::string::npos || msg.rfind(prefix, 0) != 0) {
        fail(std::string(what) + ": expected a message starting with '" + prefix +
             "' that names the cause and the fix, found: " + msg);
      }
    }
  }
  void expect_same(const char* what, const Tensor& expected, const Tensor& actual) {
    const Tensor e = expected.contiguous(), a = actual.contiguous();
    if (e.sizes() != a.sizes() || e.dtype() != a.dtype() ||
        std::memcmp(e.raw_data(), a.raw_data(), e.nbytes()) != 0) {
      fail(std::string(what) + ": differs from the parent's result");
    }
  }
  std::string str() const { return text_; }

 private:
  std::string text_;
};

// ThreadSanitizer ends a child of a multi-threaded process when the child starts a thread (its
// die_after_fork option), so under it a child's DataLoader loads on the child's own thread.
#if defined(__SANITIZE_THREAD__)
constexpr int kChildLoaderWorkers = 0;
#else
constexpr int kChildLoaderWorkers = 2;
#endif

/// The cpu work a child must still do: large enough that loops run in parallel (OpenMP) and
/// matmul goes through BLAS; one SGD step of a small MLP through autograd; one epoch of a
/// DataLoader with `workers` worker threads. Returns the tensors it produced, to compare.
std::vector<Tensor> cpu_work(int workers) {
  manual_seed(17);
  const Tensor a = randn({300, 300});
  const Tensor b = randn({300, 300});
  std::vector<Tensor> out{a.matmul(b), (a * b + 1).exp().sum(0)};
  nn::Sequential net(nn::Linear(8, 16), nn::ReLU(), nn::Linear(16, 3));
  optim::SGD opt(net.parameters(), optim::SGDOptions(0.1).momentum(0.9));
  const Tensor x = randn({32, 8});
  const Tensor y = randint(0, 3, {32});
  nn::CrossEntropyLoss criterion;
  criterion(net(x), y).backward();
  opt.step();
  for (const Tensor& p : net.parameters()) out.push_back(p.detach().clone());
  data::DataLoader loader(std::make_shared<data::TensorDataset>(x, y),
                          data::DataLoaderOptions().batch_size(5).num_workers(workers));
  for (const data::Example& batch : loader) out.push_back(batch.data.sum(1));
  return out;
}

void start_cuda_and_use_it() {
  Tensor t = ones({1000}, TensorOptions(Device(kCUDA, 0)));
  EXPECT_EQ(t.sum().item<float>(), 1000.f);
}

}  // namespace

TEST(Fork, AChildForkedAfterCudaStartedIsRefusedAtItsFirstCudaUseNamingTheCauseAndTheFix) {
  TIDE_REQUIRE_DEVICES(1);
  start_cuda_and_use_it();
  const Tensor inherited = arange(6, TensorOptions(kFloat32)).to(Device(kCUDA, 0));
  // Objects whose last handle the child drops: their cleanup must neither raise nor hang.
  auto device_tensor = std::make_shared<Tensor>(ones({64}, TensorOptions(Device(kCUDA, 0))));
  auto pinned = std::make_shared<Tensor>(ones({64}).pin_memory());
  auto copy = std::make_shared<Tensor>(pinned->to(Device(kCUDA, 0), /*non_blocking=*/true));
  auto event = std::make_shared<cuda::Event>();
  event->record(cuda::current_stream(0));
  cuda::synchronize(0);
  const int devices = cuda::device_count();
  const ChildResult r = run_in_child([&] {
    Report report;
    const Device cuda0(kCUDA, 0);
    // Each is a first use: every touch is refused, not only the first.
    report.expect_refused("a factory", "[", [&] { (void)ones({2}, TensorOptions(cuda0)); });
    report.expect_refused("cuda::synchronize", "[cuda::synchronize]", [] { cuda::synchronize(0); });
    report.expect_refused("cuda::set_device", "[cuda::set_device]", [] { cuda::set_device(0); });
    report.expect_refused("cuda::current_stream", "[", [] { (void)cuda::current_stream(0); });
    report.expect_refused("a new stream", "[", [] { cuda::Stream s(0); });
    report.expect_refused("an op on an inherited tensor", "[", [&] { (void)(inherited + 1); });
    report.expect_refused("a copy of an inherited tensor", "[", [&] { (void)inherited.cpu(); });
    report.expect_refused("a copy to the device", "[", [&] { (void)ones({2}).to(cuda0); });
    report.expect_refused("pin_memory", "[Tensor::pin_memory]", [] { (void)ones({2}).pin_memory(); });
    report.expect_refused("memory statistics", "[", [] { (void)cuda::memory_allocated(0); });
    device_tensor.reset();
    pinned.reset();
    copy.reset();
    event.reset();
    // Queries of what the parent found still answer, as torch's.
    if (cuda::device_count() != devices) report.fail("device_count() changed in the child");
    if (!cuda::is_available()) report.fail("is_available() is false in the child");
    try {
      cuda::empty_cache();  // the cache is the parent's: nothing to do, as torch
    } catch (const std::exception& e) {
      report.fail(std::string("empty_cache raised: ") + e.what());
    }
    return report.str();
  });
  EXPECT_TRUE(exited_cleanly(r));
  // The parent's devices are untouched.
  EXPECT_EQ((inherited + 1).sum().item<float>(), 21.f);
}

TEST(Fork, ACpuOnlyChildOfAParentThatUsedCudaGetsTheParentsCpuResults) {
  TIDE_REQUIRE_DEVICES(1);
  start_cuda_and_use_it();
  const std::vector<Tensor> expected = cpu_work(2);  // the parent's OpenMP threads exist now
  const ChildResult r = run_in_child([&] {
    Report report;
    const std::vector<Tensor> got = cpu_work(kChildLoaderWorkers);
    if (got.size() != expected.size()) return std::string("a different number of results");
    for (size_t i = 0; i < got.size(); ++i) report.expect_same(("result " + std::to_string(i)).c_str(), expected[i], got[i]);
    // Touching cuda is still refused afterwards, and cpu work still goes on after that.
    report.expect_refused("a factory", "[", [] { (void)zeros({2}, TensorOptions(Device(kCUDA, 0))); });
    report.expect_same("cpu work after the refusal", expected[0], cpu_work(kChildLoaderWorkers)[0]);
    return report.str();
  });
  EXPECT_TRUE(exited_cleanly(r));
}

TEST(Fork, AChildForkedBeforeTheFirstCudaUseStartsItsOwnRuntime) {
  // A fresh process (gtest's threadsafe death-test style re-executes this test alone), so
  // that nothing has started cuda when it forks. Nothing before EXPECT_EXIT may touch cuda:
  // the re-executed process runs the test body up to it.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        if (runtime::backends_initialized()) {
          std::fprintf(stderr, "cuda started before the fork\n");
          std::_Exit(2);
        }
        const ChildResult r = run_in_child([] {
          if (cuda::device_count() == 0) return std::string();  // nothing to use
          const Tensor t = full({100}, 2.0, TensorOptions(Device(kCUDA, 0)));
          const float sum = t.sum().item<float>();
          return sum == 200.f ? std::string() : "the child's sum is " + std::to_string(sum);
        });
        const bool ok = WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0;
        if (!ok) std::fprintf(stderr, "child status %d: %s\n", r.status, r.report.c_str());
        std::_Exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// ---- DataLoader workers are threads -----------------------------------------------------------

namespace {

std::atomic<int> g_forks{0};

void count_fork() { g_forks.fetch_add(1); }

/// Registers count_fork as a prepare handler, once for the process.
bool fork_counter_registered() {
  static const int rc = pthread_atfork(&count_fork, nullptr, nullptr);
  return rc == 0;
}

/// Records the process and the thread that loads each sample.
struct WhoLoads : data::Dataset {
  data::Example get(size_t i) const override {
    {
      std::lock_guard<std::mutex> lock(mutex);
      pids.insert(getpid());
      tids.insert(static_cast<pid_t>(syscall(SYS_gettid)));
    }
    return data::Example{full({3}, static_cast<double>(i)), scalar_tensor(static_cast<int64_t>(i))};
  }
  size_t size() const override { return 40; }
  mutable std::mutex mutex;
  mutable std::set<pid_t> pids, tids;
};

}  // namespace

TEST(Fork, DataLoaderWorkersAreThreadsOfTheProcessAndNeverFork) {
  ASSERT_TRUE(fork_counter_registered());
  const bool pin = cuda::device_count() > 0;
  const auto dataset = std::make_shared<WhoLoads>();
  const int forks_before = g_forks.load();
  data::DataLoader loader(dataset, data::DataLoaderOptions().batch_size(4).num_workers(3).pin_memory(pin));
  int64_t samples = 0;
  for (const data::Example& batch : loader) {
    samples += batch.target.numel();
    if (pin && !batch.data.is_pinned()) ADD_FAILURE() << "a batch is not pinned";
  }
  EXPECT_EQ(samples, 40);
  EXPECT_EQ(g_forks.load(), forks_before) << "a DataLoader epoch forked";
  std::lock_guard<std::mutex> lock(dataset->mutex);
  EXPECT_EQ(dataset->pids, (std::set<pid_t>{getpid()})) << "every sample is loaded in this process";
  EXPECT_EQ(dataset->tids.count(static_cast<pid_t>(syscall(SYS_gettid))), 0u)
      << "with workers, the consumer's thread loads nothing";
  EXPECT_GE(dataset->tids.size(), 1u);
  EXPECT_LE(dataset->tids.size(), 3u) << "at most one thread per worker";
}

TEST(Fork, TheForkCounterOfTheWorkerTestSeesARealFork) {
  // The counter DataLoaderWorkersAreThreads... relies on does count forks.
  ASSERT_TRUE(fork_counter_registered());
  const int before = g_forks.load();
  const ChildResult r = run_in_child([] { return std::string(); });
  EXPECT_TRUE(exited_cleanly(r));
  EXPECT_EQ(g_forks.load(), before + 1);
}
