// The caching allocator as tensors and tide::cuda's memory API see it (include/tide/cuda/memory.h,
// src/memory/device_allocators.h): figures after tensor creation and deletion, empty_cache,
// peaks, per-device independence, stream safety (Note [Stream uses] in src/ops/dispatch.h),
// memory_summary's layout, fault injection, the memory fraction and TIDE_CUDA_ALLOC_CONF.
// Runs once per simulated configuration (1, 2, 4 GPUs, blocking launches, 64 MiB devices).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <unistd.h>

#include "runtime/device_test_util.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"
#include "tide/tensor.h"
#include "tide/testing/sim_hooks.h"

using namespace tide;
using ::testing::HasSubstr;
using tide::testing::StreamHold;

namespace {

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * kKiB;

Device cuda_dev(int index) { return Device(kCUDA, index); }

/// `n` float32 elements on cuda:`device`.
Tensor floats(int64_t n, int device = 0) { return empty({n}, TensorOptions(cuda_dev(device))); }

/// Runs `body` in a new process that re-executes only the current test (gtest's threadsafe
/// death-test style), so it starts with devices nothing has allocated on and reads the
/// environment again. `body` returns "" on success, or what went wrong.
void expect_in_fresh_process(const std::function<std::string()>& body) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        const std::string failure = body();
        if (!failure.empty()) std::fprintf(stderr, "%s\n", failure.c_str());
        std::fflush(stderr);
        std::_Exit(failure.empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

std::string expect_eq(const char* what, int64_t actual, int64_t expected) {
  if (actual == expected) return "";
  return std::string(what) + ": " + std::to_string(actual) + ", expected " +
         std::to_string(expected);
}

// Every test starts from empty caches and checks that the previous one left no tensor behind.
class Memory : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int d = 0; d < cuda::device_count(); ++d) cuda::synchronize(d);
    cuda::empty_cache();
    for (int d = 0; d < cuda::device_count(); ++d) {
      ASSERT_EQ(cuda::memory_allocated(d), 0) << "cuda:" << d;
      ASSERT_EQ(cuda::memory_reserved(d), 0) << "cuda:" << d;
      cuda::reset_peak_memory_stats(d);
    }
  }
};

}  // namespace

// ---- figures ---------------------------------------------------------------------------------

TEST(MemoryInANewProcess, AFreshDeviceReportsNothingAllocatedOrReservedEvenAfterOtherRuntimeUse) {
  TIDE_REQUIRE_DEVICES(1);
  expect_in_fresh_process([] {
    // The runtime's own state (streams, events, generators, cpu tensors) is not device memory.
    manual_seed(7);
    Tensor host = ones({256});
    cuda::Stream side(0);
    side.record_event().synchronize();
    for (int d = 0; d < cuda::device_count(); ++d) {
      cuda::synchronize(d);
      for (auto* key : {"allocated_bytes.all.current", "reserved_bytes.all.current",
                        "allocated_bytes.all.peak", "reserved_bytes.all.peak",
                        "segment.all.current", "allocation.all.allocated"}) {
        std::string f = expect_eq(key, cuda::memory_stats(d).at(key), 0);
        if (!f.empty()) return f;
      }
    }
    return std::string();
  });
}

TEST_F(Memory, ATensorCountsItsSizeRoundedTo512BytesAndReservesOneSmallSegment) {
  TIDE_REQUIRE_DEVICES(1);
  {
    Tensor t = floats(1000);  // 4000 B, rounded up to 4096; small requests share 2 MiB segments
    EXPECT_EQ(cuda::memory_allocated(0), 4096);
    EXPECT_EQ(cuda::memory_reserved(0), 2 * kMiB);
    const auto stats = cuda::memory_stats(0);
    EXPECT_EQ(stats.at("requested_bytes.all.current"), 4000);
    EXPECT_EQ(stats.at("allocated_bytes.small_pool.current"), 4096);
    EXPECT_EQ(stats.at("allocated_bytes.large_pool.current"), 0);
    EXPECT_EQ(stats.at("allocation.all.current"), 1);
    EXPECT_EQ(stats.at("segment.all.current"), 1);
    Tensor u = floats(1000);  // the same segment serves the second one
    EXPECT_EQ(cuda::memory_allocated(0), 8192);
    EXPECT_EQ(cuda::memory_reserved(0), 2 * kMiB);
  }
  EXPECT_EQ(cuda::memory_allocated(0), 0) << "deleting the tensors frees their blocks";
  EXPECT_EQ(cuda::memory_reserved(0), 2 * kMiB) << "the segment stays cached";
}

