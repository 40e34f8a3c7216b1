// snapshot_json: torch's _snapshot() structure for a known allocation sequence, and the
// reader that memviz and replay share (src/memory/snapshot.h).

#include "memory/snapshot.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "memory/caching_allocator.h"
#include "memory_history/test_upstream.h"
#include "tide/error.h"
#include "tide/scope.h"

using ::testing::HasSubstr;
using nlohmann::json;

namespace tide::memory {
namespace {

constexpr int64_t kMiB = 1 << 20;

std::unique_ptr<CachingAllocator> make_allocator(int device = 0,
                                                 testing::TestUpstream** upstream = nullptr) {
  auto up = std::make_unique<testing::TestUpstream>();
  if (upstream != nullptr) *upstream = up.get();
  return std::make_unique<CachingAllocator>(device, std::move(up), AllocatorConfig{});
}

const json* find_segment(const json& snap, const std::string& type) {
  for (const json& s : snap["segments"]) {
    if (s["segment_type"] == type) return &s;
  }
  return nullptr;
}

/// The known sequence: a 1000 B "empty" (freed), a 3 MiB "add" inside Scope "forward" (kept),
/// a 5000 B "mul" used on stream 7 and freed while that use is pending.
struct KnownSequence {
  testing::TestUpstream* upstream = nullptr;
  std::unique_ptr<CachingAllocator> allocator = make_allocator(0, &upstream);
  Block* add = nullptr;
  Block* mul = nullptr;
  json snap;

