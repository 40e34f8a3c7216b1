// nn::DistributedDataParallel on every rank of an mpirun job (2 and 4 ranks; cpu, and one
// simulated GPU per rank): training equals one process on the concatenated batch, no_sync
// accumulation equals one step on the bigger batch, the construction broadcast, buffers,
// BatchNorm's running statistics (broadcast from rank 0 at each forward, as torch's), unused
// parameters (torch's error, and find_unused_parameters), and device misuse.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "distributed/dist_helpers.h"
#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using nn::DDPOptions;
using nn::DistributedDataParallel;
using test::error_of;
using test::rank_device;
using ::testing::HasSubstr;

constexpr int64_t kRows = 3;  // rows of each rank's share of a batch

int rank() { return distributed::get_rank(); }
int world() { return distributed::get_world_size(); }

/// Linear(4, 8) -> ReLU -> Linear(8, 3), initialized from `seed`, on `device`.
std::shared_ptr<nn::Sequential> make_net(uint64_t seed, Device device) {
  manual_seed(seed);
  auto net = std::make_shared<nn::Sequential>(nn::Linear(4, 8), nn::ReLU(), nn::Linear(8, 3));
  net->to(device);
  return net;
}

/// A whole batch of every rank's rows (the same on every rank), drawn from `seed`.
struct Batch {
  Tensor x, y;
  Batch(uint64_t seed, Device device) {
    manual_seed(seed);
    x = randn({world() * kRows, 4}).to(device);
    y = randn({world() * kRows, 3}).to(device);
  }
  Tensor x_of(int r) const { return x.narrow(0, r * kRows, kRows); }
  Tensor y_of(int r) const { return y.narrow(0, r * kRows, kRows); }
};

double max_abs_diff(const Tensor& a, const Tensor& b) {
  return (a.to(kFloat64) - b.to(kFloat64)).abs().max().cpu().item<double>();
}

/// Every parameter of `a` within 1e-5 of `b`'s (same registration order).
void expect_parameters_near(const nn::Module& a, const nn::Module& b, const std::string& what) {
  const auto pa = a.named_parameters(), pb = b.named_parameters();
  ASSERT_EQ(pa.size(), pb.size());
  for (size_t i = 0; i < pa.size(); ++i)
    EXPECT_LT(max_abs_diff(pa[i].second, pb[i].second), 1e-5) << what << ": " << pa[i].first;
}

/// t from every rank.
std::vector<Tensor> gathered(const Tensor& t) {
  std::vector<Tensor> all;
  for (int r = 0; r < world(); ++r) all.push_back(empty_like(t));
  distributed::all_gather(all, t.contiguous());
  return all;
}

/// Uses its second branch only when `use_b` (per rank, per test).
class TwoBranches : public nn::Module {
 public:
  TwoBranches() {
    a = register_module("a", std::make_shared<nn::Linear>(4, 3));
    b = register_module("b", std::make_shared<nn::Linear>(4, 3));
  }
  Tensor forward(const Tensor& x) override { return use_b ? (*a)(x) + (*b)(x) : (*a)(x); }
  std::shared_ptr<nn::Linear> a, b;
  bool use_b = true;
};

/// A Linear plus a buffer added to its output.
class Shifted : public nn::Module {
 public:
  explicit Shifted(float fill) {
    lin = register_module("lin", std::make_shared<nn::Linear>(2, 2));
    shift = register_buffer("shift", full({2}, fill));
  }
  Tensor forward(const Tensor& x) override { return (*lin)(x) + shift; }
  std::shared_ptr<nn::Linear> lin;
  Tensor shift;
};

class DDP : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { TIDE_SKIP_WITHOUT(GetParam()); }
  Device device() const { return rank_device(GetParam()); }
};

TEST_P(DDP, TrainingMatchesOneProcessOnTheConcatenatedBatch) {
  // cap 0: one bucket per parameter, all-reduced one by one during backward; 25: one bucket.
  for (size_t cap : {size_t{0}, size_t{25}}) {
    // Different weights on every rank: the construction broadcast makes them rank 0's.
    auto net = make_net(1000 + static_cast<uint64_t>(rank()), device());
    DistributedDataParallel ddp(*net, DDPOptions().bucket_cap_mb(cap));
    EXPECT_EQ(ddp.bucket_count(), cap == 0 ? 4u : 1u);
    auto single = net->clone();
    optim::SGD sgd(ddp.parameters(), optim::SGDOptions(0.1).momentum(0.9));
    optim::SGD single_sgd(single->parameters(), optim::SGDOptions(0.1).momentum(0.9));
    for (int step = 0; step < 4; ++step) {
      const Batch batch(500 + static_cast<uint64_t>(step), device());
      sgd.zero_grad();
      mse_loss(ddp(batch.x_of(rank())), batch.y_of(rank())).backward();
      sgd.step();
      single_sgd.zero_grad();
      mse_loss((*single)(batch.x), batch.y).backward();
      single_sgd.step();
    }
    expect_parameters_near(*net, *single, "bucket_cap_mb " + std::to_string(cap));
  }
}