TEST_F(Memory, ALargeTensorTakesA20MiBSegmentAndABigOneItsOwnRoundedTo2MiB) {
  TIDE_REQUIRE_DEVICES(1);
  {
    Tensor medium = floats(300000);  // 1.2 MB: large pool, 1..10 MiB requests use 20 MiB segments
    EXPECT_EQ(cuda::memory_allocated(0), 1200128);
    EXPECT_EQ(cuda::memory_reserved(0), 20 * kMiB);
    Tensor fits = floats(2 * kMiB);  // 8 MiB: best fit in the free rest of that segment
    EXPECT_EQ(cuda::memory_reserved(0), 20 * kMiB);
  }
  cuda::empty_cache();
  Tensor big = floats(3 * kMiB + 1);  // 12 MiB + 4 B: a segment of its own, rounded up to 2 MiB
  EXPECT_EQ(cuda::memory_allocated(0), 12 * kMiB + 512);
  EXPECT_EQ(cuda::memory_reserved(0), 14 * kMiB);
}

TEST_F(Memory, AnEmptyTensorTakesNoMemory) {
  TIDE_REQUIRE_DEVICES(1);
  const int64_t allocations = cuda::memory_stats(0).at("allocation.all.allocated");
  Tensor t = floats(0);
  EXPECT_EQ(t.numel(), 0);
  EXPECT_EQ(cuda::memory_allocated(0), 0);
  EXPECT_EQ(cuda::memory_reserved(0), 0);
  EXPECT_EQ(cuda::memory_stats(0).at("allocation.all.allocated"), allocations);
}

TEST_F(Memory, OpResultsAndTheirFreeingAreCountedOnceTheKernelsRan) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor a = full({1000}, 2.0, TensorOptions(cuda_dev(0)));
  {
    Tensor b = a * 3;
    Tensor c = b + 1;
    EXPECT_EQ(cuda::memory_allocated(0), 3 * 4096);
    EXPECT_EQ(c.tolist<float>(), std::vector<float>(1000, 7.f));
  }
  cuda::synchronize(0);  // kernels hold their operands until they have run
  EXPECT_EQ(cuda::memory_allocated(0), 4096);
  EXPECT_EQ(cuda::max_memory_allocated(0), 3 * 4096);
}

TEST_F(Memory, CachedAliasesReportReserved) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor t = floats(300000);
  t = Tensor();
  EXPECT_EQ(cuda::memory_cached(0), cuda::memory_reserved(0));
  EXPECT_EQ(cuda::max_memory_cached(0), cuda::max_memory_reserved(0));
  EXPECT_EQ(cuda::memory_cached(0), 20 * kMiB);
}

TEST_F(Memory, MemoryStatsUseTorchsKeyNames) {
  TIDE_REQUIRE_DEVICES(1);
  const auto stats = cuda::memory_stats();
  for (const char* metric : {"allocated_bytes", "reserved_bytes", "active_bytes", "requested_bytes",
                             "inactive_split_bytes", "allocation", "segment", "active",
                             "inactive_split"}) {
    for (const char* pool : {"all", "large_pool", "small_pool"}) {
      for (const char* column : {"current", "peak", "allocated", "freed"}) {
        const std::string key = std::string(metric) + "." + pool + "." + column;
        EXPECT_TRUE(stats.count(key)) << key;
      }
    }
  }
  for (const char* key : {"num_alloc_retries", "num_ooms", "oversize_allocations.current",
                          "oversize_segments.peak"}) {
    EXPECT_TRUE(stats.count(key)) << key;
  }
}

// ---- empty_cache and peaks -------------------------------------------------------------------

TEST_F(Memory, EmptyCacheReleasesUnusedSegmentsButNeverMemoryATensorHolds) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor kept = full({300000}, 5.0, TensorOptions(cuda_dev(0)));  // a 20 MiB large segment
  { Tensor dropped = floats(1000); }                             // a 2 MiB small segment, unused
  EXPECT_EQ(cuda::memory_reserved(0), 22 * kMiB);
  const int64_t free_before = cuda::mem_get_info(0).first;
  cuda::empty_cache();
  EXPECT_EQ(cuda::memory_reserved(0), 20 * kMiB);
  EXPECT_EQ(cuda::memory_allocated(0), 1200128);
  if (!test::real_gpu()) {  // a real GPU's free memory is shared with other contexts
    EXPECT_EQ(cuda::mem_get_info(0).first, free_before + 2 * kMiB)
        << "released segments go back to the device";
  }
  EXPECT_EQ(kept.sum().item<float>(), 5.f * 300000) << "the held tensor's memory is intact";
  kept = Tensor();
  cuda::synchronize(0);
  cuda::empty_cache();
  EXPECT_EQ(cuda::memory_reserved(0), 0);
}

TEST_F(Memory, EmptyCacheEmptiesEveryDevice) {
  TIDE_REQUIRE_DEVICES(2);
  for (int d = 0; d < cuda::device_count(); ++d) (void)floats(1000, d);
  for (int d = 0; d < cuda::device_count(); ++d) EXPECT_EQ(cuda::memory_reserved(d), 2 * kMiB);
  cuda::empty_cache();
  for (int d = 0; d < cuda::device_count(); ++d) EXPECT_EQ(cuda::memory_reserved(d), 0);
}

