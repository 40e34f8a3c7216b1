// Asynchrony of tensor ops on simulated GPUs, proven deterministically with held stream
// workers (tide/testing/sim_hooks.h): ops return before they run, exactly the synchronizing
// calls wait, and only for the stream they are ordered on, the seeds' incorrect-stream example
// really reads unfinished data, and copies follow torch's rules (Note [Copies between devices]).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "device_helpers.h"
#include "support/sim_streams.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"
#include "tide/testing/sim_hooks.h"

using namespace tide;
using test::cuda_device;
using test::MustNotWaitFor;
using test::same_bits;
using tide::testing::StreamHold;

namespace {

const Device kCuda0("cuda:0");
const Device kCuda1("cuda:1");

std::vector<float> floats(const Tensor& t) { return t.tolist<float>(); }

}  // namespace

TEST(Async, EveryKindOfOpReturnsBeforeItRuns) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::DeviceGuard start(0);
  const Tensor a = ones({8, 8}, TensorOptions(kCuda0));
  const Tensor idx = tensor({1, 0}, TensorOptions(kCuda0));
  const Tensor target = tensor({0, 1, 2, 3, 4, 5, 6, 7}, TensorOptions(kCuda0));
  cuda::synchronize(0);
  const cuda::Stream stream = cuda::current_stream(0);
  ASSERT_TRUE(stream.query());

  std::vector<Tensor> results;
  {
    StreamHold hold(stream);
    MustNotWaitFor guard(stream);
    results = {a + 1,
               a.matmul(a),
               a.sum(),
               a.sum(1, true),
               a.softmax(1),
               a.index_select(0, idx),
               cat({a, a}),
               a.to(kFloat64),
               a.t().contiguous(),
               a.clone(),
               full({3}, 2.5, TensorOptions(kCuda0)),
               randn({4}, TensorOptions(kCuda0)),
               cross_entropy(a, target),
               tensor({1., 2.}).cuda(0),  // host -> device: the pageable source is staged
               where(a.gt(0), a, 0.0),
               argmax(a, 1)};
    Tensor in_place = a.clone();
    in_place.mul_(4).add_(1);
    results.push_back(in_place);
    Tensor filled = empty({2}, TensorOptions(kCuda0));
    filled.fill_(9);
    results.push_back(filled);
    EXPECT_TRUE(guard.done()) << "an op waited for its stream";
    // Nothing ran: the stream and an event recorded after the ops are not complete.
    EXPECT_FALSE(stream.query());
    EXPECT_FALSE(stream.record_event().query());
  }
  stream.synchronize();
  EXPECT_TRUE(stream.query());
  EXPECT_EQ(floats(results[0]), std::vector<float>(64, 2.f));
  EXPECT_EQ(floats(results[1]), std::vector<float>(64, 8.f));
  EXPECT_EQ(results[2].item<float>(), 64.f);
  EXPECT_EQ(floats(results[3]), std::vector<float>(8, 8.f));
  EXPECT_EQ(floats(results[4]), std::vector<float>(64, 0.125f));
  EXPECT_EQ(floats(results[5]), std::vector<float>(16, 1.f));
  EXPECT_EQ(results[6].sizes(), (std::vector<int64_t>{16, 8}));
  EXPECT_EQ(results[7].tolist<double>(), std::vector<double>(64, 1.0));
  EXPECT_EQ(floats(results[8]), std::vector<float>(64, 1.f));
  EXPECT_EQ(floats(results[9]), std::vector<float>(64, 1.f));
  EXPECT_EQ(floats(results[10]), std::vector<float>(3, 2.5f));
  EXPECT_EQ(results[11].sizes(), std::vector<int64_t>{4});
  EXPECT_FLOAT_EQ(results[12].item<float>(), std::log(8.f));
  EXPECT_EQ(floats(results[13]), (std::vector<float>{1, 2}));
  EXPECT_EQ(floats(results[14]), std::vector<float>(64, 1.f));
  EXPECT_EQ(results[15].tolist<int64_t>(), std::vector<int64_t>(8, 0));
  EXPECT_EQ(floats(results[16]), std::vector<float>(64, 5.f));
  EXPECT_EQ(floats(results[17]), (std::vector<float>{9, 9}));
  for (const Tensor& r : results) EXPECT_EQ(r.device(), kCuda0);
}

