// max_pool2d's choice within a window where values tie or are NaN, checked against torch
// 1.13's results for the same input (its cpu and CUDA kernels take `val > maxval ||
// isnan(val)`): both cpu loops, the one for windows inside the input and the general one.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/tensor.h"

namespace tide {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Windows of a 2x2, stride-2 pool: {1, 1, 1, 0} ties; {2, 5, 5, 2} ties at the maximum;
// {3, NaN, NaN, 9} has two NaNs; {7, 7, 7, 7}. torch 1.13 gives values {1, 5, NaN, 7} and
// indices {0, 3, 12, 10}: the first of equal maxima, and the last NaN.
const NestedList kPlane = {{1., 1., 2., 5.}, {1., 0., 5., 2.}, {3., kNan, 7., 7.}, {kNan, 9., 7., 7.}};

/// The four windows above at outputs (0, 0), (0, 1), (1, 0), (1, 1) of rows `out_w` wide, their
/// indices flat in input rows `in_w` wide.
void expect_torchs_choice(const Tensor& values, const Tensor& indices, int64_t out_w,
                          int64_t in_w) {
  const Tensor v = values.to(kFloat64).contiguous();
  const Tensor i = indices.contiguous();
  EXPECT_EQ(v.data_ptr<double>()[0], 1.0);
  EXPECT_EQ(v.data_ptr<double>()[1], 5.0);
  EXPECT_TRUE(std::isnan(v.data_ptr<double>()[out_w]));
  EXPECT_EQ(v.data_ptr<double>()[out_w + 1], 7.0);
  EXPECT_EQ(i.data_ptr<int64_t>()[0], 0);
  EXPECT_EQ(i.data_ptr<int64_t>()[1], 3);
  EXPECT_EQ(i.data_ptr<int64_t>()[out_w], 3 * in_w + 0);      // the NaN at (3, 0)
  EXPECT_EQ(i.data_ptr<int64_t>()[out_w + 1], 2 * in_w + 2);  // the first 7, at (2, 2)
}

TEST(MaxPool2d, TiesKeepTheFirstMaximumAndTheLastNanWinsAsInTorch) {
  for (Dtype dtype : {kFloat32, kFloat64}) {
    SCOPED_TRACE(name(dtype));
    // Every window inside the input: the loop without bounds checks.
    const Tensor x = tensor(kPlane, dtype).view({1, 1, 4, 4});
    auto [values, indices] = max_pool2d_with_indices(x, 2, 2, 0, 1, false);
    expect_torchs_choice(values, indices, 2, 4);
    // The same plane with a fifth row and column and ceil_mode: the last windows pass the
    // edge, so the general loop runs, and its first four windows are the ones above.
    const Tensor wide = full({1, 1, 5, 5}, -1.0, dtype);
    wide.narrow(2, 0, 4).narrow(3, 0, 4).copy_(x[0][0]);
    auto [wide_values, wide_indices] = max_pool2d_with_indices(wide, 2, 2, 0, 1, true);
    ASSERT_EQ(wide_values.size(-1), 3);
    expect_torchs_choice(wide_values, wide_indices, 3, 5);
  }
}

}  // namespace
}  // namespace tide
