#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "tide/factories.h"
#include "tide/tensor.h"

using namespace tide;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(Arange, EndAloneCountsFromZeroAsInt64) {
  Tensor t = arange(5);
  EXPECT_EQ(t.dtype(), kInt64);
  EXPECT_EQ(t.tolist<int64_t>(), (std::vector<int64_t>{0, 1, 2, 3, 4}));
}

TEST(Arange, FloatingEndGivesFloat32) {
  Tensor t = arange(3.0);
  EXPECT_EQ(t.dtype(), kFloat32);
  EXPECT_EQ(t.tolist<float>(), (std::vector<float>{0, 1, 2}));
}

TEST(Arange, AnyFloatingArgumentGivesFloat32) {
  Tensor t = arange(1, 2.5, 0.5);
  EXPECT_EQ(t.dtype(), kFloat32);
  EXPECT_EQ(t.tolist<float>(), (std::vector<float>{1.0f, 1.5f, 2.0f}));
  EXPECT_EQ(arange(0, 3, 0.5).dtype(), kFloat32);
}

TEST(Arange, LengthIsCeilOfSpanOverStep) {
  EXPECT_EQ(arange(0, 1, 0.1).numel(), 10);
  EXPECT_EQ(arange(0, 10, 3).tolist<int64_t>(), (std::vector<int64_t>{0, 3, 6, 9}));
  EXPECT_EQ(arange(0, 9, 3).tolist<int64_t>(), (std::vector<int64_t>{0, 3, 6}));
  EXPECT_EQ(arange(4, 4).numel(), 0);
}

TEST(Arange, CountsDownWithANegativeStep) {
  EXPECT_EQ(arange(10, 0, -3).tolist<int64_t>(), (std::vector<int64_t>{10, 7, 4, 1}));
  EXPECT_EQ(arange(1.0, 0.0, -0.25).tolist<float>(), (std::vector<float>{1.0f, 0.75f, 0.5f, 0.25f}));
}

TEST(Arange, OptionsChooseTheDtype) {
  Tensor t = arange(0, 4, 1, dtype(kFloat64));
  EXPECT_EQ(t.dtype(), kFloat64);
  EXPECT_EQ(t.tolist<double>(), (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(arange(3, dtype(kInt32)).tolist<int32_t>(), (std::vector<int32_t>{0, 1, 2}));
}

TEST(Arange, RejectsAZeroStep) {
  EXPECT_THAT([] { arange(0, 5, 0); }, ThrowsMessage<Error>(HasSubstr("[arange] step must be nonzero")));
  EXPECT_THAT([] { arange(0.0, 5.0, 0.0); },
              ThrowsMessage<Error>(HasSubstr("[arange] step must be nonzero")));
}

TEST(Arange, RejectsAStepPointingAwayFromEnd) {
  EXPECT_THAT([] { arange(0, 5, -1); },
              ThrowsMessage<Error>(HasSubstr("[arange] upper bound and larger bound inconsistent "
                                             "with step sign")));
  EXPECT_THAT([] { arange(5.0, 0.0, 0.5); },
              ThrowsMessage<Error>(HasSubstr("upper bound and larger bound inconsistent with step sign")));
}

TEST(Arange, RejectsInfiniteBounds) {
  EXPECT_THAT([] { arange(0.0, INFINITY); },
              ThrowsMessage<Error>(HasSubstr("[arange] unsupported range: 0 -> inf")));
}

TEST(Linspace, IncludesBothEnds) {
  Tensor t = linspace(0, 1, 5);
  EXPECT_EQ(t.dtype(), kFloat32);
  EXPECT_EQ(t.tolist<float>(), (std::vector<float>{0.0f, 0.25f, 0.5f, 0.75f, 1.0f}));
  EXPECT_EQ(linspace(-1, 1, 4).tolist<float>().back(), 1.0f);
}

TEST(Linspace, IntegerDtypeTruncatesAsTorch) {
  EXPECT_EQ(linspace(0, 10, 4, dtype(kInt64)).tolist<int64_t>(), (std::vector<int64_t>{0, 3, 6, 10}));
}

TEST(Linspace, OneStepIsStartAndZeroStepsIsEmpty) {
  EXPECT_EQ(linspace(2, 9, 1).tolist<float>(), (std::vector<float>{2.0f}));
  EXPECT_EQ(linspace(2, 9, 0).numel(), 0);
}

TEST(Linspace, RejectsNegativeSteps) {
  EXPECT_THAT([] { linspace(0, 1, -1); },
              ThrowsMessage<Error>(HasSubstr("[linspace] number of steps must be non-negative, but got -1")));
}
