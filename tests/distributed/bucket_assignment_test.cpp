// Note [Gradient buckets]: reverse parameter order, one open bucket per dtype, a bucket closes
// once it reaches the cap, cap 0 gives every parameter its own bucket. No process group needed.

#include <gtest/gtest.h>

#include "distributed/bucket_assignment.h"
#include "tide/tide.h"

namespace tide {
namespace {

using distributed::detail::compute_bucket_assignment;
using Buckets = std::vector<std::vector<size_t>>;

TEST(BucketAssignment, FillsBucketsInReverseParameterOrderUpToTheCap) {
  // 400, 40, 400, 40 bytes of float32.
  const std::vector<Tensor> params = {empty({100}), empty({10}), empty({10, 10}), empty({10})};
  EXPECT_EQ(compute_bucket_assignment(params, 1 << 20), (Buckets{{3, 2, 1, 0}}));
  // A bucket closes once it holds the cap or more: {3, 2} is 440 bytes >= 440.
  EXPECT_EQ(compute_bucket_assignment(params, 440), (Buckets{{3, 2}, {1, 0}}));
  EXPECT_EQ(compute_bucket_assignment(params, 441), (Buckets{{3, 2, 1}, {0}}));
  EXPECT_EQ(compute_bucket_assignment(params, 0), (Buckets{{3}, {2}, {1}, {0}}));
}

TEST(BucketAssignment, EachDtypeHasBucketsOfItsOwn) {
  const std::vector<Tensor> params = {empty({4}), empty({4}, dtype(kFloat64)), empty({4}),
                                      empty({4}, dtype(kFloat64))};
  EXPECT_EQ(compute_bucket_assignment(params, 1 << 20), (Buckets{{3, 1}, {2, 0}}));
}

}  // namespace
}  // namespace tide