TEST_F(Memory, ResetPeakMemoryStatsBringsPeaksDownToCurrentFigures) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor a = floats(1000);
  {
    Tensor b = floats(300000);
    Tensor c = floats(1000);
  }
  EXPECT_EQ(cuda::memory_allocated(0), 4096);
  EXPECT_EQ(cuda::max_memory_allocated(0), 4096 + 1200128 + 4096);
  EXPECT_EQ(cuda::max_memory_reserved(0), 22 * kMiB);
  cuda::empty_cache();
  EXPECT_EQ(cuda::max_memory_reserved(0), 22 * kMiB) << "peaks survive empty_cache";
  cuda::reset_peak_memory_stats(0);
  EXPECT_EQ(cuda::max_memory_allocated(0), 4096);
  EXPECT_EQ(cuda::max_memory_reserved(0), 2 * kMiB);
  EXPECT_EQ(cuda::memory_stats(0).at("allocation.all.peak"), 1);
}

// ---- devices ---------------------------------------------------------------------------------

TEST_F(Memory, EachDeviceHasItsOwnFigures) {
  TIDE_REQUIRE_DEVICES(2);
  Tensor on1 = floats(1000, 1);
  EXPECT_EQ(cuda::memory_allocated(1), 4096);
  EXPECT_EQ(cuda::memory_allocated(0), 0);
  EXPECT_EQ(cuda::memory_reserved(0), 0);
  Tensor on0 = floats(300000, 0);
  EXPECT_EQ(cuda::memory_allocated(0), 1200128);
  EXPECT_EQ(cuda::memory_allocated(1), 4096);
  cuda::reset_peak_memory_stats(0);
  on1 = Tensor();
  EXPECT_EQ(cuda::max_memory_allocated(1), 4096) << "resetting cuda:0 leaves cuda:1's peak";
}

TEST_F(Memory, DeviceMinusOneIsTheCurrentDevice) {
  TIDE_REQUIRE_DEVICES(2);
  Tensor t = floats(1000, 1);
  cuda::DeviceGuard guard(1);
  EXPECT_EQ(cuda::memory_allocated(), 4096);
  EXPECT_EQ(cuda::memory_reserved(-1), 2 * kMiB);
  EXPECT_EQ(cuda::memory_stats().at("allocation.all.current"), 1);
  EXPECT_THAT(cuda::memory_summary(), HasSubstr("device ID 1 "));
}

TEST_F(Memory, AFactoryOnTheDefaultCudaDeviceAllocatesOnTheCurrentDevice) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard guard(1);
  Tensor t = empty({1000}, TensorOptions(Device("cuda")));
  EXPECT_EQ(cuda::memory_allocated(1), 4096);
  EXPECT_EQ(cuda::memory_allocated(0), 0);
}

TEST_F(Memory, EveryFunctionRejectsADeviceThatDoesNotExistNamingTheCount) {
  TIDE_REQUIRE_DEVICES(1);
  const int n = cuda::device_count();
  const std::string count = n == 1 ? "there is 1 cuda device" : "there are " + std::to_string(n);
  auto expect_bad = [&](const char* fn, const std::function<void()>& call) {
    try {
      call();
      ADD_FAILURE() << fn << " accepted cuda:" << n;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr(std::string("[") + fn + "] invalid device ordinal: cuda:" +
                                      std::to_string(n)));
      EXPECT_THAT(e.what(), HasSubstr(count));
    }
  };
  expect_bad("memory_allocated", [&] { cuda::memory_allocated(n); });
  expect_bad("max_memory_allocated", [&] { cuda::max_memory_allocated(n); });
  expect_bad("memory_reserved", [&] { cuda::memory_reserved(n); });
  expect_bad("max_memory_reserved", [&] { cuda::max_memory_reserved(n); });
  expect_bad("memory_cached", [&] { cuda::memory_cached(n); });
  expect_bad("max_memory_cached", [&] { cuda::max_memory_cached(n); });
  expect_bad("reset_peak_memory_stats", [&] { cuda::reset_peak_memory_stats(n); });
  expect_bad("set_per_process_memory_fraction",
             [&] { cuda::set_per_process_memory_fraction(0.5, n); });
  expect_bad("inject_oom_at", [&] { cuda::inject_oom_at(1, n); });
  expect_bad("memory_stats", [&] { cuda::memory_stats(n); });
  expect_bad("memory_summary", [&] { cuda::memory_summary(n); });
  expect_bad("mem_get_info", [&] { cuda::mem_get_info(n); });
  try {
    cuda::memory_allocated(-2);
    ADD_FAILURE() << "memory_allocated accepted cuda:-2";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[memory_allocated] invalid device ordinal: cuda:-2"));
  }
}

