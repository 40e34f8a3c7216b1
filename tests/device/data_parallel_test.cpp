// nn::DataParallel on cuda devices: forward on 2 and 4 devices equals the module's own forward,
// uneven batches run fewer replicas (chunk semantics), backward accumulates the module's own
// gradients, the same seeded SGD-with-momentum training on the cpu, one device and DataParallel
// on 2 and 4 devices ends with the same parameters, replica threads inherit grad mode, scope
// and current streams, a failing replica reaches the caller naming its device, device_ids and
// output_device are checked, and dim=1 scatters and gathers columns.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "device_helpers.h"
#include "support/cudnn_switches_guard.h"
#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::cuda_device;
using test::error_of;
using ::testing::HasSubstr;

namespace {

/// Whether `actual` (any device) holds `expected`'s values within float tolerance: the
/// replicas sum a batch's gradients in another order than one device does.
::testing::AssertionResult close(const Tensor& expected, const Tensor& actual, double rtol = 1e-5,
                                 double atol = 1e-6) {
  if (expected.sizes() != actual.sizes()) {
    return ::testing::AssertionFailure() << "shape differs: " << actual.str() << " vs expected "
                                         << expected.str();
  }
  const std::vector<double> e = expected.detach().cpu().to(kFloat64).contiguous().tolist<double>();
  const std::vector<double> a = actual.detach().cpu().to(kFloat64).contiguous().tolist<double>();
  for (size_t i = 0; i < e.size(); ++i) {
    if (!(std::abs(a[i] - e[i]) <= atol + rtol * std::abs(e[i]))) {
      return ::testing::AssertionFailure() << "element " << i << " is " << a[i] << ", expected "
                                           << e[i] << "\n  actual   " << actual.detach().cpu().str()
                                           << "\n  expected " << expected.detach().cpu().str();
    }
  }
  return ::testing::AssertionSuccess();
}

nn::Sequential mlp(uint64_t seed) {
  manual_seed(seed);
  return nn::Sequential(nn::Linear(6, 16), nn::ReLU(), nn::Linear(16, 8), nn::ReLU(),
                        nn::Linear(8, 3));
}

/// What one replica saw when it ran.
struct Call {
  int device = -1;
  int64_t rows = 0;
  std::thread::id thread;
  bool grad_enabled = false;
  std::string scope;
  int current_device = -1;
  uint64_t stream_id = 0;
};

/// Shared by a Probe and its replicas (clone copies the pointer).
struct ProbeLog {
  std::mutex mutex;
  std::vector<Call> calls;
  int fail_on_device = -1;  // a replica on this device throws
  // A rendezvous: each replica waits until `expected` replicas have arrived (0: no waiting).
  int expected = 0, arrived = 0;
  bool all_arrived = false;
  std::condition_variable cv;

  std::vector<Call> take() {
    std::lock_guard<std::mutex> lock(mutex);
    return std::exchange(calls, {});
  }
};

/// x * weight (elementwise over the last dim), recording each call in the shared log.
struct Probe : nn::Cloneable<Probe> {
  explicit Probe(int64_t features = 4) : features(features), log(std::make_shared<ProbeLog>()) {
    reset();
    NoGradGuard no_grad;
    weight.copy_(arange(features, TensorOptions(kFloat32)).add(1).div(4));
  }
  void reset() override { weight = register_parameter("weight", empty({features})); }
  Tensor forward(const Tensor& x) override {
    Call call;
    call.device = x.get_device();
    call.rows = x.size(0);
    call.thread = std::this_thread::get_id();
    call.grad_enabled = GradMode::is_enabled();
    call.scope = Scope::current() ? Scope::current() : "";
    call.current_device = cuda::current_device();
    call.stream_id = x.is_cuda() ? cuda::current_stream(x.get_device()).id() : 0;
    std::unique_lock<std::mutex> lock(log->mutex);
    log->calls.push_back(call);
    if (log->expected > 0) {
      if (++log->arrived == log->expected) {
        log->all_arrived = true;
        log->cv.notify_all();
      }
      // Bounded so that a DataParallel running replicas one after another fails, not hangs.
      log->cv.wait_for(lock, std::chrono::seconds(60), [&] { return log->all_arrived; });
    }
    const bool fail = log->fail_on_device == x.get_device();
    lock.unlock();
    TIDE_CHECK(!fail, "[Probe] failing on purpose on device ", x.get_device());
    return x * weight;
  }
  int64_t features;
  std::shared_ptr<ProbeLog> log;
  Tensor weight;
};

/// forward on `devices` devices equals the module's own forward on cuda:0.
void expect_forward_matches_module(int devices) {
  nn::Sequential net = mlp(1);
  net.cuda(0);
  manual_seed(2);
  const Tensor x = randn({10, 6}).cuda(0);
  std::vector<int> ids;
  for (int d = 0; d < devices; ++d) ids.push_back(d);
  nn::DataParallel model(net, ids);
  const Tensor expected = net(x);
  const Tensor out = model(x);
  EXPECT_EQ(out.device(), cuda_device(0));
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{10, 3}));
  EXPECT_TRUE(close(expected, out));
  // A second forward reuses the replicas and still sees the module's current parameters.
  {
    NoGradGuard no_grad;
    for (Tensor p : net.parameters()) p.mul_(0.5);
  }
  EXPECT_TRUE(close(net(x), model(x)));
}

