// tide::cuda device functions and DeviceGuard, in every configuration (tests/CMakeLists.txt).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "device_test_util.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/testing/sim_hooks.h"

using namespace tide;
using ::testing::HasSubstr;

namespace {

int expected_device_count() {
  const char* n = std::getenv("TIDE_SIM_DEVICES");
  if (n == nullptr) return 0;
  if (test::env_is("CUDA_VISIBLE_DEVICES", "3,1")) return 2;
  return std::atoi(n);
}

}  // namespace

TEST(CudaDevice, CountFollowsTheEnvironment) {
  TIDE_REQUIRE_SIMULATED("the expected device count is TIDE_SIM_DEVICES");
  EXPECT_EQ(cuda::device_count(), expected_device_count());
  EXPECT_EQ(cuda::is_available(), expected_device_count() > 0);
}

TEST(CudaDevice, WithoutDevicesEveryUseRaisesNamingTheCountAndTheRemedy) {
  if (cuda::device_count() != 0) GTEST_SKIP() << "devices exist";
  EXPECT_FALSE(cuda::is_available());
  for (auto use : std::vector<std::function<void()>>{
           [] { cuda::set_device(0); }, [] { cuda::current_device(); },
           [] { cuda::synchronize(); }, [] { cuda::get_device_properties(0); },
           [] { cuda::Stream s; }, [] { cuda::current_stream(); },
           [] { cuda::DeviceGuard g(0); }}) {
    try {
      use();
      ADD_FAILURE() << "expected tide::Error";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("device_count() is 0"));
      EXPECT_THAT(e.what(), HasSubstr("TIDE_SIM_DEVICES"));
    }
  }
}

TEST(CudaDevice, PropertiesSaySimulatedAndShowThePhysicalOrdinal) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED("simulated device properties and names");
  const bool reordered = test::env_is("CUDA_VISIBLE_DEVICES", "3,1");
  for (int d = 0; d < cuda::device_count(); ++d) {
    cuda::DeviceProperties p = cuda::get_device_properties(d);
    EXPECT_TRUE(p.simulated);
    const int physical = reordered ? (d == 0 ? 3 : 1) : d;
    EXPECT_EQ(p.name, "tide simulated GPU (physical " + std::to_string(physical) + ")");
    EXPECT_EQ(cuda::get_device_name(d), p.name);
    EXPECT_EQ(p.total_memory, test::env_is("TIDE_SIM_MEMORY", "64MiB") ? (int64_t{64} << 20)
                                                                       : (int64_t{16} << 30));
    EXPECT_GT(p.multi_processor_count, 0);
  }
  std::ostringstream os;
  os << cuda::get_device_properties();
  EXPECT_THAT(os.str(), HasSubstr("simulated=True"));
}

TEST(CudaDevice, AnIndexPastTheCountRaisesNamingTheCount) {
  TIDE_REQUIRE_DEVICES(1);
  const int n = cuda::device_count();
  for (auto use : std::vector<std::function<void()>>{
           [n] { cuda::set_device(n); }, [] { cuda::set_device(7 + 32); },
           [n] { cuda::DeviceGuard g(n); }, [n] { cuda::synchronize(n); },
           [n] { cuda::Stream s(n); }, [n] { cuda::get_device_properties(n); },
           [n] { cuda::DeviceGuard g(Device(kCUDA, n)); }, [n] { cuda::current_stream(n); }}) {
    try {
      use();
      ADD_FAILURE() << "expected tide::Error";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("invalid device ordinal"));
      EXPECT_THAT(e.what(), HasSubstr(n == 1 ? "there is 1 cuda device"
                                             : "there are " + std::to_string(n) + " cuda devices"));
    }
  }
}

TEST(CudaDevice, SetDeviceIsPerThreadAndStartsAtZero) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard restore(0);
  cuda::set_device(1);
  EXPECT_EQ(cuda::current_device(), 1);
  int other_thread_device = -1;
  std::thread t([&] { other_thread_device = cuda::current_device(); });
  t.join();
  EXPECT_EQ(other_thread_device, 0);
  EXPECT_EQ(cuda::current_device(), 1);
  cuda::set_device(-1);  // as torch: a negative index changes nothing
  EXPECT_EQ(cuda::current_device(), 1);
}

TEST(DeviceGuard, RestoresThePreviousDevice) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::set_device(0);
  {
    cuda::DeviceGuard g(1);
    EXPECT_EQ(g.original_device(), 0);
    EXPECT_EQ(cuda::current_device(), 1);
    {
      cuda::DeviceGuard inner(Device("cuda:0"));
      EXPECT_EQ(cuda::current_device(), 0);
    }
    EXPECT_EQ(cuda::current_device(), 1);
  }
  EXPECT_EQ(cuda::current_device(), 0);
}

TEST(DeviceGuard, WithoutIndexChangesNothing) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::set_device(0);
  cuda::DeviceGuard g(Device("cuda"));
  EXPECT_EQ(g.original_device(), -1);
  EXPECT_EQ(cuda::current_device(), 0);
}

TEST(DeviceGuard, RejectsACpuDevice) {
  try {
    cuda::DeviceGuard g(Device("cpu"));
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[cuda::DeviceGuard] expected a cuda device, but got: cpu"));
  }
}

TEST(CudaDevice, PeersCanAccessEachOtherButNotThemselves) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_SIMULATED("every pair of simulated GPUs is peer-capable; real GPUs may not be");
  EXPECT_TRUE(cuda::can_device_access_peer(0, 1));
  EXPECT_FALSE(cuda::can_device_access_peer(1, 1));
  EXPECT_THROW(cuda::can_device_access_peer(0, cuda::device_count()), Error);
}

TEST(CudaDevice, ChangingTheSimulatedDeviceCountAfterFirstUseRaises) {
  TIDE_REQUIRE_SIMULATED("the expected device count is TIDE_SIM_DEVICES");
  cuda::device_count();  // first use
  try {
    tide::testing::set_sim_devices_for_testing(3);
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[set_sim_devices_for_testing]"));
    EXPECT_THAT(e.what(), HasSubstr("after first use has no effect"));
  }
  EXPECT_EQ(cuda::device_count(), expected_device_count());
}
