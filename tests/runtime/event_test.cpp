// Events: recording, querying, waiting, timing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <unordered_set>

#include "device_test_util.h"
#include "runtime/launch.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/testing/sim_hooks.h"

using namespace tide;
using ::testing::HasSubstr;
using tide::testing::StreamHold;

TEST(Event, NeverRecordedIsCompleteAndWaitsForNothing) {
  cuda::Event e;
  EXPECT_TRUE(e.query());
  EXPECT_EQ(e.device_index(), -1);
  e.synchronize();
  TIDE_REQUIRE_DEVICES(1);
  e.wait(cuda::current_stream(0));
  EXPECT_TRUE(e.query());
}

TEST(Event, QueryIsFalseWhileTheStreamIsHeldAndTrueAfter) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream s(0);
  cuda::Event e;
  {
    StreamHold hold(s);
    runtime::launch(s, "work", [] {});
    e.record(s);
    EXPECT_FALSE(e.query());
  }
  e.synchronize();
  EXPECT_TRUE(e.query());
  EXPECT_EQ(e.device_index(), 0);
}

TEST(Event, SynchronizeReturnsOnlyAfterTheRecordedWork) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream s(0);
  std::atomic<int> data{0};
  int seen = -1;
  cuda::Event e;
  std::thread waiter;
  {
    StreamHold hold(s);
    runtime::launch(s, "write", [&] { data = 3; });
    e.record(s);
    waiter = std::thread([&] {
      e.synchronize();
      seen = data.load();
    });
  }
  waiter.join();
  EXPECT_EQ(seen, 3);
}

TEST(Event, RecordCapturesOnlyWorkEnqueuedBeforeIt) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream s(0);
  cuda::Event e = s.record_event();  // nothing pending yet
  StreamHold hold(s);
  runtime::launch(s, "later", [] {});
  EXPECT_TRUE(e.query());
  EXPECT_FALSE(s.query());
}

TEST(Event, CopiesShareOneEventAndCompareByIdentity) {
  cuda::Event a, b;
  cuda::Event c = a;
  EXPECT_EQ(a, c);
  EXPECT_NE(a, b);
  std::unordered_set<cuda::Event> set{a, b, c};
  EXPECT_EQ(set.size(), 2u);
  std::ostringstream os;
  os << a;
  EXPECT_EQ(os.str(), "Event(not recorded, enable_timing=false)");
}

TEST(Event, RecordingOnAnotherDeviceRaises) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::Event e;
  e.record(cuda::current_stream(0));
  try {
    e.record(cuda::current_stream(1));
    FAIL() << "expected tide::Error";
  } catch (const Error& err) {
    EXPECT_THAT(err.what(), HasSubstr("Event device 0 does not match recording stream's device 1"));
  }
}

TEST(Event, ElapsedTimeNeedsTimingOnBothEvents) {
  cuda::Event a, b(true);
  try {
    a.elapsed_time(b);
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("Both events must be created with argument 'enable_timing=True'."));
  }
}

TEST(Event, ElapsedTimeNeedsBothRecorded) {
  cuda::Event a(true), b(true);
  try {
    a.elapsed_time(b);
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("Both events must be recorded before calculating elapsed time."));
  }
}

TEST(Event, ElapsedTimeMeasuresStreamProgress) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::Stream s(0);
  cuda::Event start(true), end(true);
  start.record(s);
  std::atomic<bool> ran{false};
  runtime::launch(s, "work", [&] { ran = true; });
  end.record(s);
  end.synchronize();
  EXPECT_TRUE(ran.load());
  EXPECT_GE(start.elapsed_time(end), 0.0f);
  EXPECT_LE(end.elapsed_time(start), 0.0f);
}

TEST(Event, ElapsedTimeOfPendingEventsRaises) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream s(0);
  cuda::Event start(true), end(true);
  {
    StreamHold hold(s);
    start.record(s);
    end.record(s);
    try {
      start.elapsed_time(end);
      ADD_FAILURE() << "expected tide::Error";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("[Event::elapsed_time] both events must have completed"));
    }
  }
  end.synchronize();
  EXPECT_GE(start.elapsed_time(end), 0.0f);
}
