// Misuse under mpirun: what a rank can see locally raises before any communication, and calls
// that differ between ranks raise on every rank (Note [Arrival round]), leaving the group
// usable.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "support/error_of.h"
#include "tide/distributed/process_group.h"
#include "tide/tide.h"

namespace tide {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using distributed::ReduceOp;
using test::error_of;

void expect_group_still_works() {
  Tensor t = ones({3});
  distributed::all_reduce(t);
  EXPECT_EQ(t.tolist<float>(), std::vector<float>(3, static_cast<float>(distributed::get_world_size())));
}

TEST(DistributedMisuse, InitializingTwiceRaises) {
  EXPECT_THAT(error_of([] { distributed::init_process_group(); }),
              AllOf(HasSubstr("[init_process_group]"), HasSubstr("called twice"),
                    HasSubstr("destroy_process_group")));
  EXPECT_TRUE(distributed::is_initialized());
}

TEST(DistributedMisuse, LocalChecksRaiseBeforeCommunicating) {
  const int w = distributed::get_world_size();
  Tensor t = ones({4});
  std::vector<Tensor> too_few(w + 1, zeros({4}));
  EXPECT_THAT(error_of([&] { distributed::all_gather(too_few, t); }),
              AllOf(HasSubstr("[all_gather] expected outputs to hold world_size = "),
                    HasSubstr("found " + std::to_string(w + 1))));
  std::vector<Tensor> wrong_dtype(w, zeros({4}, dtype(kInt64)));
  EXPECT_THAT(error_of([&] { distributed::all_gather(wrong_dtype, t); }),
              HasSubstr("expected every tensor of dtype float32, found outputs[0] of dtype int64"));
  std::vector<Tensor> wrong_size(w, zeros({5}));
  EXPECT_THAT(error_of([&] { distributed::reduce_scatter(t, wrong_size); }),
              HasSubstr("expected every tensor with 4 elements"));
  Tensor flags = ones({2}, dtype(kBool));
  EXPECT_THAT(error_of([&] { distributed::all_reduce(flags, ReduceOp::AVG); }),
              HasSubstr("[all_reduce] expected a numeric tensor for ReduceOp::AVG, found dtype bool"));
  std::vector<Tensor> flag_inputs(w, ones({2}, dtype(kBool)));
  EXPECT_THAT(error_of([&] { distributed::reduce_scatter(flags, flag_inputs, ReduceOp::AVG); }),
              HasSubstr("[reduce_scatter] expected a numeric tensor for ReduceOp::AVG"));
  Tensor strided = ones({4, 4}).t();
  EXPECT_THAT(error_of([&] { distributed::all_reduce(strided); }),
              HasSubstr("expected a contiguous tensor"));
  EXPECT_THAT(error_of([&] { distributed::broadcast(t, w); }),
              HasSubstr("expected a source rank in [0, " + std::to_string(w) + "), found " +
                        std::to_string(w)));
  expect_group_still_works();
}

TEST(DistributedMisuse, TensorOnTheWrongDeviceRaises) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no cuda device in this configuration";
  Tensor input = ones({2}, device(Device(kCUDA, 0)));
  std::vector<Tensor> outputs(distributed::get_world_size(), zeros({2}));
  EXPECT_THAT(error_of([&] { distributed::all_gather(outputs, input); }),
              HasSubstr("expected every tensor on cuda:0, found outputs[0] on cpu"));
  expect_group_still_works();
}

TEST(DistributedMisuse, SizesThatDifferBetweenRanksRaiseOnEveryRank) {
  if (distributed::get_world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const int rank = distributed::get_rank();
  Tensor t = ones({rank == 0 ? 4 : 5});
  EXPECT_THAT(error_of([&] { distributed::all_reduce(t); }),
              AllOf(HasSubstr("[all_reduce] rank " + std::to_string(rank) + " called all_reduce(SUM) of " +
                              (rank == 0 ? "4" : "5") + " float32 elements"),
                    HasSubstr("but rank " + std::string(rank == 0 ? "1" : "0") +
                              " called all_reduce(SUM) of " + (rank == 0 ? "5" : "4")),
                    HasSubstr("same collectives in the same order")));
  expect_group_still_works();
}

TEST(DistributedMisuse, DifferentCollectivesRaiseOnEveryRank) {
  if (distributed::get_world_size() < 2) GTEST_SKIP() << "needs two ranks";
  Tensor t = ones({2});
  std::string message = error_of([&] {
    if (distributed::get_rank() == 0) {
      distributed::broadcast(t, 0);
    } else {
      distributed::all_reduce(t, ReduceOp::MAX);
    }
  });
  EXPECT_THAT(message, HasSubstr(distributed::get_rank() == 0 ? "called all_reduce(MAX) of 2"
                                                              : "called broadcast(src=0) of 2"));
  expect_group_still_works();
}

// On a GPU the collective runs behind the stream, so its failure arrives as the op's
// KernelError at the next synchronizing call; the device keeps working.
TEST(DistributedMisuse, MismatchOnAGpuSurfacesAsTheCollectivesKernelError) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no cuda device in this configuration";
  if (distributed::get_world_size() < 2) GTEST_SKIP() << "needs two ranks";
  Tensor t = ones({distributed::get_rank() == 0 ? 3 : 6}, device(Device(kCUDA, 0)));
  distributed::all_reduce(t);
  try {
    cuda::synchronize(0);
    FAIL() << "expected a KernelError";
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("all_reduce"), HasSubstr("same collectives")));
  }
  Tensor u = ones({2}, device(Device(kCUDA, 0)));
  distributed::all_reduce(u);
  EXPECT_EQ(u.cpu().tolist<float>(), std::vector<float>(2, static_cast<float>(distributed::get_world_size())));
}

}  // namespace
}  // namespace tide