TEST_P(DDP, NoSyncAccumulatesLocallyAndTheNextBackwardEqualsOneBiggerStep) {
  auto net = make_net(7, device());
  DistributedDataParallel ddp(*net, DDPOptions().bucket_cap_mb(0));
  auto single = net->clone();
  optim::SGD sgd(ddp.parameters(), optim::SGDOptions(0.1));
  optim::SGD single_sgd(single->parameters(), optim::SGDOptions(0.1));
  const Batch first(11, device()), second(12, device());

  sgd.zero_grad();
  {
    auto guard = ddp.no_sync();
    mse_loss(ddp(first.x_of(rank())), first.y_of(rank())).backward();
  }
  // Nothing was communicated: each rank holds its own rows' gradient.
  auto local = net->clone();
  mse_loss((*local)(first.x_of(rank())), first.y_of(rank())).backward();
  EXPECT_LT(max_abs_diff(net->parameters()[0].grad(), local->parameters()[0].grad()), 1e-6);
  const std::vector<Tensor> per_rank = gathered(net->parameters()[0].grad());
  ASSERT_EQ(per_rank.size(), static_cast<size_t>(world()));
  if (world() > 1) {
    EXPECT_GT(max_abs_diff(per_rank[0], per_rank[1]), 1e-4);  // the ranks' gradients differ
  }

  mse_loss(ddp(second.x_of(rank())), second.y_of(rank())).backward();  // synced
  sgd.step();

  single_sgd.zero_grad();
  (mse_loss((*single)(first.x), first.y) + mse_loss((*single)(second.x), second.y)).backward();
  single_sgd.step();
  expect_parameters_near(*net, *single, "after accumulation");
}

TEST_P(DDP, ConstructionBroadcastsRankZerosParametersAndBuffers) {
  auto net = make_net(1000 + static_cast<uint64_t>(rank()), device());
  DistributedDataParallel ddp(*net);
  const auto rank0 = make_net(1000, device());  // what rank 0 started with
  expect_parameters_near(*net, *rank0, "after construction");

  Shifted shifted(static_cast<float>(rank() + 1));
  shifted.to(device());
  DistributedDataParallel with_buffer(shifted);
  EXPECT_EQ(shifted.shift.cpu().tolist<float>(), (std::vector<float>{1, 1}));
  const auto keys = with_buffer.state_dict();
  EXPECT_TRUE(keys.count("module.lin.weight"));
  EXPECT_TRUE(keys.count("module.shift"));
}

TEST_P(DDP, BroadcastBuffersCopiesRankZerosBuffersAtEveryForward) {
  for (bool broadcast : {true, false}) {
    Shifted shifted(0);
    shifted.to(device());
    DistributedDataParallel ddp(shifted, DDPOptions().broadcast_buffers(broadcast));
    {
      NoGradGuard no_grad;
      shifted.shift.fill_(rank() + 5);
    }
    Tensor out = ddp(zeros({1, 2}, TensorOptions().device(device())));
    out.sum().backward();
    const float want = broadcast ? 5.0f : static_cast<float>(rank() + 5);
    EXPECT_EQ(shifted.shift.cpu().tolist<float>(), (std::vector<float>{want, want}))
        << "broadcast_buffers " << broadcast;
  }
}