  KnownSequence() {
    allocator->record_history(true, 100);
    Block* empty = allocator->malloc(1000, 0, "empty");
    {
      Scope scope("forward");
      add = allocator->malloc(3 * kMiB, 0, "add");
    }
    allocator->free(empty);
    mul = allocator->malloc(5000, 0, "mul");
    allocator->record_stream(mul, 7);
    allocator->free(mul);
    snap = json::parse(snapshot_json({allocator.get()}));
  }
};

TEST(SnapshotJson, HasTorchsTopLevelStructure) {
  KnownSequence s;
  ASSERT_TRUE(s.snap.contains("segments"));
  ASSERT_TRUE(s.snap.contains("device_traces"));
  EXPECT_TRUE(s.snap["segments"].is_array());
  ASSERT_TRUE(s.snap["device_traces"].is_array());
  ASSERT_EQ(s.snap["device_traces"].size(), 1u);
  EXPECT_TRUE(s.snap["device_traces"][0].is_array());
  EXPECT_EQ(s.snap["allocator_settings"]["0"]["max_split_size"], nullptr);
  EXPECT_EQ(s.snap["allocator_settings"]["0"]["roundup_power2_divisions"], 0);
}

TEST(SnapshotJson, SegmentsCarryEveryFieldTorchsMemoryVizReads) {
  KnownSequence s;
  ASSERT_EQ(s.snap["segments"].size(), 2u);
  for (const json& seg : s.snap["segments"]) {
    for (const char* key : {"device", "address", "total_size", "allocated_size", "active_size",
                            "requested_size", "stream", "segment_type", "frames", "blocks", "op",
                            "scope"}) {
      EXPECT_TRUE(seg.contains(key)) << key;
    }
    for (const json& b : seg["blocks"]) {
      for (const char* key :
           {"address", "size", "requested_size", "state", "frames", "op", "scope"}) {
        EXPECT_TRUE(b.contains(key)) << key;
      }
    }
  }
}

TEST(SnapshotJson, LargeSegmentHoldsTheActiveBlockWithItsOpAndScope) {
  KnownSequence s;
  const json* large = find_segment(s.snap, "large");
  ASSERT_NE(large, nullptr);
  EXPECT_EQ((*large)["device"], 0);
  EXPECT_EQ((*large)["total_size"], 20 * kMiB);
  EXPECT_EQ((*large)["allocated_size"], 3 * kMiB);
  EXPECT_EQ((*large)["active_size"], 3 * kMiB);
  EXPECT_EQ((*large)["requested_size"], 3 * kMiB);
  EXPECT_EQ((*large)["stream"], 0);
  ASSERT_EQ((*large)["blocks"].size(), 2u);
  const json& block = (*large)["blocks"][0];
  EXPECT_EQ(block["address"], reinterpret_cast<uint64_t>(CachingAllocator::ptr(s.add)));
  EXPECT_EQ(block["address"], (*large)["address"]);
  EXPECT_EQ(block["size"], 3 * kMiB);
  EXPECT_EQ(block["state"], "active_allocated");
  EXPECT_EQ(block["op"], "add");
  EXPECT_EQ(block["scope"], "forward");
  const json& rest = (*large)["blocks"][1];
  EXPECT_EQ(rest["state"], "inactive");
  EXPECT_EQ(rest["size"], 17 * kMiB);
  EXPECT_EQ(rest["op"], nullptr);
  EXPECT_EQ(rest["scope"], nullptr);
}

TEST(SnapshotJson, BlockFreedWhileAnotherStreamUsesItIsActivePendingFree) {
  KnownSequence s;
  const json* small = find_segment(s.snap, "small");
  ASSERT_NE(small, nullptr);
  EXPECT_EQ((*small)["total_size"], 2 * kMiB);
  EXPECT_EQ((*small)["allocated_size"], 0);
  EXPECT_EQ((*small)["active_size"], 5120);
  EXPECT_EQ((*small)["requested_size"], 5000);
  ASSERT_EQ((*small)["blocks"].size(), 2u);
  const json& pending = (*small)["blocks"][0];
  EXPECT_EQ(pending["state"], "active_pending_free");
  EXPECT_EQ(pending["size"], 5120);
  EXPECT_EQ(pending["requested_size"], 5000);
  EXPECT_EQ(pending["op"], "mul");
  EXPECT_EQ(pending["scope"], nullptr);
  EXPECT_EQ((*small)["blocks"][1]["state"], "inactive");
}

TEST(SnapshotJson, PendingBlockBecomesInactiveOnceTheOtherStreamsWorkCompletes) {
  KnownSequence s;
  s.upstream->complete_markers();
  // The allocator polls markers at its next malloc.
  Block* b = s.allocator->malloc(2 * kMiB, 0, "poll");
  json snap = json::parse(snapshot_json({s.allocator.get()}));
  const json* small = find_segment(snap, "small");
  ASSERT_NE(small, nullptr);
  ASSERT_EQ((*small)["blocks"].size(), 1u);
  EXPECT_EQ((*small)["blocks"][0]["state"], "inactive");
  EXPECT_EQ((*small)["active_size"], 0);
  s.allocator->free(b);
}

TEST(SnapshotJson, TraceListsEveryEventInOrderWithOpAndScope) {
  KnownSequence s;
  const json& trace = s.snap["device_traces"][0];
  std::vector<std::string> actions;
  for (const json& e : trace) {
    actions.push_back(e["action"]);
    for (const char* key : {"action", "addr", "size", "stream", "time_us", "frames", "op", "scope"}) {
      EXPECT_TRUE(e.contains(key)) << key;
    }
  }
  EXPECT_EQ(actions, (std::vector<std::string>{"segment_alloc", "alloc", "segment_alloc", "alloc",
                                               "free_requested", "free_completed", "alloc",
                                               "free_requested"}));
  EXPECT_EQ(trace[0]["size"], 2 * kMiB);
  EXPECT_EQ(trace[1]["op"], "empty");
  EXPECT_EQ(trace[1]["scope"], nullptr);
  EXPECT_EQ(trace[2]["size"], 20 * kMiB);
  EXPECT_EQ(trace[3]["op"], "add");
  EXPECT_EQ(trace[3]["scope"], "forward");
  EXPECT_EQ(trace[3]["addr"], reinterpret_cast<uint64_t>(CachingAllocator::ptr(s.add)));
  EXPECT_EQ(trace[4]["addr"], trace[1]["addr"]);
  EXPECT_EQ(trace[4]["op"], "empty");
  EXPECT_EQ(trace[6]["op"], "mul");
  EXPECT_EQ(trace[7]["addr"], reinterpret_cast<uint64_t>(CachingAllocator::ptr(s.mul)));
  for (size_t i = 1; i < trace.size(); ++i) {
    EXPECT_LE(trace[i - 1]["time_us"].get<int64_t>(), trace[i]["time_us"].get<int64_t>());
  }
}

// torch records the caller's request in alloc/free entries (orig_size, block->requested_size),
// which replay under other settings needs: a rounded size would hide what roundup changes.
TEST(SnapshotJson, TraceEntriesCarryTheRequestedSizeAsTorchDoes) {
  KnownSequence s;
  const json& trace = s.snap["device_traces"][0];
  EXPECT_EQ(trace[1]["size"], 1000);  // alloc "empty"
  EXPECT_EQ(trace[4]["size"], 1000);  // its free_requested
  EXPECT_EQ(trace[6]["size"], 5000);  // alloc "mul"
}

TEST(SnapshotJson, HistoryKeepsOnlyTheNewestMaxEntries) {
  auto allocator = make_allocator();
  allocator->record_history(true, 3);
  std::vector<uint64_t> addrs;
  for (int i = 0; i < 5; ++i) {
    Block* b = allocator->malloc(static_cast<size_t>(512 * (i + 1)), 0, "ring");
    addrs.push_back(reinterpret_cast<uint64_t>(CachingAllocator::ptr(b)));
    allocator->free(b);
  }
  json snap = json::parse(snapshot_json({allocator.get()}));
  const json& trace = snap["device_traces"][0];
  ASSERT_EQ(trace.size(), 3u);
  // The last pair was alloc, free_requested, free_completed of the fifth block.
  EXPECT_EQ(trace[0]["action"], "alloc");
  EXPECT_EQ(trace[1]["action"], "free_requested");
  EXPECT_EQ(trace[2]["action"], "free_completed");
  EXPECT_EQ(trace[2]["addr"], addrs.back());
}

TEST(SnapshotJson, NothingIsTracedWhileHistoryIsOff) {
  auto allocator = make_allocator();
  allocator->free(allocator->malloc(4096, 0, "untraced"));
  json snap = json::parse(snapshot_json({allocator.get()}));
  EXPECT_TRUE(snap["device_traces"][0].empty());
  EXPECT_EQ(snap["segments"].size(), 1u);  // the cached segment is still there
}

TEST(SnapshotJson, DeviceTracesHaveOneListPerDeviceIndex) {
  auto allocator = make_allocator(2);
  allocator->record_history(true, 10);
  Block* b = allocator->malloc(100, 0, "x");
  json snap = json::parse(snapshot_json({allocator.get()}, 4));
  ASSERT_EQ(snap["device_traces"].size(), 4u);
  EXPECT_TRUE(snap["device_traces"][0].empty());
  EXPECT_FALSE(snap["device_traces"][2].empty());
  EXPECT_EQ(snap["segments"][0]["device"], 2);
  allocator->free(b);
}

// ---- reading snapshots back ---------------------------------------------------------------

TEST(ParseSnapshot, ReadsBackWhatSnapshotJsonWrote) {
  KnownSequence s;
  Snapshot snap = parse_snapshot(s.snap.dump(), "known", "test");
  ASSERT_EQ(snap.segments.size(), 2u);
  EXPECT_EQ(snap.devices(), std::vector<int>{0});
  EXPECT_TRUE(snap.has_history());
  ASSERT_EQ(snap.device_traces.size(), 1u);
  EXPECT_EQ(snap.device_traces[0].size(), 8u);
  EXPECT_EQ(snap.device_traces[0][3].op, "add");
  EXPECT_EQ(snap.device_traces[0][3].scope, "forward");
  for (const SnapshotSegment& seg : snap.segments) {
    if (seg.segment_type != "large") continue;
    EXPECT_EQ(seg.blocks[0].state, "active_allocated");
    EXPECT_EQ(seg.blocks[0].op, "add");
  }
}

TEST(ParseSnapshot, ReadsTorchsFormatAndNamesTheUserFrameAsScope) {
  Snapshot snap = read_snapshot_file(TIDE_TEST_DATA_DIR "/torch_snapshot_sample.json", "test");
  ASSERT_EQ(snap.segments.size(), 3u);
  ASSERT_EQ(snap.device_traces.size(), 1u);
  EXPECT_EQ(snap.device_traces[0].size(), 16u);
  const SnapshotTraceEntry& alloc = snap.device_traces[0][2];
  EXPECT_EQ(alloc.action, "alloc");
  EXPECT_EQ(alloc.size, 4 * kMiB);
  EXPECT_EQ(alloc.op, "");
  // torch's own frames (site-packages/torch/...) are skipped for the user's.
  EXPECT_EQ(alloc.scope, "make_weights (train.py:10)");
  EXPECT_EQ(snap.device_traces[0][11].action, "oom");
}

TEST(ParseSnapshot, GivesOldTorchBlocksWithoutAddressesTheirPlaceInTheSegment) {
  std::string text = R"({"segments": [{"device": 0, "address": 4096, "total_size": 3072,
      "stream": 0, "segment_type": "small", "blocks": [
        {"size": 1024, "state": "active_allocated"}, {"size": 2048, "state": "inactive"}]}],
    "device_traces": []})";
  Snapshot snap = parse_snapshot(text, "old", "test");
  ASSERT_EQ(snap.segments[0].blocks.size(), 2u);
  EXPECT_EQ(snap.segments[0].blocks[0].address, 4096u);
  EXPECT_EQ(snap.segments[0].blocks[1].address, 5120u);
  EXPECT_EQ(snap.segments[0].blocks[0].requested_size, 1024);
  EXPECT_FALSE(snap.has_history());
}