TEST(MemoryWithoutDevices, StatisticsRaiseAndEmptyCacheDoesNothing) {
  if (cuda::device_count() > 0) GTEST_SKIP() << "this process has cuda devices";
  EXPECT_NO_THROW(cuda::empty_cache());
  try {
    cuda::memory_allocated();
    ADD_FAILURE() << "memory_allocated without devices";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[memory_allocated]"));
    EXPECT_THAT(e.what(), HasSubstr("TIDE_SIM_DEVICES"));
  }
}

TEST_F(Memory, MemGetInfoReportsTheDevicesCapacityAndWhatIsFree) {
  TIDE_REQUIRE_DEVICES(1);
  const auto [free0, total] = cuda::mem_get_info(0);
  EXPECT_EQ(total, cuda::get_device_properties(0).total_memory);
  EXPECT_LE(free0, total);
  Tensor t = floats(1000);
  if (!test::real_gpu()) {  // a real GPU's free memory is shared with other contexts
    EXPECT_EQ(cuda::mem_get_info(0).first, free0 - 2 * kMiB)
        << "a segment is taken from the device";
  }
  EXPECT_EQ(cuda::mem_get_info(0).second, total);
}

// ---- stream safety -------------------------------------------------------------------------

TEST_F(Memory, ABlockFreedOnItsAllocationStreamIsReusedByThatStreamAtOnce) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor x = floats(1000);
  void* px = x.raw_data();
  x = Tensor();
  Tensor y = floats(1000);
  EXPECT_EQ(y.raw_data(), px);
}

// The hazard record_stream prevents: memory that a side stream still uses, reached outside
// tide ops (here through a from_blob alias, which the allocator does not own), must not go to
// the next tensor of the allocation stream until the side stream's work has completed.
TEST_F(Memory, RecordStreamKeepsABlockFromTheNextTensorUntilTheOtherStreamsWorkCompleted) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream side(0);
  Tensor x = floats(1000);
  void* px = x.raw_data();
  {
    StreamHold hold(side);
    Tensor alias = from_blob(px, {1000}, TensorOptions(cuda_dev(0)));
    {
      cuda::StreamGuard on_side(side);
      alias.fill_(3.f);  // pending: the side stream is held
    }
    x.record_stream(side);
    x = Tensor();
    alias = Tensor();
    Tensor y = floats(1000);
    EXPECT_NE(y.raw_data(), px) << "y got memory the side stream has yet to write";
    EXPECT_FALSE(side.query());
  }
  side.synchronize();
  Tensor z = floats(1000);
  EXPECT_EQ(z.raw_data(), px) << "after the side stream's work, the block is reused";
}

TEST_F(Memory, WithoutRecordStreamTheSameBlockIsHandedOutAtOnce) {
  // What the previous test guards against, shown: the allocator alone cannot see a use that
  // happens outside tide ops (torch's behaviour too).
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream side(0);
  Tensor x = floats(1000);
  void* px = x.raw_data();
  StreamHold hold(side);
  Tensor alias = from_blob(px, {1000}, TensorOptions(cuda_dev(0)));
  {
    cuda::StreamGuard on_side(side);
    alias.fill_(3.f);
  }
  x = Tensor();
  Tensor y = floats(1000);
  EXPECT_EQ(y.raw_data(), px);
  hold.release();
  side.synchronize();
}

// Note [Stream uses]: an op that runs on a stream other than its operand's allocation stream
// records that use itself. The side stream is held after the op ran, so its later (pending)
// work is what the block waits for: proof that a use was recorded without record_stream.
TEST_F(Memory, AnOpOnAnotherStreamRecordsItsUseOfTheOperandsMemory) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream side(0);
  Tensor x = full({1000}, 2.0, TensorOptions(cuda_dev(0)));
  void* px = x.raw_data();
  cuda::synchronize(0);
  Tensor y;
  {
    cuda::StreamGuard on_side(side);
    y = x * 3;
  }
  side.synchronize();
  {
    StreamHold hold(side);
    {
      cuda::StreamGuard on_side(side);
      y.add_(1);  // pending work on the side stream
    }
    x = Tensor();
    Tensor z = floats(1000);
    EXPECT_NE(z.raw_data(), px) << "x's block went back before the side stream caught up";
  }
  side.synchronize();
  Tensor w = floats(1000);
  EXPECT_EQ(w.raw_data(), px);
  EXPECT_EQ(y.tolist<float>(), std::vector<float>(1000, 7.f));
}

TEST_F(Memory, AnOpTakingAListOfTensorsRecordsItsUseOfEach) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream side(0);
  Tensor a = full({1000}, 1.0, TensorOptions(cuda_dev(0)));
  Tensor b = full({1000}, 2.0, TensorOptions(cuda_dev(0)));
  void* pb = b.raw_data();
  cuda::synchronize(0);
  Tensor joined;
  {
    cuda::StreamGuard on_side(side);
    joined = cat({a, b});
  }
  side.synchronize();
  {
    StreamHold hold(side);
    {
      cuda::StreamGuard on_side(side);
      joined.mul_(2);
    }
    b = Tensor();
    Tensor z = floats(1000);
    EXPECT_NE(z.raw_data(), pb);
  }
  side.synchronize();
  EXPECT_EQ(joined.sum().item<float>(), 2.f * 1000 + 4.f * 1000);
}