std::vector<double> grads_of(const nn::Module& module) {
  std::vector<double> out;
  for (const Tensor& p : module.parameters()) {
    for (double g : p.grad().cpu().to(kFloat64).contiguous().tolist<double>()) out.push_back(g);
  }
  return out;
}

/// backward through DataParallel on `devices` devices gives the module's grads on one device,
/// in the module's own parameters (and the input's gradient on its device).
void expect_backward_matches_module(int devices) {
  nn::Sequential net = mlp(3);
  net.cuda(0);
  manual_seed(4);
  const Tensor x = randn({9, 6}).cuda(0).requires_grad_();
  std::vector<int> ids;
  for (int d = 0; d < devices; ++d) ids.push_back(d);
  nn::DataParallel model(net, ids);

  net(x).pow(2).sum().backward();
  const std::vector<Tensor> expected_params = [&] {
    std::vector<Tensor> out;
    for (const Tensor& p : net.parameters()) out.push_back(p.grad().clone());
    return out;
  }();
  const Tensor expected_input_grad = x.grad().clone();
  net.zero_grad();
  x.mutable_grad() = Tensor();

  model(x).pow(2).sum().backward();
  const std::vector<Tensor> params = net.parameters();
  ASSERT_EQ(params.size(), expected_params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    ASSERT_TRUE(params[i].grad().defined()) << "parameter " << i;
    EXPECT_EQ(params[i].grad().device(), cuda_device(0));
    EXPECT_TRUE(params[i].is_leaf());
    EXPECT_TRUE(close(expected_params[i], params[i].grad(), 1e-4, 1e-5)) << "parameter " << i;
  }
  ASSERT_TRUE(x.grad().defined());
  EXPECT_EQ(x.grad().device(), cuda_device(0));
  EXPECT_TRUE(close(expected_input_grad, x.grad(), 1e-4, 1e-5));
}

/// How the training run places the model: the cpu, one device without DataParallel, or
/// DataParallel over the first `devices` devices.
struct Placement {
  enum Kind { Cpu, OneDevice, Parallel } kind;
  int devices = 0;
};

/// The parameters after a few steps of SGD with momentum on deterministic synthetic data: the
/// same seeds, so the same initial parameters and batches, wherever it runs.
std::vector<Tensor> train(Placement where) {
  manual_seed(11);
  nn::Sequential net(nn::Linear(5, 12), nn::ReLU(), nn::Linear(12, 12), nn::ReLU(),
                     nn::Linear(12, 4));
  nn::CrossEntropyLoss criterion;
  const Device device = where.kind == Placement::Cpu ? Device(kCPU) : cuda_device(0);
  net.to(device);
  std::unique_ptr<nn::DataParallel> parallel;
  if (where.kind == Placement::Parallel) {
    std::vector<int> ids;
    for (int d = 0; d < where.devices; ++d) ids.push_back(d);
    parallel = std::make_unique<nn::DataParallel>(net, ids);
  }
  nn::Module& model = parallel ? static_cast<nn::Module&>(*parallel) : net;
  optim::SGD opt(model.parameters(), optim::SGDOptions(0.05).momentum(0.9));
  for (int step = 0; step < 6; ++step) {
    // Batches of 10: on 4 devices the chunks are 3, 3, 3 and 1.
    manual_seed(100 + static_cast<uint64_t>(step));
    const Tensor x = randn({10, 5});
    const Tensor y = tensor({0, 1, 2, 3, 0, 1, 2, 3, 0, 1});
    opt.zero_grad();
    // The batch stays on the cpu for DataParallel: scatter copies each chunk to its device.
    const Tensor out = model(parallel ? x : x.to(device));
    EXPECT_EQ(out.device(), device);
    criterion(out, y.to(device)).backward();
    opt.step();
  }
  std::vector<Tensor> out;
  for (const Tensor& p : net.parameters()) out.push_back(p.detach().cpu());
  return out;
}

