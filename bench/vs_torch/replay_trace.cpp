// The trace PeakReserved replays (Note [Replayed trace] in replay_trace.h).

#include "replay_trace.h"

#include <cstdlib>
#include <stdexcept>

#include "memory/snapshot.h"
#include "training_trace.h"

namespace tide::bench::gpu {
namespace {

std::string trace_path() {
  const char* path = std::getenv("TIDE_BENCH_TRACE");
  return path && *path ? std::string(path) : std::string();
}

std::vector<ReplayEvent> build_events() {
  const std::string path = trace_path();
  const memory::Snapshot snapshot = path.empty()
                                        ? training_trace()
                                        : memory::read_snapshot_file(path, "TIDE_BENCH_TRACE");
  if (snapshot.device_traces.empty() || snapshot.device_traces.front().empty()) {
    throw std::runtime_error("tide_vs_torch_gpu_bench: " + replay_source() +
                             " has no allocation history for device 0 to replay");
  }
  std::vector<ReplayEvent> events;
  for (const memory::SnapshotTraceEntry& e : snapshot.device_traces.front()) {
    if (e.action == "alloc") {
      events.push_back({true, e.addr, e.size});
    } else if (e.action == "free_requested") {
      events.push_back({false, e.addr, 0});
    }
  }
  return events;
}

}  // namespace

const std::vector<ReplayEvent>& replay_events() {
  static const std::vector<ReplayEvent> events = build_events();
  return events;
}

const std::string& replay_source() {
  static const std::string source = [] {
    std::string path = trace_path();
    return path.empty() ? std::string("synthetic training trace") : path;
  }();
  return source;
}

}  // namespace tide::bench::gpu