TEST_F(Memory, AnOpOnTheAllocationStreamRecordsNoUse) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream side(0);
  Tensor x = full({1000}, 2.0, TensorOptions(cuda_dev(0)));
  void* px = x.raw_data();
  StreamHold hold(side);
  {
    cuda::StreamGuard on_side(side);
    (void)zeros({10}, TensorOptions(cuda_dev(0)));  // unrelated pending work on the side stream
  }
  Tensor y = x + 1;  // default stream, where x was allocated
  cuda::current_stream(0).synchronize();
  x = Tensor();
  y = Tensor();
  Tensor z = floats(1000);
  EXPECT_EQ(z.raw_data(), px) << "no other stream used x, so its block is reusable at once";
  hold.release();
  side.synchronize();
}

TEST_F(Memory, ACopyToTheHostOnAnotherStreamRecordsItsUseOfTheSource) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream side(0);
  Tensor x = full({1000}, 4.0, TensorOptions(cuda_dev(0)));
  void* px = x.raw_data();
  cuda::synchronize(0);
  Tensor host;
  {
    cuda::StreamGuard on_side(side);
    host = x.cpu();
  }
  StreamHold hold(side);
  {
    cuda::StreamGuard on_side(side);
    (void)zeros({10}, TensorOptions(cuda_dev(0)));
  }
  x = Tensor();
  Tensor z = floats(1000);
  EXPECT_NE(z.raw_data(), px);
  hold.release();
  side.synchronize();
  EXPECT_EQ(host.tolist<float>(), std::vector<float>(1000, 4.f));
}

TEST_F(Memory, ACopyBetweenDevicesOnAnotherStreamRecordsItsUseOfTheSource) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream side(0);
  Tensor x = full({1000}, 6.0, TensorOptions(cuda_dev(0)));
  void* px = x.raw_data();
  cuda::synchronize(0);
  Tensor y;
  {
    cuda::StreamGuard on_side(side);  // the copy runs on the source device's current stream
    y = x.to(cuda_dev(1));
  }
  side.synchronize();
  {
    StreamHold hold(side);
    {
      cuda::StreamGuard on_side(side);
      (void)zeros({10}, TensorOptions(cuda_dev(0)));  // later pending work on the side stream
    }
    x = Tensor();
    Tensor z = floats(1000, 0);
    EXPECT_NE(z.raw_data(), px) << "x's block went back before the side stream caught up";
  }
  EXPECT_EQ(y.tolist<float>(), std::vector<float>(1000, 6.f));
}

TEST_F(Memory, RecordStreamRejectsCpuTensorsAndStreamsOfAnotherDevice) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor host = ones({4});
  try {
    host.record_stream(cuda::current_stream(0));
    ADD_FAILURE() << "record_stream on a cpu tensor";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[Tensor::record_stream] expected a cuda tensor"));
  }
  if (cuda::device_count() < 2) return;
  Tensor t = floats(10, 0);
  try {
    t.record_stream(cuda::current_stream(1));
    ADD_FAILURE() << "record_stream with a stream of another device";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("the tensor is on cuda:0 but the stream is on cuda:1"));
  }
}

TEST_F(Memory, RecordStreamIgnoresMemoryTheAllocatorDoesNotOwn) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor x = floats(16);
  Tensor alias = from_blob(x.raw_data(), {16}, TensorOptions(cuda_dev(0)));
  EXPECT_NO_THROW(alias.record_stream(cuda::Stream(0)));
  EXPECT_NO_THROW(floats(0).record_stream(cuda::Stream(0)));
}

// ---- memory_summary ------------------------------------------------------------------------