void expect_same_parameters(const std::vector<Tensor>& expected, const std::vector<Tensor>& got,
                            const char* what) {
  ASSERT_EQ(expected.size(), got.size()) << what;
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(close(expected[i], got[i], 1e-4, 1e-5)) << what << ", parameter " << i;
  }
}

std::vector<int> devices_of(const std::vector<Call>& calls) {
  std::vector<int> out;
  for (const Call& c : calls) out.push_back(c.device);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int64_t> rows_by_device(const std::vector<Call>& calls, int devices) {
  std::vector<int64_t> out(static_cast<size_t>(devices), 0);
  for (const Call& c : calls) out[static_cast<size_t>(c.device)] = c.rows;
  return out;
}

}  // namespace

TEST(DataParallel, ForwardOnTwoDevicesEqualsTheModulesOwnForward) {
  TIDE_REQUIRE_DEVICES(2);
  expect_forward_matches_module(2);
}

TEST(DataParallel, ForwardOnFourDevicesEqualsTheModulesOwnForward) {
  TIDE_REQUIRE_DEVICES(4);
  expect_forward_matches_module(4);
}

TEST(DataParallel, DefaultsUseEveryDeviceAndGatherOnTheFirst) {
  TIDE_REQUIRE_DEVICES(1);
  Probe probe;
  probe.cuda(0);
  nn::DataParallel model(probe);
  ASSERT_EQ(model.device_ids().size(), static_cast<size_t>(cuda::device_count()));
  for (int d = 0; d < cuda::device_count(); ++d) EXPECT_EQ(model.device_ids()[d], d);
  EXPECT_EQ(model.output_device(), 0);
  EXPECT_EQ(model.dim(), 0);
  const Tensor x = ones({8, 4});
  EXPECT_EQ(model(x).device(), cuda_device(0));
  EXPECT_EQ(devices_of(probe.log->take()).size(), std::min<size_t>(8, model.device_ids().size()));
}

TEST(DataParallel, ABatchOfFiveOnFourDevicesIsSplitTwoTwoOne) {
  TIDE_REQUIRE_DEVICES(4);
  Probe probe;
  probe.cuda(0);
  nn::DataParallel model(probe, {0, 1, 2, 3});
  const Tensor x = arange(20, TensorOptions(kFloat32)).view({5, 4});
  const Tensor out = model(x);
  const std::vector<Call> calls = probe.log->take();
  // chunk(4) of 5 rows: pieces of ceil(5/4) = 2, so 2, 2 and 1 — three replicas, not four.
  EXPECT_EQ(devices_of(calls), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(rows_by_device(calls, 4), (std::vector<int64_t>{2, 2, 1, 0}));
  EXPECT_TRUE(close(probe(x.cuda(0)), out));
}

TEST(DataParallel, ABatchOfTwoOnFourDevicesUsesTwoReplicas) {
  TIDE_REQUIRE_DEVICES(4);
  Probe probe;
  probe.cuda(0);
  nn::DataParallel model(probe, {0, 1, 2, 3});
  const Tensor x = arange(8, TensorOptions(kFloat32)).view({2, 4}).cuda(0).requires_grad_();
  const Tensor out = model(x);
  EXPECT_EQ(devices_of(probe.log->take()), (std::vector<int>{0, 1}));
  EXPECT_TRUE(close(probe(x), out));
  probe.log->take();
  out.sum().backward();
  EXPECT_TRUE(close(probe.weight.expand({2, 4}), x.grad()));
  EXPECT_TRUE(close(x.detach().sum(0), probe.weight.grad()));
  // Then a batch of 4 on the same DataParallel uses all four.
  (void)model(ones({4, 4}));
  EXPECT_EQ(devices_of(probe.log->take()), (std::vector<int>{0, 1, 2, 3}));
}

TEST(DataParallel, BackwardOnTwoDevicesAccumulatesTheSingleDeviceGradsInTheModule) {
  TIDE_REQUIRE_DEVICES(2);
  expect_backward_matches_module(2);
}

TEST(DataParallel, BackwardOnFourDevicesAccumulatesTheSingleDeviceGradsInTheModule) {
  TIDE_REQUIRE_DEVICES(4);
  expect_backward_matches_module(4);
}

TEST(DataParallel, GradsAccumulateAcrossBackwardsLikeTheModules) {
  TIDE_REQUIRE_DEVICES(2);
  nn::Sequential net = mlp(5);
  net.cuda(0);
  const Tensor x = randn({6, 6}).cuda(0);
  nn::DataParallel model(net, {0, 1});
  net(x).sum().backward();
  net(x).sum().backward();
  const std::vector<double> expected = grads_of(net);
  net.zero_grad();
  model(x).sum().backward();
  model(x).sum().backward();
  const std::vector<double> got = grads_of(net);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-4) << i;
}

