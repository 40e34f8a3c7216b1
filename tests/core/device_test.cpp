#include "tide/device.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unordered_set>

#include "tide/error.h"

using namespace tide;
using ::testing::HasSubstr;

namespace {
std::string error_of_device(const std::string& spec) {
  try {
    Device d(spec);
  } catch (const Error& e) {
    return e.what();
  }
  return "<no error>";
}
}  // namespace

TEST(Device, ParsesTorchSpellings) {
  EXPECT_EQ(Device("cpu"), Device(kCPU));
  EXPECT_EQ(Device("cuda"), Device(kCUDA));
  EXPECT_EQ(Device("cuda:1"), Device(kCUDA, 1));
  EXPECT_EQ(Device("cpu:0"), Device(kCPU, 0));
  EXPECT_EQ(Device("cuda:10").index(), 10);
  EXPECT_FALSE(Device("cuda").has_index());
  EXPECT_TRUE(Device("cuda:0").has_index());
}

TEST(Device, PrintsAsTorch) {
  EXPECT_EQ(Device("cuda:1").str(), "cuda:1");
  EXPECT_EQ(Device("cuda").str(), "cuda");
  EXPECT_EQ(Device("cpu").str(), "cpu");
  std::ostringstream os;
  os << Device(kCUDA, 2);
  EXPECT_EQ(os.str(), "cuda:2");
}

TEST(Device, CudaWithoutIndexDiffersFromCuda0) {
  EXPECT_NE(Device("cuda"), Device("cuda:0"));
  EXPECT_TRUE(Device("cuda:0").is_cuda());
  EXPECT_TRUE(Device("cpu").is_cpu());
}

TEST(Device, HashesConsistentlyWithEquality) {
  std::unordered_set<Device> set{Device("cuda:0"), Device("cuda:1"), Device("cuda"), Device("cpu")};
  EXPECT_EQ(set.size(), 4u);
  EXPECT_TRUE(set.count(Device(kCUDA, 1)));
  EXPECT_FALSE(set.count(Device(kCUDA, 2)));
}

class DeviceBadSpec : public ::testing::TestWithParam<const char*> {};

TEST_P(DeviceBadSpec, RaisesErrorNamingSpecAndAcceptedForms) {
  const std::string spec = GetParam();
  try {
    Device d(spec);
    FAIL() << "expected tide::Error for '" << spec << "'";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[Device] invalid device string '" + spec + "'"));
    EXPECT_THAT(e.what(), HasSubstr("'cuda:N'"));
    EXPECT_THAT(e.what(), HasSubstr("'cpu'"));
  }
}

INSTANTIATE_TEST_SUITE_P(TorchRejects, DeviceBadSpec,
                         ::testing::Values("gpu", "CUDA", "cuda:-1", "cuda:x", "cuda:01",
                                           "cuda:1:2", " cuda", "", "cuda:", "cpu:x", "cuda "));

TEST(Device, RejectsNegativeIndexBelowMinusOne) {
  EXPECT_THROW(Device(kCUDA, -2), Error);
}

// Found by the device_string fuzzer: an index past int16 wrapped into another device (or none).
TEST(Device, RejectsAnIndexADeviceCannotHold) {
  EXPECT_EQ(Device("cuda:32767").index(), 32767);
  EXPECT_THAT(error_of_device("cuda:32768"), HasSubstr("the device index 32768 is too large, the largest is 32767"));
  EXPECT_THAT(error_of_device("cpu:65536"), HasSubstr("too large"));
}