TEST(ParseSnapshot, RejectsTextThatIsNotJson) {
  try {
    parse_snapshot("{not json", "bad.json", "tide replay");
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[tide replay] 'bad.json' is not valid JSON"));
    EXPECT_THAT(e.what(), HasSubstr("json.dump(torch.cuda.memory._snapshot(), f)"));
  }
}

TEST(ParseSnapshot, RejectsJsonThatIsNotASnapshot) {
  try {
    parse_snapshot(R"({"hello": 1})", "other.json", "tide memviz");
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[tide memviz] 'other.json' is not a memory snapshot: the "
                                    "top level has no \"segments\""));
  }
  try {
    parse_snapshot(R"({"segments": [{"address": 1, "total_size": 2, "blocks": [{"size": 2}]}]})",
                   "s.json", "tide memviz");
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("segments[0][\"blocks\"][0] has no \"state\""));
  }
  try {
    parse_snapshot(R"({"segments": [], "device_traces": [[{"action": "alloc", "addr": "x"}]]})",
                   "t.json", "tide memviz");
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("device_traces[0][0][\"addr\"] is not an integer"));
  }
}

TEST(ReadSnapshotFile, NamesAMissingFileAndWhatToPass) {
  try {
    read_snapshot_file("/nonexistent/snap.json", "tide replay");
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[tide replay] cannot open '/nonexistent/snap.json': No such "
                                    "file or directory"));
    EXPECT_THAT(e.what(), HasSubstr("tide::cuda::dump_snapshot"));
  }
}