TEST(Async, OpsOnOneStreamRunInOrderAsIfSynchronous) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  Tensor x = zeros({16}, TensorOptions(kCuda0));
  const cuda::Stream stream = cuda::current_stream(0);
  {
    StreamHold hold(stream);
    for (int i = 0; i < 20; ++i) x.add_(1).mul_(2);  // order matters: x = 2 (x + 1)
    EXPECT_FALSE(stream.query());
  }
  // x_n = 2^(n+1) - 2, exact in float32 for n = 20.
  EXPECT_EQ(x.tolist<float>(), std::vector<float>(16, 2097150.f));
}

TEST(Async, ItemTolistPrintingAndCopiesToCpuDoNotWaitForOtherStreams) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::DeviceGuard start(0);
  const Tensor a = full({4}, 2.0, TensorOptions(kCuda0));
  cuda::synchronize(0);
  const cuda::Stream side(0);
  ASSERT_NE(side, cuda::current_stream(0));
  StreamHold hold(side);
  Tensor pending;
  {
    cuda::StreamGuard on_side(side);
    pending = a * 10;  // waits on the held side stream
  }
  EXPECT_FALSE(side.query());
  {
    MustNotWaitFor guard(side);
    const Tensor s = a.sum();  // on the current (default) stream
    EXPECT_EQ(s.item<float>(), 8.f);
    EXPECT_EQ(a.tolist<float>(), (std::vector<float>{2, 2, 2, 2}));
    EXPECT_EQ(a.str(), "tensor([2., 2., 2., 2.], device='cuda:0')");
    std::ostringstream os;
    os << s;
    EXPECT_EQ(os.str(), "tensor(8., device='cuda:0')");
    EXPECT_EQ(floats(a.cpu()), (std::vector<float>{2, 2, 2, 2}));
    Tensor host = zeros({4});
    host.copy_(a);
    EXPECT_EQ(floats(host), (std::vector<float>{2, 2, 2, 2}));
    EXPECT_TRUE(guard.done()) << "a synchronizing call waited for another stream";
  }
  EXPECT_FALSE(side.query());  // still held: nothing above waited for it
  hold.release();
  side.synchronize();
  EXPECT_EQ(floats(pending), (std::vector<float>{20, 20, 20, 20}));
}

TEST(Async, ItemTolistAndPrintingWaitForPendingWorkOnTheCurrentStream) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::DeviceGuard start(0);
  Tensor out = zeros({1}, TensorOptions(kCuda0));
  cuda::synchronize(0);
  const cuda::Stream stream = cuda::current_stream(0);
  using Reader = std::function<std::string(const Tensor&)>;
  const std::vector<std::pair<const char*, Reader>> readers{
      {"item()", [](const Tensor& t) { return std::to_string(t.item<float>()); }},
      {"tolist()", [](const Tensor& t) { return std::to_string(t.tolist<float>().at(0)); }},
      {"printing", [](const Tensor& t) { return t.str(); }},
      {"copy to cpu", [](const Tensor& t) { return std::to_string(t.cpu().item<float>()); }},
  };
  const std::vector<std::string> expected{"5.000000", "6.000000", "tensor([7.], device='cuda:0')",
                                          "8.000000"};
  for (size_t k = 0; k < readers.size(); ++k) {
    SCOPED_TRACE(readers[k].first);
    std::string seen;
    std::atomic<bool> returned{false};
    StreamHold hold(stream);
    out.fill_(static_cast<double>(5 + k));
    const uint64_t before = test::sim_last_enqueued(stream);
    // The reader's current stream on cuda:0 is the default stream too, so its read is
    // ordered after the fill. Once its copy is enqueued, a read that did not wait would
    // return the old value now, while the stream is still held.
    std::thread reader([&] {
      seen = readers[k].second(out);
      returned = true;
    });
    while (test::sim_last_enqueued(stream) == before && !returned) std::this_thread::yield();
    EXPECT_FALSE(returned.load()) << "returned while the stream was held";
    hold.release();
    reader.join();
    EXPECT_EQ(seen, expected[k]);
  }
}