// torch.cuda.memory_summary's table for a known state, "PyTorch" read as "tide" (the device
// field is 3 wider so the table stays 75 wide). The state: a = 1000 floats (4000 B requested,
// 4096 allocated, a new 2 MiB small segment split into 4096 + 2093056), b = 300000 floats
// (1200000 B requested, 1200128 allocated, a new 20 MiB large segment split into 1200128 +
// 19771392), then a freed (it merges with its segment's free remainder, so the small pool has
// no inactive split block left). Sizes are formatted as torch's _format_size: each column in
// the unit its "all" row chose (KiB once the figure reaches 768 KiB).
const char* const kFullSummary =
    "|===========================================================================|\n"
    "|                  tide CUDA memory summary, device ID 0                    |\n"
    "|---------------------------------------------------------------------------|\n"
    "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |\n"
    "|===========================================================================|\n"
    "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Allocated memory      |   1172 KiB |   1176 KiB |   1176 KiB |   4096 B   |\n"
    "|       from large pool |   1172 KiB |   1172 KiB |   1172 KiB |      0 B   |\n"
    "|       from small pool |      0 KiB |      4 KiB |      4 KiB |   4096 B   |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Active memory         |   1172 KiB |   1176 KiB |   1176 KiB |   4096 B   |\n"
    "|       from large pool |   1172 KiB |   1172 KiB |   1172 KiB |      0 B   |\n"
    "|       from small pool |      0 KiB |      4 KiB |      4 KiB |   4096 B   |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Requested memory      |   1171 KiB |   1175 KiB |   1175 KiB |   4000 B   |\n"
    "|       from large pool |   1171 KiB |   1171 KiB |   1171 KiB |      0 B   |\n"
    "|       from small pool |      0 KiB |      3 KiB |      3 KiB |   4000 B   |\n"
    "|---------------------------------------------------------------------------|\n"
    "| GPU reserved memory   |  22528 KiB |  22528 KiB |  22528 KiB |      0 B   |\n"
    "|       from large pool |  20480 KiB |  20480 KiB |  20480 KiB |      0 B   |\n"
    "|       from small pool |   2048 KiB |   2048 KiB |   2048 KiB |      0 B   |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Non-releasable memory |  19308 KiB |  21352 KiB |  21352 KiB |   2044 KiB |\n"
    "|       from large pool |  19308 KiB |  19308 KiB |  19308 KiB |      0 KiB |\n"
    "|       from small pool |      0 KiB |   2044 KiB |   2044 KiB |   2044 KiB |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Allocations           |       1    |       2    |       2    |       1    |\n"
    "|       from large pool |       1    |       1    |       1    |       0    |\n"
    "|       from small pool |       0    |       1    |       1    |       1    |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Active allocs         |       1    |       2    |       2    |       1    |\n"
    "|       from large pool |       1    |       1    |       1    |       0    |\n"
    "|       from small pool |       0    |       1    |       1    |       1    |\n"
    "|---------------------------------------------------------------------------|\n"
    "| GPU reserved segments |       2    |       2    |       2    |       0    |\n"
    "|       from large pool |       1    |       1    |       1    |       0    |\n"
    "|       from small pool |       1    |       1    |       1    |       0    |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Non-releasable allocs |       1    |       2    |       2    |       1    |\n"
    "|       from large pool |       1    |       1    |       1    |       0    |\n"
    "|       from small pool |       0    |       1    |       1    |       1    |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Oversize allocations  |       0    |       0    |       0    |       0    |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Oversize GPU segments |       0    |       0    |       0    |       0    |\n"
    "|===========================================================================|\n";

const char* const kAbbreviatedSummary =
    "|===========================================================================|\n"
    "|                  tide CUDA memory summary, device ID 0                    |\n"
    "|---------------------------------------------------------------------------|\n"
    "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |\n"
    "|===========================================================================|\n"
    "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Allocated memory      |   1172 KiB |   1176 KiB |   1176 KiB |   4096 B   |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Active memory         |   1172 KiB |   1176 KiB |   1176 KiB |   4096 B   |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Requested memory      |   1171 KiB |   1175 KiB |   1175 KiB |   4000 B   |\n"
    "|---------------------------------------------------------------------------|\n"
    "| GPU reserved memory   |  22528 KiB |  22528 KiB |  22528 KiB |      0 B   |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Non-releasable memory |  19308 KiB |  21352 KiB |  21352 KiB |   2044 KiB |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Allocations           |       1    |       2    |       2    |       1    |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Active allocs         |       1    |       2    |       2    |       1    |\n"
    "|---------------------------------------------------------------------------|\n"
    "| GPU reserved segments |       2    |       2    |       2    |       0    |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Non-releasable allocs |       1    |       2    |       2    |       1    |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Oversize allocations  |       0    |       0    |       0    |       0    |\n"
    "|---------------------------------------------------------------------------|\n"
    "| Oversize GPU segments |       0    |       0    |       0    |       0    |\n"
    "|===========================================================================|\n";

TEST(MemoryInANewProcess, MemorySummaryIsTorchsTableForAKnownState) {
  TIDE_REQUIRE_DEVICES(1);
  expect_in_fresh_process([] {
    Tensor b;
    {
      Tensor a = floats(1000);
      b = floats(300000);
    }
    const std::string full = cuda::memory_summary(0);
    if (full != kFullSummary) return "memory_summary(0):\n" + full + "expected:\n" + kFullSummary;
    const std::string abbreviated = cuda::memory_summary(0, true);
    if (abbreviated != kAbbreviatedSummary) {
      return "memory_summary(0, true):\n" + abbreviated + "expected:\n" + kAbbreviatedSummary;
    }
    return std::string();
  });
}

TEST_F(Memory, MemorySummaryLinesAreAll77CharactersWide) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor t = floats(3 * kMiB);
  for (bool abbreviated : {false, true}) {
    const std::string s = cuda::memory_summary(0, abbreviated);
    size_t lines = 0, begin = 0;
    for (size_t end = s.find('\n'); end != std::string::npos; end = s.find('\n', begin)) {
      EXPECT_EQ(end - begin, 77u) << s.substr(begin, end - begin);
      begin = end + 1;
      ++lines;
    }
    EXPECT_EQ(begin, s.size()) << "the table ends with a newline";
    EXPECT_EQ(lines, abbreviated ? 29u : 47u);
  }
}