TEST_P(DDP, BatchNormsRunningStatisticsAreRankZerosAtEachForwardAsTorchs) {
  // torch's broadcast_buffers=True: each forward starts from rank 0's running statistics and
  // updates them with the rank's own batch, so after two steps on different shares rank r
  // holds "rank 0's batch, then r's": what one BatchNorm2d shown those two batches holds.
  manual_seed(7);
  nn::BatchNorm2d bn(2);
  bn.to(device());
  DistributedDataParallel ddp(bn);
  manual_seed(8);
  const Tensor first = randn({world() * kRows, 2, 3, 3}).to(device()) * 2 + 1;
  const Tensor second = randn({world() * kRows, 2, 3, 3}).to(device()) - 3;
  const auto share = [&](const Tensor& t, int r) { return t.narrow(0, r * kRows, kRows); };
  ddp(share(first, rank())).sum().backward();
  // The first step's statistics differ by rank: each saw its own share.
  const std::vector<Tensor> means = gathered(bn.running_mean);
  if (world() > 1) {
    EXPECT_GT(max_abs_diff(means[0], means[world() - 1]), 1e-3);
  }
  ddp(share(second, rank())).sum().backward();

  nn::BatchNorm2d ref(2);
  ref.to(device());
  ref(share(first, 0));
  ref(share(second, rank()));
  EXPECT_LT(max_abs_diff(bn.running_mean, ref.running_mean), 1e-5);
  EXPECT_LT(max_abs_diff(bn.running_var, ref.running_var), 1e-5);
  EXPECT_EQ(bn.num_batches_tracked.cpu().item<int64_t>(), 2);

  // Without broadcasting, each rank's statistics are its own shares' alone.
  manual_seed(7);
  nn::BatchNorm2d own(2);
  own.to(device());
  DistributedDataParallel local(own, DDPOptions().broadcast_buffers(false));
  local(share(first, rank())).sum().backward();
  local(share(second, rank())).sum().backward();
  nn::BatchNorm2d mine(2);
  mine.to(device());
  mine(share(first, rank()));
  mine(share(second, rank()));
  EXPECT_LT(max_abs_diff(own.running_mean, mine.running_mean), 1e-5);
  EXPECT_LT(max_abs_diff(own.running_var, mine.running_var), 1e-5);

  // eval: the next forward (after a training step with grad) broadcasts too, then normalizes
  // by the running statistics, so every rank maps the same input to the same output.
  bn.eval();
  Tensor out;
  {
    NoGradGuard no_grad;
    out = ddp(share(first, 0));
  }
  const std::vector<Tensor> outs = gathered(out);
  for (int r = 1; r < world(); ++r) EXPECT_LT(max_abs_diff(outs[r], outs[0]), 1e-6);
  nn::BatchNorm2d ref0(2);
  ref0.to(device());
  ref0(share(first, 0));
  ref0(share(second, 0));
  ref0.eval();
  EXPECT_LT(max_abs_diff(out, ref0(share(first, 0)).detach()), 1e-5);
}

TEST_P(DDP, AParameterWithoutGradientRaisesTorchsErrorAtTheNextForward) {
  TwoBranches net;
  net.use_b = false;
  net.to(device());
  DistributedDataParallel ddp(net);
  const Batch batch(3, device());
  mse_loss(ddp(batch.x_of(rank())), batch.y_of(rank())).backward();  // as torch: no error yet
  for (int again = 0; again < 2; ++again) {  // and it stays raised, as torch
    const std::string message = error_of([&] { ddp(batch.x_of(rank())); });
    EXPECT_THAT(message, HasSubstr("[DistributedDataParallel] Expected to have finished reduction "
                                   "in the prior iteration before starting a new one. This error "
                                   "indicates that your module has parameters that were not used "
                                   "in producing loss."));
    EXPECT_THAT(message, HasSubstr("find_unused_parameters(true)"));
    EXPECT_THAT(message, HasSubstr("Parameter indices which did not receive grad for rank " +
                                   std::to_string(rank()) + ": 2 3."));
    EXPECT_THAT(message, HasSubstr("module.b.weight, module.b.bias"));
  }
  // Without grad mode nothing is reduced, so nothing is checked.
  NoGradGuard no_grad;
  EXPECT_EQ(ddp(batch.x_of(rank())).size(0), kRows);
}

