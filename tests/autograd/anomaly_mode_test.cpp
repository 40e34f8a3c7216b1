// Anomaly mode (tide/anomaly_mode.h): a NaN gradient raises naming the node, so the forward
// op, and which of its outputs; off, NaN gradients go through; the guard restores the setting.

#include "tide/anomaly_mode.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using autograd::AnomalyMode;
using autograd::DetectAnomalyGuard;
using test::error_of;
using ::testing::HasSubstr;

TEST(AnomalyMode, ANanGradientRaisesNamingTheForwardOp) {
  Tensor x = zeros({2}).requires_grad_();
  {
    DetectAnomalyGuard guard;
    EXPECT_TRUE(AnomalyMode::is_enabled());
    // d(x/x)/dx: 1/x = inf for self, -x/x^2 = NaN for other (torch's DivBackward0 too).
    EXPECT_THAT(error_of([&] { (x / x).sum().backward(); }),
                HasSubstr("Function 'DivBackward0' returned nan values in its 1th output."));
  }
  EXPECT_FALSE(AnomalyMode::is_enabled());
  (x / x).sum().backward();
  EXPECT_TRUE(x.grad().isnan().all().item<bool>());
}

TEST(AnomalyMode, AFiniteBackwardIsUnchanged) {
  DetectAnomalyGuard guard;
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  (x * x).sum().backward();
  EXPECT_EQ(x.grad().tolist<double>(), (std::vector<double>{2, 4}));
}

}  // namespace
}  // namespace tide