TEST(ReadSnapshotFile, ExplainsHowToConvertTorchsPickle) {
  std::string path = ::testing::TempDir() + "snapshot.pickle";
  {
    std::ofstream f(path, std::ios::binary);
    f << "\x80\x04\x95 pickled";
  }
  try {
    read_snapshot_file(path, "tide memviz");
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("is a Python pickle"));
    EXPECT_THAT(e.what(), HasSubstr("json.dump(pickle.load("));
  }
  std::remove(path.c_str());
}

// ---- matching allocations and frees -------------------------------------------------------

TEST(AllocationEvents, AllocationsAliveBeforeTheTraceComeFirst) {
  std::string text = R"({"segments": [{"device": 0, "address": 1000000, "total_size": 2097152,
      "stream": 0, "segment_type": "small", "blocks": [
        {"address": 1000000, "size": 512, "state": "active_allocated", "op": "old"},
        {"address": 1000512, "size": 512, "state": "active_allocated"},
        {"address": 1001024, "size": 2096128, "state": "inactive"}]}],
    "device_traces": [[
      {"action": "free_requested", "addr": 2000000, "size": 700, "stream": 0},
      {"action": "alloc", "addr": 1000512, "size": 500, "stream": 0},
      {"action": "free_requested", "addr": 3000000, "size": 9, "stream": 0},
      {"action": "free_requested", "addr": 3000000, "size": 9, "stream": 0}]]})";
  Snapshot snap = parse_snapshot(text, "t", "test");
  DeviceEvents ev = allocation_events(snap, 0);
  EXPECT_EQ(ev.initial_allocations, 3);  // 2000000 and 3000000 (freed first), 1000000 (untraced)
  EXPECT_EQ(ev.unmatched_frees, 1);      // the second free of 3000000
  ASSERT_EQ(ev.events.size(), 6u);
  EXPECT_TRUE(ev.events[0].initial);
  EXPECT_EQ(ev.events[0].addr, 2000000u);
  EXPECT_EQ(ev.events[0].size, 700);
  EXPECT_EQ(ev.events[1].addr, 3000000u);
  EXPECT_EQ(ev.events[2].addr, 1000000u);
  ASSERT_NE(ev.events[2].block, nullptr);
  EXPECT_EQ(ev.events[2].block->op, "old");
  EXPECT_EQ(ev.events[3].kind, AllocationEvent::Kind::Free);
  EXPECT_EQ(ev.events[3].addr, 2000000u);
  EXPECT_EQ(ev.events[4].kind, AllocationEvent::Kind::Alloc);
  EXPECT_FALSE(ev.events[4].initial);
  EXPECT_EQ(ev.events[5].kind, AllocationEvent::Kind::Free);
  EXPECT_EQ(ev.events[5].addr, 3000000u);
}

}  // namespace
}  // namespace tide::memory
