// tide::cuda::record_memory_history, memory_snapshot and dump_snapshot over the simulated
// GPUs' caching allocators (include/tide/cuda/memory_history.h).

#include "tide/cuda/memory_history.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tide/cuda/device.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/scope.h"
#include "tide/testing/sim_hooks.h"

using ::testing::HasSubstr;
using nlohmann::json;

namespace {

// This binary's other tests use their own allocators; these need two simulated GPUs, chosen
// before the backend's first use.
class TwoSimulatedDevices : public ::testing::Environment {
 public:
  void SetUp() override { tide::testing::set_sim_devices_for_testing(2); }
};
[[maybe_unused]] ::testing::Environment* const kDevices =
    ::testing::AddGlobalTestEnvironment(new TwoSimulatedDevices);

const json* find_block(const json& snap, int device, const std::string& scope) {
  for (const json& seg : snap["segments"]) {
    if (seg["device"] != device) continue;
    for (const json& b : seg["blocks"]) {
      if (b["scope"] == scope) return &b;
    }
  }
  return nullptr;
}

TEST(MemoryHistory, SnapshotShowsTensorsWithTheirOpAndScopeOnEachDevice) {
  ASSERT_EQ(tide::cuda::device_count(), 2);
  tide::cuda::record_memory_history(true);
  {
    tide::Scope scope("history-test");
    tide::Tensor a = tide::empty({1000}, tide::device(tide::Device(tide::kCUDA, 0)));
    tide::Tensor b = tide::empty({64, 1024}, tide::device(tide::Device(tide::kCUDA, 1)));
    json snap = json::parse(tide::cuda::memory_snapshot());
    ASSERT_EQ(snap["device_traces"].size(), 2u);
    for (int device : {0, 1}) {
      const json* block = find_block(snap, device, "history-test");
      ASSERT_NE(block, nullptr) << "device " << device;
      EXPECT_EQ((*block)["state"], "active_allocated");
      EXPECT_EQ((*block)["op"], "empty");
      bool traced = false;
      for (const json& e : snap["device_traces"][static_cast<size_t>(device)]) {
        traced |= e["action"] == "alloc" && e["addr"] == (*block)["address"] &&
                  e["scope"] == "history-test";
      }
      EXPECT_TRUE(traced) << "device " << device;
    }
  }
  // The tensors are gone: their frees are in the history, their blocks inactive.
  json snap = json::parse(tide::cuda::memory_snapshot());
  EXPECT_EQ(find_block(snap, 0, "history-test"), nullptr);
  bool freed = false;
  for (const json& e : snap["device_traces"][0]) {
    freed |= e["action"] == "free_requested" && e["scope"] == "history-test";
  }
  EXPECT_TRUE(freed);
  tide::cuda::record_memory_history(false);
}

TEST(MemoryHistory, DumpSnapshotWritesTheSnapshotToAFile) {
  tide::cuda::record_memory_history(true, 10);
  tide::Tensor a = tide::empty({256}, tide::device(tide::Device(tide::kCUDA, 0)));
  std::string path = ::testing::TempDir() + "tide_dump_snapshot_test.json";
  tide::cuda::dump_snapshot(path);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  json dumped = json::parse(text.str());
  EXPECT_EQ(dumped, json::parse(tide::cuda::memory_snapshot()));
  EXPECT_LE(dumped["device_traces"][0].size(), 10u);
  std::remove(path.c_str());
  tide::cuda::record_memory_history(false);
}

TEST(MemoryHistory, DumpSnapshotToAnUnwritablePathSaysWhatToDo) {
  try {
    tide::cuda::dump_snapshot("/nonexistent-dir/snap.json");
    FAIL() << "expected tide::Error";
  } catch (const tide::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[tide::cuda::dump_snapshot] cannot write "
                                    "'/nonexistent-dir/snap.json': No such file or directory"));
    EXPECT_THAT(e.what(), HasSubstr("directory that exists and is writable"));
  }
}

TEST(MemoryHistory, ZeroMaxEntriesIsRejected) {
  try {
    tide::cuda::record_memory_history(true, 0);
    FAIL() << "expected tide::Error";
  } catch (const tide::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[tide::cuda::record_memory_history] max_entries must be at "
                                    "least 1, got 0"));
  }
}

}  // namespace
