// Host threads using tide at once, each with its own current device and current streams:
// ops and copies on every device from every thread give the cpu's results. Bounded to run in
// a few seconds, also under the tsan preset.

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "device_helpers.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"

using namespace tide;
using test::cuda_device;
using test::same_bits;

namespace {

/// The chain of ops every thread runs: on cpu for the expected values and on devices.
Tensor compute(const Tensor& x, int salt) {
  const Tensor y = (x * 0.5 + salt).tanh();
  const Tensor m = y.view({16, 16}).matmul(y.view({16, 16}).t());
  const Tensor rows = softmax(m, 1).sum(1) + std::get<0>(m.max(1));
  return cat({rows, m.index_select(0, tensor({3, 1}, TensorOptions(x.device()))).flatten()});
}

/// One thread's input for one round.
Tensor input(int thread, int round) {
  return arange(256, TensorOptions(kFloat32)).div(64).sub(thread).mul(round + 1);
}

}  // namespace

TEST(Threads, ManyThreadsWithTheirOwnDevicesAndStreamsComputeAndCopyCorrectly) {
  TIDE_REQUIRE_DEVICES(1);
  constexpr int kThreads = 8, kRounds = 24;
  const int devices = cuda::device_count();
  std::atomic<int> wrong_device{0}, wrong_current{0}, wrong_values{0};
  std::vector<std::string> reports(kThreads);
  // Three pooled streams per device (two normal, one high priority), shared by the threads:
  // a bounded set, so each stream's memory pool stays small (the 64MiB configuration).
  std::vector<std::vector<cuda::Stream>> streams(static_cast<size_t>(devices));
  for (int d = 0; d < devices; ++d) {
    streams[d] = {cuda::Stream(d), cuda::Stream(d), cuda::Stream(d, -1)};
  }

  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        std::vector<Tensor> expected, got;
        for (int r = 0; r < kRounds; ++r) {
          const int d = (t + r) % devices, other = (d + 1) % devices;
          cuda::set_device(d);  // this thread's own current device
          // A pooled stream current on d; the default stream elsewhere.
          const cuda::Stream stream =
              streams[static_cast<size_t>(d)][static_cast<size_t>(t + r) % 3];
          cuda::StreamGuard on_stream(stream);
          const Tensor host = input(t, r);
          Tensor x = host.cuda();  // host -> device on the current device's current stream
          Tensor result = compute(x, t);
          if (result.device() != cuda_device(d)) ++wrong_device;
          // device -> device onto `other`, then more work there on this thread's current
          // stream of `other`, then back to the host.
          Tensor moved = result.to(cuda_device(other));
          Tensor doubled = moved * 2;
          if (doubled.device() != cuda_device(other)) ++wrong_device;
          Tensor into =
              empty({static_cast<int64_t>(doubled.numel())}, TensorOptions(cuda_device(d)));
          into.copy_(doubled);  // and back to d: a copy in the other direction
          expected.push_back(compute(host, t) * 2);
          got.push_back(into);
          if (cuda::current_device() != d) ++wrong_current;
          if (cuda::current_stream(d) != stream) ++wrong_current;
          // `into` is read back later on d's default stream (current once the guard is
          // gone): order that after this round's stream, as torch requires of the user.
          cuda::default_stream(d).wait_stream(stream);
        }
        // Read everything back at the end: results stayed correct while other threads
        // worked.
        for (size_t i = 0; i < got.size(); ++i) {
          const auto same = test::matches_cpu(expected[i], got[i]);
          if (!same) {
            ++wrong_values;
            reports[static_cast<size_t>(t)] += same.message();
          }
        }
      } catch (const std::exception& e) {
        reports[static_cast<size_t>(t)] += e.what();
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong_device.load(), 0);
  EXPECT_EQ(wrong_current.load(), 0);
  EXPECT_EQ(wrong_values.load(), 0);
  for (const std::string& r : reports) EXPECT_EQ(r, "");
  for (int d = 0; d < devices; ++d) EXPECT_NO_THROW(cuda::synchronize(d));
}

TEST(Threads, EachThreadHasItsOwnCurrentDeviceAndStreams) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::set_device(0);
  const cuda::Stream mine(1);
  cuda::set_stream(mine);
  int seen_device = -1;
  cuda::Stream seen_stream = mine;
  Device made_on("cpu");
  std::thread other([&] {
    seen_device = cuda::current_device();
    seen_stream = cuda::current_stream(1);
    cuda::set_device(1);
    made_on = empty({1}, TensorOptions(Device("cuda"))).device();
  });
  other.join();
  EXPECT_EQ(seen_device, 0);
  EXPECT_EQ(seen_stream, cuda::default_stream(1));
  EXPECT_EQ(made_on, cuda_device(1));
  EXPECT_EQ(cuda::current_device(),
            0);  // the other thread's set_device did not change ours
  EXPECT_EQ(cuda::current_stream(1), mine);
  cuda::set_stream(cuda::default_stream(1));
}

TEST(Threads, ThreadsSharingOneTensorReadItConsistently) {
  TIDE_REQUIRE_DEVICES(1);
  const int devices = cuda::device_count();
  manual_seed(17);
  const Tensor host = randn({32, 32});
  const Tensor shared = host.cuda(0);
  const Tensor expected = host.matmul(host).sum(0);
  constexpr int kThreads = 6;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const int d = t % devices;
      // Each reader copies the shared tensor to its device (on this thread's current stream of
      // cuda:0, the default stream, where `shared` was written) and works there.
      const Tensor local = shared.to(cuda_device(d));
      for (int i = 0; i < 5; ++i) {
        if (!test::matches_cpu(expected, local.matmul(local).sum(0))) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}