// The acceptance test: DataParallel must not change what training computes.
TEST(DataParallel, TrainingOnOneDeviceWithAndWithoutDataParallelMatchesTheCpu) {
  TIDE_REQUIRE_DEVICES(1);
  const std::vector<Tensor> cpu = train({Placement::Cpu});
  expect_same_parameters(cpu, train({Placement::OneDevice}), "one device");
  expect_same_parameters(cpu, train({Placement::Parallel, 1}), "DataParallel on one device");
}

TEST(DataParallel, TrainingWithDataParallelOnTwoDevicesEndsWithTheCpusParameters) {
  TIDE_REQUIRE_DEVICES(2);
  const std::vector<Tensor> cpu = train({Placement::Cpu});
  expect_same_parameters(cpu, train({Placement::OneDevice}), "one device");
  expect_same_parameters(cpu, train({Placement::Parallel, 2}), "DataParallel on two devices");
}

TEST(DataParallel, TrainingWithDataParallelOnFourDevicesEndsWithTheCpusParameters) {
  TIDE_REQUIRE_DEVICES(4);
  const std::vector<Tensor> cpu = train({Placement::Cpu});
  expect_same_parameters(cpu, train({Placement::OneDevice}), "one device");
  expect_same_parameters(cpu, train({Placement::Parallel, 4}), "DataParallel on four devices");
}

TEST(DataParallel, ReplicasInheritTheCallersGradModeAndScope) {
  TIDE_REQUIRE_DEVICES(2);
  Probe probe;
  probe.cuda(0);
  const int n = cuda::device_count();
  nn::DataParallel model(probe);
  const Tensor x = ones({2 * n, 4}).cuda(0);
  {
    Scope scope("dp-training-step");
    const Tensor out = model(x);
    EXPECT_TRUE(out.requires_grad());
    const std::vector<Call> calls = probe.log->take();
    ASSERT_EQ(calls.size(), static_cast<size_t>(n));
    for (const Call& c : calls) {
      EXPECT_TRUE(c.grad_enabled) << "replica on cuda:" << c.device;
      EXPECT_EQ(c.scope, "dp-training-step") << "replica on cuda:" << c.device;
      EXPECT_EQ(c.current_device, c.device);
      // Replica 0 runs on the calling thread, the others on their own threads.
      EXPECT_EQ(c.thread == std::this_thread::get_id(), c.device == 0);
    }
  }
  {
    NoGradGuard no_grad;
    const Tensor out = model(x);
    EXPECT_FALSE(out.requires_grad());
    for (const Call& c : probe.log->take()) {
      EXPECT_FALSE(c.grad_enabled) << "replica on cuda:" << c.device;
      EXPECT_EQ(c.scope, "") << "replica on cuda:" << c.device;
    }
  }
  EXPECT_TRUE(GradMode::is_enabled());
}