// ---- out of memory ---------------------------------------------------------------------------

TEST_F(Memory, AnInjectedOomFailsTheNthAllocationOfAFactoryAndTheDeviceStaysUsable) {
  TIDE_REQUIRE_DEVICES(1);
  const int64_t ooms = cuda::memory_stats(0).at("num_ooms");
  cuda::inject_oom_at(2, 0);
  Tensor first = floats(1000);  // the first allocation from now succeeds
  try {
    Tensor second = zeros({1000}, TensorOptions(cuda_dev(0)));
    ADD_FAILURE() << "the second allocation should have failed";
  } catch (const OutOfMemoryError& e) {
    EXPECT_THAT(e.what(), HasSubstr("CUDA out of memory. Tried to allocate 3.91 KiB (4000 bytes"));
    EXPECT_THAT(e.what(), HasSubstr("injected for testing"));
  }
  EXPECT_EQ(cuda::memory_stats(0).at("num_ooms"), ooms + 1);
  EXPECT_EQ(cuda::memory_allocated(0), 4096) << "the failed allocation left nothing behind";
  Tensor third = full({1000}, 1.0, TensorOptions(cuda_dev(0)));
  EXPECT_EQ(third.sum().item<float>(), 1000.f) << "the device is usable after the OOM";
}

TEST_F(Memory, ARequestBeyondTheDevicesCapacityRaisesOutOfMemoryAndTheDeviceStaysUsable) {
  TIDE_REQUIRE_DEVICES(1);
  const int64_t total = cuda::mem_get_info(0).second;
  const int64_t ooms = cuda::memory_stats(0).at("num_ooms");
  Tensor kept = full({1000}, 2.0, TensorOptions(cuda_dev(0)));
  try {
    Tensor huge = floats(total / 4 + 1);
    ADD_FAILURE() << "a tensor larger than the device was allocated";
  } catch (const OutOfMemoryError& e) {
    EXPECT_THAT(e.what(), HasSubstr("CUDA out of memory. Tried to allocate"));
    EXPECT_THAT(e.what(), HasSubstr("GPU 0 has a total capacity of"));
    EXPECT_THAT(e.what(), HasSubstr("is allocated by tensors"));
    EXPECT_THAT(e.what(), HasSubstr("largest free cached block"));
  }
  EXPECT_EQ(cuda::memory_stats(0).at("num_ooms"), ooms + 1);
  EXPECT_EQ(cuda::memory_allocated(0), 4096);
  EXPECT_EQ(kept.sum().item<float>(), 2000.f);
  Tensor after = ones({1000}, TensorOptions(cuda_dev(0)));
  EXPECT_EQ(after.sum().item<float>(), 1000.f);
}

TEST_F(Memory, InjectOomAtZeroDisarmsAndANegativeCountIsAnError) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::inject_oom_at(1, 0);
  cuda::inject_oom_at(0, 0);
  EXPECT_NO_THROW(floats(1000));
  try {
    cuda::inject_oom_at(-1, 0);
    ADD_FAILURE() << "a negative count";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[inject_oom_at]"));
    EXPECT_THAT(e.what(), HasSubstr("got -1"));
  }
}

TEST_F(Memory, AnInjectedOomOnOneDeviceLeavesTheOthersAlone) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::inject_oom_at(1, 1);
  EXPECT_NO_THROW(floats(1000, 0));
  EXPECT_THROW(floats(1000, 1), OutOfMemoryError);
  EXPECT_NO_THROW(floats(1000, 1));
}

TEST(MemoryInANewProcess, TideFaultOomAtArmsEveryDeviceAtItsFirstUse) {
  TIDE_REQUIRE_DEVICES(1);
  expect_in_fresh_process([] {
    setenv("TIDE_FAULT_OOM_AT", "2", 1);
    Tensor a = floats(1000);
    try {
      Tensor b = floats(1000);
      return std::string("the second allocation succeeded");
    } catch (const OutOfMemoryError&) {
    }
    Tensor c = floats(1000);
    return std::string();
  });
}

TEST(MemoryInANewProcess, ABadTideFaultOomAtIsReportedAtFirstUse) {
  TIDE_REQUIRE_DEVICES(1);
  expect_in_fresh_process([] {
    setenv("TIDE_FAULT_OOM_AT", "two", 1);
    try {
      Tensor a = floats(1000);
      return std::string("TIDE_FAULT_OOM_AT=two was accepted");
    } catch (const Error& e) {
      const std::string what = e.what();
      if (what.find("TIDE_FAULT_OOM_AT must be a non-negative integer") == std::string::npos ||
          what.find("'two'") == std::string::npos) {
        return "unexpected message: " + what;
      }
    }
    unsetenv("TIDE_FAULT_OOM_AT");
    Tensor b = floats(1000);  // the next use reads the environment again
    return expect_eq("memory_allocated", cuda::memory_allocated(0), 4096);
  });
}

