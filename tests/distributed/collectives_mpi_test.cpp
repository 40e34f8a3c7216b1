// Every collective and dtype against hand-computed results, on each rank of an mpirun job
// (2 and 4 ranks; cpu tensors, and one simulated GPU per rank).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "distributed/dist_helpers.h"
#include "tide/testing/sim_hooks.h"
#include "tide/tide.h"

namespace tide {
namespace {

using distributed::ReduceOp;
using test::rank_device;

class Collectives : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { TIDE_SKIP_WITHOUT(GetParam()); }
  Device device() const { return rank_device(GetParam()); }
  int rank() const { return distributed::get_rank(); }
  int world() const { return distributed::get_world_size(); }

  /// rank + i for i in [0, n): small integers, exact in every dtype (bool: rank == 0... below).
  Tensor ranked(int64_t n, Dtype dtype, int offset = 0) const {
    return (arange(n, tide::dtype(kFloat64)) + (rank() + offset)).to(dtype).to(device());
  }
};

const std::vector<Dtype> kNumericDtypes = {kUInt8, kInt32, kInt64, kFloat16, kBFloat16,
                                           kFloat32, kFloat64};

TEST_P(Collectives, AllReduceSumMaxMinEveryNumericDtype) {
  const int w = world();
  for (Dtype dtype : kNumericDtypes) {
    for (ReduceOp op : {ReduceOp::SUM, ReduceOp::MAX, ReduceOp::MIN}) {
      Tensor t = ranked(5, dtype);
      distributed::all_reduce(t, op);
      std::vector<double> got = t.to(kFloat64).cpu().tolist<double>();
      for (int i = 0; i < 5; ++i) {
        const double want = op == ReduceOp::SUM   ? w * i + w * (w - 1) / 2.0
                            : op == ReduceOp::MAX ? i + w - 1
                                                  : i;
        EXPECT_EQ(got[i], want) << name(dtype) << " " << distributed::name(op) << " at " << i;
      }
    }
  }
}

TEST_P(Collectives, AllReduceAvgOnFloatingDtypes) {
  const int w = world();
  for (Dtype dtype : {kFloat16, kBFloat16, kFloat32, kFloat64}) {
    Tensor t = ranked(4, dtype);
    distributed::all_reduce(t, ReduceOp::AVG);
    std::vector<double> got = t.to(kFloat64).cpu().tolist<double>();
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], i + (w - 1) / 2.0) << name(dtype);
  }
}

TEST_P(Collectives, AllReduceBoolIsLogicalOrAndMinIsLogicalAnd) {
  Tensor any = full({3}, rank() == 0 ? 1 : 0, TensorOptions().dtype(kBool).device(device()));
  Tensor all = any.clone();
  distributed::all_reduce(any, ReduceOp::SUM);
  distributed::all_reduce(all, ReduceOp::MIN);
  EXPECT_EQ(any.cpu().tolist<bool>(), std::vector<bool>(3, true));
  EXPECT_EQ(all.cpu().tolist<bool>(), std::vector<bool>(3, world() == 1));
}

TEST_P(Collectives, BroadcastFromEveryRankEveryDtype) {
  for (Dtype dtype : kNumericDtypes) {
    for (int src = 0; src < world(); ++src) {
      Tensor t = ranked(6, dtype, 1);
      distributed::broadcast(t, src);
      std::vector<double> got = t.to(kFloat64).cpu().tolist<double>();
      for (int i = 0; i < 6; ++i) EXPECT_EQ(got[i], src + 1 + i) << name(dtype) << " src " << src;
    }
  }
  Tensor flags = full({2}, rank() == 1 ? 1 : 0, TensorOptions().dtype(kBool).device(device()));
  distributed::broadcast(flags, world() > 1 ? 1 : 0);
  EXPECT_EQ(flags.cpu().tolist<bool>(), std::vector<bool>(2, world() > 1));
}

TEST_P(Collectives, AllGatherPutsRankRInOutputR) {
  for (Dtype dtype : {kBool, kUInt8, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64}) {
    Tensor input = dtype == kBool ? full({2, 2}, rank() % 2, TensorOptions().dtype(kBool).device(device()))
                                  : ranked(4, dtype).view({2, 2});
    std::vector<Tensor> outputs;
    for (int r = 0; r < world(); ++r) outputs.push_back(empty_like(input));
    distributed::all_gather(outputs, input);
    for (int r = 0; r < world(); ++r) {
      EXPECT_EQ(outputs[r].sizes(), (std::vector<int64_t>{2, 2}));
      std::vector<double> got = outputs[r].to(kFloat64).cpu().tolist<double>();
      for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(got[i], dtype == kBool ? r % 2 : r + i) << name(dtype) << " from rank " << r;
      }
    }
  }
}