TEST(DataParallel, ReplicasRunConcurrentlyOnThreadsReusedAcrossForwards) {
  TIDE_REQUIRE_DEVICES(2);
  Probe probe;
  probe.cuda(0);
  const int n = cuda::device_count();
  nn::DataParallel model(probe);
  // Every replica waits for all the others: run one after another, they would time out.
  probe.log->expected = n;
  (void)model(ones({n, 4}));
  std::vector<Call> first = probe.log->take();
  EXPECT_TRUE(probe.log->all_arrived) << "the replicas did not run at the same time";
  probe.log->expected = 0;
  (void)model(ones({n, 4}));
  std::vector<Call> second = probe.log->take();
  ASSERT_EQ(first.size(), static_cast<size_t>(n));
  ASSERT_EQ(second.size(), static_cast<size_t>(n));
  auto by_device = [](std::vector<Call>& calls) {
    std::sort(calls.begin(), calls.end(), [](const Call& a, const Call& b) { return a.device < b.device; });
  };
  by_device(first);
  by_device(second);
  for (int d = 0; d < n; ++d) EXPECT_EQ(first[d].thread, second[d].thread) << "cuda:" << d;
}

TEST(DataParallel, ReplicasRunOnTheCallersCurrentStreamOfTheirDevice) {
  TIDE_REQUIRE_DEVICES(2);
  Probe probe;
  probe.cuda(0);
  nn::DataParallel model(probe, {0, 1});
  const cuda::Stream side0(0), side1(1);
  const Tensor x = randn({4, 4}).cuda(0).requires_grad_();
  // The side streams start after what the default streams did (x, the parameters).
  side0.wait_stream(cuda::default_stream(0));
  side1.wait_stream(cuda::default_stream(1));
  cuda::StreamGuard g1(side1);  // the caller's current stream of cuda:1
  cuda::StreamGuard g0(side0);  // and of cuda:0
  const Tensor expected = probe(x);
  probe.log->take();
  const Tensor out = model(x);
  const std::vector<Call> calls = probe.log->take();
  ASSERT_EQ(calls.size(), 2u);
  for (const Call& c : calls) {
    EXPECT_EQ(c.stream_id, (c.device == 0 ? side0 : side1).id()) << "replica on cuda:" << c.device;
  }
  // Reading back on the side streams: ordered after the replicas' work and the gather.
  EXPECT_TRUE(close(expected, out));
  out.sum().backward();
  EXPECT_TRUE(close(x.detach().sum(0), probe.weight.grad()));
}

TEST(DataParallel, AFailingReplicaReachesTheCallerNamingItsDevice) {
  TIDE_REQUIRE_DEVICES(2);
  Probe probe;
  probe.cuda(0);
  nn::DataParallel model(probe, {0, 1});
  probe.log->fail_on_device = 1;
  const Tensor x = ones({4, 4}).cuda(0);
  const std::string message = error_of([&] { (void)model(x); });
  EXPECT_THAT(message, HasSubstr("[DataParallel] replica 1 on cuda:1 failed: "));
  EXPECT_THAT(message, HasSubstr("[Probe] failing on purpose on device 1"));
  // Both replicas ran to the end (the caller waited for them).
  EXPECT_EQ(devices_of(probe.log->take()), (std::vector<int>{0, 1}));
  // A batch of one uses only cuda:0 and works; after the failure is gone, so does a full one.
  EXPECT_TRUE(close(probe(x.narrow(0, 0, 1)), model(x.narrow(0, 0, 1))));
  probe.log->fail_on_device = -1;
  EXPECT_TRUE(close(probe(x), model(x)));
  // A failure on the calling thread's replica 0 names cuda:0.
  probe.log->fail_on_device = 0;
  EXPECT_THAT(error_of([&] { (void)model(x); }),
              HasSubstr("[DataParallel] replica 0 on cuda:0 failed: [Probe] failing on purpose"));
  probe.log->fail_on_device = -1;
  EXPECT_TRUE(close(probe(x), model(x)));
}

TEST(DataParallel, RepeatedDeviceIdsAreRejected) {
  TIDE_REQUIRE_DEVICES(1);
  Probe probe;
  probe.cuda(0);
  EXPECT_THAT(error_of([&] { nn::DataParallel(probe, {0, 0}); }),
              HasSubstr("[DataParallel] device_ids {0, 0} holds cuda:0 more than once"));
}