// The seeds' incorrect example:
//   A = torch.empty((100, 100), device=cuda).normal_(0.0, 1.0)
//   with torch.cuda.stream(s):
//       B = torch.sum(A)   # may start before normal_() finishes
// With the default stream held, normal_ has not run when the side stream sums A: B is the sum
// of A's previous contents (zeros), not of the normal samples.
TEST(Async, TheSeedsIncorrectStreamExampleSumsUnfinishedData) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::DeviceGuard start(0);
  const cuda::Stream s(0);
  Tensor A = zeros({100, 100}, TensorOptions(Device("cuda")));
  cuda::synchronize(0);
  Tensor B;
  bool raced = false;
  {
    StreamHold hold(cuda::default_stream(0));
    A.normal_(0.0, 1.0);
    {
      cuda::StreamGuard with_s(s);
      raced = TIDE_DELIBERATE_RACE(B = sum(A));
    }
    // s is not held: B is computed now, while normal_ has not run yet.
    s.synchronize();
    EXPECT_FALSE(cuda::default_stream(0).query());
  }
  cuda::synchronize(0);
  if (!raced) GTEST_SKIP() << test::kRaceCaught;
  EXPECT_EQ(B.item<float>(), 0.f) << "the side stream summed A before normal_ wrote it";
  const float real_sum = A.sum().item<float>();
  EXPECT_NE(real_sum, 0.f);
  EXPECT_EQ(A.ne(0).sum().item<int64_t>(), 10000);
}

// The corrected example: s.wait_stream(torch.cuda.current_stream()) before using A on s.
TEST(Async, TheSeedsExampleWithWaitStreamSumsTheFinishedData) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::DeviceGuard start(0);
  const cuda::Stream s(0);
  Tensor A = zeros({100, 100}, TensorOptions(Device("cuda")));
  cuda::synchronize(0);
  Tensor B;
  {
    StreamHold hold(cuda::default_stream(0));
    A.normal_(0.0, 1.0);
    s.wait_stream(cuda::current_stream());
    {
      cuda::StreamGuard with_s(s);
      B = sum(A);
    }
    EXPECT_FALSE(s.query());  // the sum waits for the held normal_
  }
  s.synchronize();
  const Tensor expected = A.sum();  // on the default stream, after normal_
  EXPECT_TRUE(same_bits(expected, B));
  EXPECT_NE(B.item<float>(), 0.f);
}

TEST(Async, HostToDeviceCopyReturnsAtOnceAndThePageableSourceMayBeReused) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::DeviceGuard start(0);
  Tensor dst = zeros({4}, TensorOptions(kCuda0));
  cuda::synchronize(0);
  Tensor src = tensor({1., 2., 3., 4.});
  const cuda::Stream stream = cuda::current_stream(0);
  Tensor moved;
  {
    StreamHold hold(stream);
    MustNotWaitFor guard(stream);
    dst.copy_(src);
    moved = src.to(kCuda0);
    EXPECT_TRUE(guard.done()) << "a host -> device copy waited for the device";
    src.fill_(-1);  // reusing the source at once is safe
    EXPECT_FALSE(stream.query());
  }
  EXPECT_EQ(floats(dst), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(floats(moved), (std::vector<float>{1, 2, 3, 4}));
}

TEST(Async, HostToDeviceCopyIsOrderedAfterEarlierWorkOnTheDestinationStream) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  Tensor dst = zeros({3}, TensorOptions(kCuda0));
  cuda::synchronize(0);
  {
    StreamHold hold(cuda::current_stream(0));
    dst.fill_(8);
    dst.copy_(tensor({1., 2., 3.}));  // runs after the fill: the copy wins
    dst.add_(1);
  }
  EXPECT_EQ(floats(dst), (std::vector<float>{2, 3, 4}));
}

