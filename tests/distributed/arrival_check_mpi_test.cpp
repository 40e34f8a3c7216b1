// check_arrival (Note [Asynchronous arrival check] in src/distributed/arrival_check.h): the
// arrival round alone, for an engine that moves the data itself, on a second mpi group of its
// own as the nccl backend keeps one. It returns at once and reports at wait().

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "distributed/arrival_check.h"
#include "distributed/launcher_env.h"
#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using distributed::detail::check_arrival;
using distributed::detail::CollectiveKind;
using distributed::detail::make_header;

class ArrivalCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    group_ = distributed::detail::make_mpi_backend(distributed::detail::read_launcher_env(),
                                                   std::chrono::seconds(60));
  }
  void TearDown() override { group_->shutdown(); }
  std::unique_ptr<distributed::detail::ProcessGroupBackend> group_;
};

TEST_F(ArrivalCheck, MatchingCallsPassAndTheGroupsCollectivesStayInStep) {
  Tensor t = ones({5});
  auto first = check_arrival(*group_, "all_reduce",
                             make_header(CollectiveKind::AllReduce, t, /*op=*/0));
  auto second = check_arrival(*group_, "broadcast",
                              make_header(CollectiveKind::Broadcast, t, -1, /*root=*/0));
  first->wait();
  second->wait();
  EXPECT_TRUE(first->is_completed());
  Tensor sum = ones({2});
  group_->all_reduce(sum, distributed::ReduceOp::SUM, /*async_op=*/false)->wait();
  EXPECT_EQ(sum.tolist<float>(), std::vector<float>(2, static_cast<float>(group_->world_size())));
}

TEST_F(ArrivalCheck, AMismatchRaisesAtWaitNamingBothCallsAndLeavesTheGroupUsable) {
  if (group_->world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const int rank = group_->rank();
  Tensor t = ones({rank == 0 ? 4 : 6}, dtype(kFloat16));
  std::shared_ptr<distributed::Work> work =
      check_arrival(*group_, "all_reduce", make_header(CollectiveKind::AllReduce, t, /*op=*/0));
  EXPECT_THAT(test::error_of([&] { work->wait(); }),
              AllOf(HasSubstr("[all_reduce] rank " + std::to_string(rank) +
                              " called all_reduce(SUM) of " + (rank == 0 ? "4" : "6") +
                              " float16 elements as collective #1"),
                    HasSubstr("called all_reduce(SUM) of " + std::string(rank == 0 ? "6" : "4"))));
  EXPECT_TRUE(work->is_completed());
  Tensor sum = ones({2});
  group_->all_reduce(sum, distributed::ReduceOp::SUM, /*async_op=*/false)->wait();
  EXPECT_EQ(sum.tolist<float>(), std::vector<float>(2, static_cast<float>(group_->world_size())));
}

}  // namespace
}  // namespace tide