TEST(DataParallel, DeviceIdsOutOfRangeAreRejected) {
  TIDE_REQUIRE_DEVICES(1);
  Probe probe;
  probe.cuda(0);
  const std::string message = error_of([&] { nn::DataParallel(probe, {0, 7}); });
  EXPECT_THAT(message, HasSubstr("[DataParallel] device_ids {0, 7} holds 7, which is not a cuda device"));
  EXPECT_THAT(message, HasSubstr("this process has " + std::to_string(cuda::device_count())));
  EXPECT_THAT(error_of([&] { nn::DataParallel(probe, {-1}); }), HasSubstr("holds -1"));
}

TEST(DataParallel, AnOutputDeviceOutOfRangeIsRejected) {
  TIDE_REQUIRE_DEVICES(1);
  Probe probe;
  probe.cuda(0);
  EXPECT_THAT(error_of([&] { nn::DataParallel(probe, {0}, 7); }),
              HasSubstr("[DataParallel] output_device 7 is not a cuda device"));
  EXPECT_THAT(error_of([&] { nn::DataParallel(probe, {0}, -2); }),
              HasSubstr("output_device -2 is not a cuda device"));
}

TEST(DataParallel, ParametersOffDeviceIdsZeroAreRejectedAtForward) {
  TIDE_REQUIRE_DEVICES(2);
  Probe probe;  // on the cpu
  nn::DataParallel model(probe, {0, 1});
  const Tensor x = ones({4, 4});
  EXPECT_THAT(error_of([&] { (void)model(x); }),
              HasSubstr("[DataParallel] module must have its parameters and buffers on device "
                        "cuda:0 (device_ids[0]) but found one of them on device: cpu"));
  probe.cuda(1);
  EXPECT_THAT(error_of([&] { (void)model(x); }),
              HasSubstr("on device cuda:0 (device_ids[0]) but found one of them on device: cuda:1"));
  probe.cuda(0);
  EXPECT_TRUE(close(probe(x.cuda(0)), model(x)));
}

TEST(DataParallel, OneDeviceMovesTheModuleThereAndCallsItDirectly) {
  TIDE_REQUIRE_DEVICES(2);
  Probe probe;
  nn::DataParallel model(probe, {1});
  EXPECT_EQ(probe.weight.device(), cuda_device(1));  // as torch: moved at construction
  const Tensor out = model(ones({3, 4}));
  EXPECT_EQ(out.device(), cuda_device(1));
  const std::vector<Call> calls = probe.log->take();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].thread, std::this_thread::get_id());
  EXPECT_EQ(calls[0].rows, 3);
}

TEST(DataParallel, OutputDeviceReceivesTheGatheredOutput) {
  TIDE_REQUIRE_DEVICES(2);
  nn::Sequential net = mlp(6);
  net.cuda(0);
  const Tensor x = randn({5, 6}).cuda(0).requires_grad_();
  nn::DataParallel model(net, {0, 1}, /*output_device=*/1);
  const Tensor out = model(x);
  EXPECT_EQ(out.device(), cuda_device(1));
  EXPECT_TRUE(close(net(x), out));
  out.sum().backward();
  EXPECT_EQ(x.grad().device(), cuda_device(0));
}

TEST(DataParallel, DimOneScattersAndGathersColumns) {
  TIDE_REQUIRE_DEVICES(2);
  // An elementwise module: each column's result depends on that column only.
  struct Columns : nn::Cloneable<Columns> {
    Columns() { reset(); }
    void reset() override { scale = register_parameter("scale", full({1}, 1.5)); }
    Tensor forward(const Tensor& x) override {
      (*calls)[static_cast<size_t>(x.get_device())] += 1;
      return (x * scale).tanh();
    }
    Tensor scale;
    // Shared with the replicas (clone copies the pointer); each device's slot has one writer.
    std::shared_ptr<std::array<int, 4>> calls = std::make_shared<std::array<int, 4>>();
  };
  Columns module;
  module.cuda(0);
  const int n = std::min(cuda::device_count(), 4);
  std::vector<int> ids;
  for (int d = 0; d < n; ++d) ids.push_back(d);
  nn::DataParallel model(module, ids, -1, /*dim=*/1);
  const Tensor x = randn({3, 7}).cuda(0).requires_grad_();
  const Tensor out = model(x);
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{3, 7}));
  const Tensor expected = module(x);
  EXPECT_TRUE(close(expected, out));
  (out * out).sum().backward();
  const Tensor got_scale = module.scale.grad().clone(), got_x = x.grad().clone();
  module.zero_grad();
  x.mutable_grad() = Tensor();
  (expected * expected).sum().backward();
  EXPECT_TRUE(close(module.scale.grad(), got_scale, 1e-4, 1e-5));
  EXPECT_TRUE(close(x.grad(), got_x, 1e-4, 1e-5));
  // Seven columns: chunk(n, 1) gives every device a piece (two or four devices).
  for (int d = 1; d < n; ++d) EXPECT_EQ((*module.calls)[static_cast<size_t>(d)], 1) << "cuda:" << d;
}

