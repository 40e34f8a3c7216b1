// TensorOptions knows what was given, factories apply the defaults to the rest, and device
// strings pick the right overloads (Note [String devices]). Runs without cuda devices; the
// same spellings on simulated GPUs are in tests/device/string_devices_test.cpp.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "support/defaults_guard.h"
#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::DefaultDeviceGuard;
using test::DefaultDtypeGuard;
using test::error_of;
using ::testing::HasSubstr;

// Cheap to pass by value, as a factory's options are on every factory call.
static_assert(sizeof(TensorOptions) <= 16);
static_assert(std::is_trivially_copyable_v<TensorOptions>);

// The seeds' spellings compile (they did not: the literal was ambiguous between Device and
// TensorOptions).
static_assert(requires(const Tensor& t) { t.to("cuda:0"); });
static_assert(requires(const Tensor& t) { t.to("cuda:0", true); });
static_assert(requires(const Tensor& t) { t.to("cuda:0", false, true); });
static_assert(requires(const Tensor& t) { t.to("cuda:0", kFloat64); });
static_assert(requires(const Tensor& t, std::string s) { t.to(s); });
static_assert(requires(const Tensor& t, std::string s) { t.to(s, true, false); });
static_assert(requires(const Tensor& t) { t.cuda("cuda:1"); });
static_assert(requires { empty({2}, "cuda:1"); });
static_assert(requires(std::string s) { zeros({2}, s); });

TEST(TensorOptions, RemembersWhetherDeviceAndDtypeWereGiven) {
  TensorOptions none;
  EXPECT_FALSE(none.has_device());
  EXPECT_FALSE(none.has_dtype());
  EXPECT_EQ(none.device_opt(), std::nullopt);
  EXPECT_EQ(none.dtype_opt(), std::nullopt);
  EXPECT_EQ(none.device(), Device(kCPU));
  EXPECT_EQ(none.dtype(), kFloat32);

  TensorOptions both = device("cuda:1").dtype(kInt64);
  EXPECT_TRUE(both.has_device());
  EXPECT_TRUE(both.has_dtype());
  EXPECT_EQ(both.device_opt(), Device("cuda:1"));
  EXPECT_EQ(both.dtype_opt(), kInt64);

  EXPECT_TRUE(TensorOptions("cpu").has_device());
  EXPECT_TRUE(TensorOptions(std::string("cuda")).has_device());
  EXPECT_FALSE(TensorOptions(kInt32).has_device());
  EXPECT_FALSE(TensorOptions(Device(kCPU)).has_dtype());
  // An explicit cpu is given, even though it equals the default: *_like must honour it.
  EXPECT_TRUE(device(Device(kCPU)).has_device());
}

TEST(TensorOptions, UnsetFieldsReadTheDefaults) {
  DefaultDtypeGuard f64(kFloat64);
  DefaultDeviceGuard cuda(Device("cuda:1"));
  TensorOptions none;
  EXPECT_EQ(none.dtype(), kFloat64);
  EXPECT_EQ(none.device(), Device("cuda:1"));
  EXPECT_EQ(dtype(kInt32).device(), Device("cuda:1"));
  EXPECT_EQ(device("cpu").dtype(), kFloat64);
  EXPECT_EQ(device("cpu").device(), Device("cpu"));
}

TEST(TensorOptions, DeviceStringsInToPickTheDeviceOverload) {
  Tensor x = tensor({1., 2.});
  EXPECT_TRUE(x.to("cpu").is_same(x));  // nothing to do: the same tensor, as torch
  EXPECT_TRUE(x.to(std::string("cpu")).is_same(x));
  EXPECT_TRUE(x.to("cpu", /*non_blocking=*/true).is_same(x));
  Tensor copy = x.to("cpu", false, /*copy=*/true);
  EXPECT_FALSE(copy.is_same(x));
  EXPECT_EQ(copy.tolist<float>(), x.tolist<float>());
  Tensor f64 = x.to("cpu", kFloat64);
  EXPECT_EQ(f64.dtype(), kFloat64);
  EXPECT_EQ(f64.device(), Device(kCPU));
}

TEST(TensorOptions, ABadDeviceStringInToNamesTheSpec) {
  Tensor x = zeros({1});
  std::string msg = error_of([&] { x.to("gpu"); });
  EXPECT_THAT(msg, HasSubstr("gpu"));
  EXPECT_THAT(msg, HasSubstr("cuda:N"));
  EXPECT_THAT(error_of([&] { x.to(std::string("cuda:01")); }), HasSubstr("cuda:01"));
}

TEST(TensorOptions, ToWithOptionsKeepsWhatTheyDoNotGive) {
  DefaultDtypeGuard f64(kFloat64);
  DefaultDeviceGuard cuda(Device("cuda"));  // no cuda device here: it must not be used
  Tensor x = zeros({2}, device("cpu").dtype(kInt32));
  Tensor y = x.to(dtype(kFloat32));
  EXPECT_EQ(y.device(), Device(kCPU));
  EXPECT_EQ(y.dtype(), kFloat32);
  EXPECT_TRUE(x.to(TensorOptions()).is_same(x));
  EXPECT_EQ(x.to(kInt64).device(), Device(kCPU));
}

// A device string is never a number: a Scalar takes no pointer, so arange(3, "cuda:1") is
// arange(end, options) and full({2}, "cuda:1") does not compile as full({2}, true).
template <class Spec>
concept FullTakesAsValue = requires(Spec spec) { full({2}, spec); };
template <class Spec>
concept ArangeTakesAsOptions = requires(Spec spec) { arange(3, spec); };
static_assert(!std::is_convertible_v<const char*, Scalar>);
static_assert(!FullTakesAsValue<const char*>);
static_assert(ArangeTakesAsOptions<const char*>);