TEST(Async, DeviceToDeviceCopyWaitsForTheDestinationsCurrentStream) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  Tensor src = tensor({1., 2., 3.}, TensorOptions(kCuda0));
  Tensor dst = zeros({3}, TensorOptions(kCuda1));
  cuda::synchronize(0);
  cuda::synchronize(1);
  const cuda::Stream dst_stream(1);  // a non-default current stream on the destination
  cuda::set_stream(dst_stream);
  {
    StreamHold hold(dst_stream);
    dst.fill_(7);    // pending on the destination's current stream
    dst.copy_(src);  // on cuda:0's current stream, after the pending fill
    EXPECT_FALSE(cuda::current_stream(0).query()) << "the copy did not wait for the destination";
    EXPECT_FALSE(dst_stream.query());
  }
  cuda::current_stream(0).synchronize();
  EXPECT_EQ(floats(dst), (std::vector<float>{1, 2, 3}));  // not 7: the copy ran after the fill
  cuda::set_stream(cuda::default_stream(1));
}

TEST(Async, WorkOnTheDestinationWaitsForADeviceToDeviceCopy) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  Tensor src = tensor({1., 2., 3.}, TensorOptions(kCuda0));
  Tensor dst = zeros({3}, TensorOptions(kCuda1));
  cuda::synchronize(0);
  cuda::synchronize(1);
  Tensor later;
  {
    StreamHold hold(cuda::current_stream(0));  // the source's stream, where the copy runs
    src.mul_(10);
    dst.copy_(src);
    later = dst * 2;  // on cuda:1's current stream: ordered after the copy
    EXPECT_FALSE(cuda::current_stream(1).query());
  }
  EXPECT_EQ(floats(later), (std::vector<float>{20, 40, 60}));
  EXPECT_EQ(floats(dst), (std::vector<float>{10, 20, 30}));
  EXPECT_EQ(floats(src.to(kCuda1)), (std::vector<float>{10, 20, 30}));
}

TEST(Async, DeviceToHostCopyWaitsForTheSourcesCurrentStream) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  Tensor x = zeros({2}, TensorOptions(kCuda0));
  cuda::synchronize(0);
  Tensor host = zeros({2});
  const cuda::Stream stream = cuda::current_stream(0);
  std::atomic<bool> returned{false};
  StreamHold hold(stream);
  x.fill_(3);
  const uint64_t before = test::sim_last_enqueued(stream);
  std::thread copier([&] {
    host.copy_(x);  // blocking: ordered after the fill on the same stream, waits for it
    returned = true;
  });
  // Once the copy is enqueued, a copy that did not wait would return now, with zeros.
  while (test::sim_last_enqueued(stream) == before && !returned) std::this_thread::yield();
  EXPECT_FALSE(returned.load()) << "a blocking copy to cpu returned while its stream was held";
  hold.release();
  copier.join();
  EXPECT_EQ(floats(host), (std::vector<float>{3, 3}));
}

TEST(Async, UnderLaunchBlockingEveryOpIsCompleteWhenItReturns) {
  TIDE_REQUIRE_DEVICES(1);
  if (!test::launch_blocking()) GTEST_SKIP() << "needs CUDA_LAUNCH_BLOCKING=1";
  cuda::DeviceGuard start(0);
  const cuda::Stream stream = cuda::current_stream(0);
  Tensor a = ones({32, 32}, TensorOptions(kCuda0));
  EXPECT_TRUE(stream.query());
  Tensor b = a.matmul(a);
  EXPECT_TRUE(stream.query());
  Tensor c = softmax(b, 1).sum();
  EXPECT_TRUE(stream.query());
  Tensor d = tensor({1., 2.}).cuda(0);
  EXPECT_TRUE(stream.query());
  const cuda::Stream side(0);
  {
    cuda::StreamGuard on_side(side);
    Tensor e = a * 2;
    EXPECT_TRUE(side.query());
  }
  if (cuda::device_count() >= 2) {
    Tensor f = d.to(kCuda1);
    EXPECT_TRUE(cuda::current_stream(0).query());
    EXPECT_TRUE(cuda::current_stream(1).query());
  }
  EXPECT_EQ(c.item<float>(), 32.f);
}