TEST(DataParallel, TheModulesTrainingModeReachesTheReplicas) {
  TIDE_REQUIRE_DEVICES(2);
  manual_seed(8);
  nn::Sequential net(nn::Linear(6, 32), nn::Dropout(0.5), nn::Linear(32, 3));
  net.cuda(0);
  nn::DataParallel model(net, {0, 1});
  const Tensor x = randn({6, 6}).cuda(0);
  (void)model(x);  // the replicas are made in training mode
  model.eval();    // reaches the wrapped module, its child
  EXPECT_FALSE(net.is_training());
  EXPECT_TRUE(close(net(x), model(x)));  // dropout is the identity on every replica
  // One child back in training mode: its replicas follow, so the outputs differ again.
  const Tensor without_dropout = net(x);
  net[1].train();
  EXPECT_FALSE(close(without_dropout, model(x)));
}

TEST(DataParallel, AChildAddedAfterAForwardReachesTheReplicas) {
  TIDE_REQUIRE_DEVICES(2);
  nn::Sequential net = mlp(9);
  net.cuda(0);
  nn::DataParallel model(net, {0, 1});
  const Tensor x = randn({4, 6}).cuda(0);
  EXPECT_TRUE(close(net(x), model(x)));
  net.push_back(nn::ReLU());  // no new parameter: the layout still changes
  EXPECT_TRUE(close(net(x), model(x)));
  net.push_back(std::make_shared<nn::Linear>(3, 2));
  net.cuda(0);
  const Tensor out = model(x);
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{4, 2}));
  EXPECT_TRUE(close(net(x), out));
}

TEST(DataParallel, ReplicasHoldNoDeviceMemoryBetweenForwards) {
  TIDE_REQUIRE_DEVICES(2);
  nn::Sequential net = mlp(10);
  net.cuda(0);
  nn::DataParallel model(net, {0, 1});
  const Tensor x = randn({8, 6}).cuda(0);
  auto step = [&] {
    net.zero_grad();
    model(x).sum().backward();
  };
  step();  // makes the replica
  cuda::synchronize(1);
  const int64_t after_first = cuda::memory_allocated(1);
  for (int i = 0; i < 3; ++i) step();
  cuda::synchronize(1);
  EXPECT_EQ(cuda::memory_allocated(1), after_first);
  // What stays on cuda:1 is far less than one copy of the parameters.
  int64_t parameter_bytes = 0;
  for (const Tensor& p : net.parameters()) parameter_bytes += static_cast<int64_t>(p.nbytes());
  EXPECT_LT(after_first, parameter_bytes);
}

TEST(DataParallel, ScalarOutputsAreGatheredIntoAVectorAsTorchDoes) {
  TIDE_REQUIRE_DEVICES(2);
  struct Total : nn::Cloneable<Total> {
    Total() { reset(); }
    void reset() override { scale = register_parameter("scale", full({1}, 2.0)); }
    Tensor forward(const Tensor& x) override { return (x * scale).sum(); }
    Tensor scale;
  };
  Total total;
  total.cuda(0);
  nn::DataParallel model(total, {0, 1});
  const Tensor x = arange(8, TensorOptions(kFloat32)).view({4, 2}).cuda(0);
  const Tensor out = model(x);  // one 0-dim output per replica: rows 0-1 and rows 2-3
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{2}));
  EXPECT_EQ(out.cpu().tolist<float>(), (std::vector<float>{12, 44}));
  out.sum().backward();
  EXPECT_EQ(total.scale.grad().cpu().tolist<float>(), (std::vector<float>{28}));
}

