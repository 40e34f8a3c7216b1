// CollectiveHeader's text: what the mismatch and timeout errors say about a call.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "distributed/collective_header.h"
#include "tide/tide.h"

namespace tide {
namespace {

using distributed::detail::CollectiveKind;
using distributed::detail::describe;
using distributed::detail::make_header;
using distributed::detail::mismatch_message;

TEST(CollectiveHeader, DescribesEachKindOfCallAsTheErrorsNameIt) {
  Tensor t = ones({4});
  EXPECT_EQ(describe(make_header(CollectiveKind::AllReduce, t,
                                 static_cast<int64_t>(distributed::ReduceOp::MAX))),
            "all_reduce(MAX) of 4 float32 elements");
  EXPECT_EQ(describe(make_header(CollectiveKind::Broadcast, ones({2}, dtype(kInt64)), -1, 1)),
            "broadcast(src=1) of 2 int64 elements");
  EXPECT_EQ(describe(make_header(CollectiveKind::AllGather, t)), "all_gather() of 4 float32 elements");
  EXPECT_EQ(describe(make_header(CollectiveKind::Barrier, Tensor())), "barrier");
}

TEST(CollectiveHeader, HeadersOfTheSameCallCompareEqualAndAnyFieldMakesThemDiffer) {
  auto a = make_header(CollectiveKind::AllReduce, ones({3}), 0);
  auto b = make_header(CollectiveKind::AllReduce, ones({3}), 0);
  EXPECT_EQ(a, b);
  b.seq = 1;
  EXPECT_NE(a, b);
  EXPECT_NE(a, make_header(CollectiveKind::AllReduce, ones({3}, dtype(kFloat64)), 0));
  EXPECT_NE(a, make_header(CollectiveKind::AllReduce, ones({3}), 1));
}

TEST(CollectiveHeader, TheMismatchMessageNamesBothCallsAndTheirNumbers) {
  auto mine = make_header(CollectiveKind::AllReduce, ones({4}), 0);
  auto theirs = make_header(CollectiveKind::Broadcast, ones({4}), -1, 0);
  mine.seq = 3;
  theirs.seq = 3;
  EXPECT_EQ(mismatch_message("all_reduce", 0, mine, 1, theirs),
            "[all_reduce] rank 0 called all_reduce(SUM) of 4 float32 elements as collective #3, "
            "but rank 1 called broadcast(src=0) of 4 float32 elements as collective #3; every "
            "rank must call the same collectives in the same order with tensors of the same "
            "dtype and size");
}

}  // namespace
}  // namespace tide