TEST_P(DDP, FindUnusedParametersReducesZerosForParametersARankDidNotUse) {
  // Rank 0 never uses branch b, the others do: b's gradient is their sum over all ranks. A
  // second model uses b nowhere: its b keeps no gradient.
  for (bool b_used_elsewhere : {true, false}) {
    if (b_used_elsewhere && world() < 2) continue;  // one rank: there is no elsewhere
    TwoBranches net;
    net.to(device());
    DistributedDataParallel ddp(net, DDPOptions().find_unused_parameters(true).bucket_cap_mb(0));
    TwoBranches single;
    single.to(device());
    single.load_state_dict(net.state_dict());
    for (int step = 0; step < 2; ++step) {
      const Batch batch(40 + static_cast<uint64_t>(step), device());
      net.zero_grad();
      net.use_b = b_used_elsewhere && rank() != 0;
      mse_loss(ddp(batch.x_of(rank())), batch.y_of(rank())).backward();
      // The average over ranks of each rank's loss, in one process.
      single.zero_grad();
      Tensor total;
      for (int r = 0; r < world(); ++r) {
        single.use_b = b_used_elsewhere && r != 0;
        Tensor loss = mse_loss(single(batch.x_of(r)), batch.y_of(r)) / world();
        total = total.defined() ? total + loss : loss;
      }
      total.backward();
      const std::string what = "step " + std::to_string(step) +
                               (b_used_elsewhere ? ", b used on ranks > 0" : ", b unused");
      EXPECT_LT(max_abs_diff(net.a->weight.grad(), single.a->weight.grad()), 1e-5) << what;
      EXPECT_LT(max_abs_diff(net.a->bias.grad(), single.a->bias.grad()), 1e-5) << what;
      if (b_used_elsewhere) {
        ASSERT_TRUE(net.b->weight.grad().defined()) << what;  // on rank 0 too
        EXPECT_LT(max_abs_diff(net.b->weight.grad(), single.b->weight.grad()), 1e-5) << what;
      } else {
        EXPECT_FALSE(net.b->weight.grad().defined()) << what;  // no rank used it (torch)
      }
    }
  }
}

TEST_P(DDP, DeviceIdsMustNameTheOneCudaDeviceHoldingTheModule) {
  auto net = make_net(5, device());
  if (device().is_cpu()) {
    EXPECT_THAT(error_of([&] { DistributedDataParallel(*net, DDPOptions().device_ids({0})); }),
                HasSubstr("[DistributedDataParallel] device_ids and output_device arguments only "
                          "work with single-device GPU modules or CPU modules, but got device_ids "
                          "{0} and module parameters on cpu"));
    return;
  }
  EXPECT_THAT(error_of([&] { DistributedDataParallel(*net, DDPOptions().device_ids({0, 0})); }),
              HasSubstr("but got device_ids {0, 0} and module parameters on cuda:0"));
  // device_ids({0}): forward copies a cpu input to the module's device.
  DistributedDataParallel ddp(*net, DDPOptions().device_ids({0}));
  EXPECT_EQ(ddp.device(), Device(kCUDA, 0));
  EXPECT_EQ(ddp(ones({2, 4})).device(), Device(kCUDA, 0));
}

// torch: without device_ids DDP uses the module's device, wherever the program put it. Nothing
// assumes cuda:local_rank: with one simulated GPU per rank (mpi2_sim1) rank 1 trains on its
// cuda:0.
TEST_P(DDP, WithoutDeviceIdsTheModulesOwnDeviceIsUsed) {
  auto net = make_net(5, device());
  DistributedDataParallel ddp(*net);
  EXPECT_EQ(ddp.device(), device());
  const Batch batch(3, device());
  mse_loss(ddp(batch.x_of(rank())), batch.y_of(rank())).backward();
  for (const Tensor& p : net->parameters()) EXPECT_EQ(p.grad().device(), device());
}

TEST(DDPMisuse, AModuleWithoutTrainableParametersOrSpreadOverDevicesIsRefused) {
  nn::Linear frozen(2, 2);
  frozen.weight.requires_grad_(false);
  frozen.bias.requires_grad_(false);
  EXPECT_THAT(error_of([&] { DistributedDataParallel ddp(frozen); }),
              HasSubstr("DistributedDataParallel is not needed when a module doesn't have any "
                        "parameter that requires a gradient"));
  if (cuda::device_count() == 0) return;
  nn::Sequential spread(nn::Linear(2, 2), nn::Linear(2, 2));
  spread[1].to(Device(kCUDA, 0));
  EXPECT_THAT(error_of([&] { DistributedDataParallel ddp(spread); }),
              HasSubstr("expected the module's parameters on one device, found them on cpu, "
                        "cuda:0"));
}

TEST(DDPMisuse, ModulesThatDifferAcrossRanksAreNamedInsteadOfHanging) {
  if (world() < 2) GTEST_SKIP() << "needs two ranks";
  nn::Linear net(4, rank() == 1 ? 3 : 2);
  EXPECT_THAT(error_of([&] { DistributedDataParallel ddp(net); }),
              HasSubstr("DDP expects same model across all ranks"));
}

INSTANTIATE_TEST_SUITE_P(Devices, DDP, ::testing::Values("cpu", "cuda"), test::device_name);

}  // namespace
}  // namespace tide