TEST(DataParallel, AnOutOfMemoryErrorInAReplicaKeepsItsType) {
  TIDE_REQUIRE_DEVICES(2);
  struct Greedy : nn::Cloneable<Greedy> {
    Greedy() { reset(); }
    void reset() override {}
    Tensor forward(const Tensor& x) override {
      TIDE_CHECK_T(OutOfMemoryError, x.get_device() != 1, "[Greedy] out of memory on purpose");
      return x;
    }
  };
  Greedy greedy;
  nn::DataParallel model(greedy, {0, 1});
  try {
    (void)model(ones({2, 2}));
    ADD_FAILURE() << "expected an OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_THAT(e.what(), HasSubstr("[DataParallel] replica 1 on cuda:1 failed: [Greedy] out of "
                                    "memory on purpose"));
  }
}

TEST(DataParallel, ForwardAndBackwardOnlyEnqueueWorkWithoutWaitingForTheDevices) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  nn::Sequential net = mlp(12);
  net.cuda(0);
  nn::DataParallel model(net, {0, 1});
  const Tensor x = randn({6, 6}).cuda(0);
  const Tensor expected = net(x).detach();
  net.zero_grad();
  cuda::synchronize(0);
  // Both devices' streams stop: a forward or backward that waited for them would never
  // return, so a watchdog lets them go after a minute and the test fails instead of hanging.
  tide::testing::StreamHold hold0(cuda::current_stream(0)), hold1(cuda::current_stream(1));
  std::mutex mutex;
  std::condition_variable cv;
  bool finished = false, timed_out = false;
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lock(mutex);
    if (!cv.wait_for(lock, std::chrono::seconds(60), [&] { return finished; })) {
      timed_out = true;
      hold0.release();
      hold1.release();
    }
  });
  const Tensor out = model(x);
  out.sum().backward();
  {
    std::lock_guard<std::mutex> lock(mutex);
    finished = true;
  }
  cv.notify_all();
  watchdog.join();
  EXPECT_FALSE(timed_out) << "DataParallel waited for a held stream";
  EXPECT_FALSE(cuda::current_stream(1).query());  // cuda:1's work is still queued
  hold0.release();
  hold1.release();
  EXPECT_TRUE(close(expected, out));
  for (const Tensor& p : net.parameters()) EXPECT_TRUE(p.grad().defined());
}

// torch's DataParallel with BatchNorm: replica 0 is the module on device_ids[0], so the running
// statistics it updates are the module's own, computed from the first chunk of the batch; the
// other replicas' updates are dropped with the replicas (Note [BatchNorm buffers]).
TEST(DataParallel, BatchNormRunningStatsComeFromTheFirstChunkAsInTorch) {
  TIDE_REQUIRE_DEVICES(2);
  test::CudnnSwitchesGuard exact(false, false, /*allow_tf32=*/false);  // real GPUs: cuDNN
  manual_seed(31);
  nn::Sequential net(nn::Conv2d(2, 3, 3, 1, 1), nn::BatchNorm2d(3));
  nn::Sequential reference(nn::Conv2d(2, 3, 3, 1, 1), nn::BatchNorm2d(3));
  reference.load_state_dict(net.state_dict());
  net.cuda(0);
  const Tensor x = randn({4, 2, 5, 5});
  nn::DataParallel model(net, {0, 1});
  const Tensor y = model(x.cuda(0));
  ASSERT_EQ(y.sizes(), (std::vector<int64_t>{4, 3, 5, 5}));
  reference(x.narrow(0, 0, 2));  // the first chunk, on the cpu
  const auto& bn = static_cast<nn::BatchNorm2d&>(net[1]);
  const auto& ref = static_cast<nn::BatchNorm2d&>(reference[1]);
  EXPECT_EQ(bn.running_mean.device(), cuda_device(0));
  EXPECT_TRUE(test::matches_cpu(ref.running_mean, bn.running_mean));
  EXPECT_TRUE(test::matches_cpu(ref.running_var, bn.running_var));
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>(), 1);
}
