// set_default_dtype / get_default_dtype: what is accepted, what is refused and who sees it.
// Effects on factories, printing and promotion are tested with those units.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "support/defaults_guard.h"
#include "support/error_of.h"
#include "tide/default_dtype.h"
#include "tide/scalar.h"

using namespace tide;
using test::DefaultDtypeGuard;
using test::error_of;
using ::testing::HasSubstr;

TEST(DefaultDtype, IsFloat32UntilSet) { EXPECT_EQ(get_default_dtype(), kFloat32); }

TEST(DefaultDtype, AcceptsEveryFloatingDtypeAsTodaysTorch) {
  DefaultDtypeGuard restore(kFloat32);
  for (Dtype d : {kFloat64, kFloat16, kBFloat16, kFloat32}) {
    set_default_dtype(d);
    EXPECT_EQ(get_default_dtype(), d);
  }
}

TEST(DefaultDtype, RefusesNonFloatingDtypesWithTorchsWordingAndKeepsTheOldValue) {
  DefaultDtypeGuard restore(kFloat64);
  for (Dtype d : {kInt64, kInt32, kUInt8, kBool}) {
    std::string msg = error_of([&] { set_default_dtype(d); });
    EXPECT_THAT(msg, HasSubstr("[set_default_dtype] only floating-point types are supported as "
                               "the default type, but got "));
    EXPECT_THAT(msg, HasSubstr(name(d)));
    EXPECT_THAT(msg, HasSubstr("pass tide::kFloat32"));
    EXPECT_EQ(get_default_dtype(), kFloat64);
  }
}

TEST(DefaultDtype, FloatingScalarsTakeTheDefaultDtype) {
  DefaultDtypeGuard restore(kFloat64);
  EXPECT_EQ(Scalar(2.5).default_dtype(), kFloat64);
  EXPECT_EQ(Scalar(2.5f).default_dtype(), kFloat64);  // a C++ float is a Python float here
  EXPECT_EQ(Scalar(2).default_dtype(), kInt64);
  EXPECT_EQ(Scalar(true).default_dtype(), kBool);
}

TEST(DefaultDtype, IsProcessWideAsTorchs) {
  DefaultDtypeGuard restore(kFloat32);
  std::thread([] { set_default_dtype(kFloat64); }).join();
  EXPECT_EQ(get_default_dtype(), kFloat64);
  Dtype seen = kBool;
  std::thread([&] { seen = get_default_dtype(); }).join();
  EXPECT_EQ(seen, kFloat64);
}