TEST_P(Collectives, ReduceScatterGivesRankRTheReductionOfInputsR) {
  const int w = world();
  for (Dtype dtype : kNumericDtypes) {
    for (ReduceOp op : {ReduceOp::SUM, ReduceOp::MAX, ReduceOp::MIN}) {
      // Rank q's inputs[j] holds q + 10 j + i.
      std::vector<Tensor> inputs;
      for (int j = 0; j < w; ++j) inputs.push_back(ranked(3, dtype, 10 * j));
      Tensor output = empty({3}, TensorOptions().dtype(dtype).device(device()));
      distributed::reduce_scatter(output, inputs, op);
      std::vector<double> got = output.to(kFloat64).cpu().tolist<double>();
      const int j = rank();
      for (int i = 0; i < 3; ++i) {
        const double want = op == ReduceOp::SUM   ? w * (10.0 * j + i) + w * (w - 1) / 2.0
                            : op == ReduceOp::MAX ? 10 * j + i + w - 1
                                                  : 10 * j + i;
        EXPECT_EQ(got[i], want) << name(dtype) << " " << distributed::name(op);
      }
    }
  }
  std::vector<Tensor> inputs;
  for (int j = 0; j < w; ++j) inputs.push_back(ranked(2, kFloat32, 10 * j));
  Tensor avg = empty({2}, TensorOptions().device(device()));
  distributed::reduce_scatter(avg, inputs, ReduceOp::AVG);
  EXPECT_EQ(avg.cpu().tolist<float>(),
            (std::vector<float>{10.0f * rank() + (w - 1) / 2.0f, 10.0f * rank() + 1 + (w - 1) / 2.0f}));
}

TEST_P(Collectives, AsyncWorkCompletesAfterWait) {
  Tensor t = ranked(8, kFloat32);
  std::shared_ptr<distributed::Work> a = distributed::all_reduce(t, ReduceOp::SUM, true);
  Tensor u = ranked(8, kInt64);
  std::shared_ptr<distributed::Work> b = distributed::broadcast(u, 0, true);
  std::vector<Tensor> outs = {empty_like(u)};
  for (int r = 1; r < world(); ++r) outs.push_back(empty_like(u));
  std::shared_ptr<distributed::Work> c = distributed::all_gather(outs, u, true);
  a->wait();
  b->wait();
  c->wait();
  if (device().is_cpu()) {
    EXPECT_TRUE(a->is_completed());
    EXPECT_TRUE(c->is_completed());
  }
  const int w = world();
  std::vector<float> got = t.cpu().tolist<float>();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], w * i + w * (w - 1) / 2.0f);
  EXPECT_EQ(outs[0].cpu().tolist<int64_t>()[3], 3);  // rank 0's broadcast value, gathered
}

TEST_P(Collectives, BarrierReturnsOnEveryRank) {
  for (int i = 0; i < 3; ++i) distributed::barrier();
  SUCCEED();
}

TEST_P(Collectives, LargeTensorAllReduce) {
  const int64_t n = 1 << 20;  // 4 MiB of float32: Open MPI's large-message path
  Tensor t = full({n}, rank() + 1.0, TensorOptions().device(device()));
  distributed::all_reduce(t, ReduceOp::SUM);
  const int w = world();
  EXPECT_EQ(t.sum().item<float>(), static_cast<float>(n) * w * (w + 1) / 2);
}

// On a GPU a collective runs in its stream's order (Note [Collectives]): held, the stream has
// not run the fill, so a collective that read the tensor early would sum zeros, and it
// cannot complete before the stream is released. Later work on the stream sees its result.
TEST(CollectiveStreamOrder, WaitsForEarlierWorkAndLaterWorkWaitsForIt) {
  if (cuda::device_count() == 0 || !testing::sim_active()) {
    GTEST_SKIP() << "holds a simulated stream: needs simulated GPUs";
  }
  const cuda::Stream stream = cuda::current_stream(0);
  Tensor t = zeros({4}, device(Device(kCUDA, 0)));
  std::shared_ptr<distributed::Work> work;
  {
    testing::StreamHold hold(stream);
    t.fill_(distributed::get_rank() + 1);
    work = distributed::all_reduce(t, ReduceOp::SUM, true);
    EXPECT_FALSE(work->is_completed());
  }
  work->wait();
  t.mul_(2);
  const int w = distributed::get_world_size();
  EXPECT_EQ(t.cpu().tolist<float>(), std::vector<float>(4, static_cast<float>(w * (w + 1))));
  EXPECT_TRUE(work->is_completed());
}

INSTANTIATE_TEST_SUITE_P(Devices, Collectives, ::testing::Values("cpu", "cuda"),
                         test::device_name);

}  // namespace
}  // namespace tide