TEST_F(Memory, PerProcessMemoryFractionLimitsWhatTheAllocatorMayReserve) {
  TIDE_REQUIRE_DEVICES(1);
  const int64_t total = cuda::mem_get_info(0).second;
  cuda::set_per_process_memory_fraction(static_cast<double>(16 * kMiB) / total, 0);
  {
    Tensor a = floats(3 * kMiB);  // 12 MiB of the 16 MiB allowed
    EXPECT_THROW(floats(3 * kMiB), OutOfMemoryError) << "another 12 MiB passes the limit";
    EXPECT_NO_THROW(floats(256 * kKiB)) << "1 MiB (a 2 MiB small segment) still fits";
  }
  cuda::set_per_process_memory_fraction(1.0, 0);
  Tensor a = floats(3 * kMiB);
  Tensor b = floats(3 * kMiB);
  EXPECT_EQ(cuda::memory_allocated(0), 24 * kMiB);
}

TEST_F(Memory, APerProcessMemoryFractionOutsideZeroToOneIsAnError) {
  TIDE_REQUIRE_DEVICES(1);
  for (double bad : {-0.25, 1.5}) {
    try {
      cuda::set_per_process_memory_fraction(bad, 0);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(),
                  HasSubstr("[set_per_process_memory_fraction] Invalid fraction value: "));
      EXPECT_THAT(e.what(), HasSubstr("Allowed range: 0~1"));
    }
  }
}

// ---- TIDE_CUDA_ALLOC_CONF --------------------------------------------------------------------

TEST(MemoryInANewProcess, ABadAllocConfIsReportedAtFirstUseAndReadAgainAtTheNext) {
  TIDE_REQUIRE_DEVICES(1);
  expect_in_fresh_process([] {
    setenv("TIDE_CUDA_ALLOC_CONF", "max_split_size:128", 1);  // the key is max_split_size_mb
    try {
      Tensor a = floats(1000);
      return std::string("an unknown key was accepted");
    } catch (const Error& e) {
      const std::string what = e.what();
      if (what.find("max_split_size") == std::string::npos ||
          what.find("max_split_size_mb") == std::string::npos) {
        return "the message does not name the key and the valid keys: " + what;
      }
    }
    try {
      (void)cuda::memory_allocated(0);
      return std::string("memory_allocated used the allocator despite the bad configuration");
    } catch (const Error&) {
    }
    setenv("TIDE_CUDA_ALLOC_CONF", "max_split_size_mb:64", 1);
    Tensor b = floats(1000);
    return expect_eq("memory_allocated", cuda::memory_allocated(0), 4096);
  });
}

TEST(MemoryInANewProcess, AllocConfMaxSplitSizeReachesTheDeviceAllocators) {
  TIDE_REQUIRE_DEVICES(1);
  expect_in_fresh_process([] {
    setenv("TIDE_CUDA_ALLOC_CONF", "max_split_size_mb:40", 1);
    Tensor big = floats(12 * kMiB);  // 48 MiB: at least max_split_size, so "oversize"
    const auto stats = cuda::memory_stats(0);
    std::string f = expect_eq("max_split_size", stats.at("max_split_size"), 40 * kMiB);
    if (f.empty()) {
      f = expect_eq("oversize_allocations.current", stats.at("oversize_allocations.current"), 1);
    }
    return f;
  });
}

// ---- frees from stream workers ---------------------------------------------------------------

// On simulated GPUs a kernel's operands are released by the stream's worker thread after the
// kernel ran, so the allocator's free runs there. Waiting for a stream marker (empty_cache, the
// OOM retry) must therefore never block that worker: here empty_cache waits for work on the
// side stream whose completion includes such a free. A deadlock ends the child by SIGALRM.
TEST(MemoryInANewProcess, EmptyCacheWhileAStreamFreesOperandsDoesNotDeadlock) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  expect_in_fresh_process([] {
    alarm(20);  // a deadlock fails the test instead of hanging it
    cuda::Stream side(0);
    Tensor w = full({1000}, 1.0, TensorOptions(cuda_dev(0)));
    Tensor v = full({512, 512}, 1.0, TensorOptions(cuda_dev(0)));
    cuda::synchronize(0);
    {
      StreamHold hold(side);
      cuda::StreamGuard on_side(side);
      (void)(w * 2);                      // uses w on the side stream: a marker at its free
      for (int i = 0; i < 20; ++i) (void)v.matmul(v);  // each result is freed by the worker
      w = Tensor();
      v = Tensor();
    }
    while (!side.query()) cuda::empty_cache();
    side.synchronize();
    cuda::empty_cache();
    return expect_eq("memory_reserved", cuda::memory_reserved(0), 0);
  });
}
