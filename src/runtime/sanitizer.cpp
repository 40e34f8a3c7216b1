// The stream sanitizer: vector clocks per stream and the memory access history
// (Note [Stream sanitizer] in sanitizer.h).

#include "runtime/sanitizer.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/access_history.h"
#include "runtime/backtrace.h"
#include "runtime/registry.h"
#include "tide/cuda/sanitizer.h"
#include "tide/error.h"
#include "tide/scope.h"

namespace tide::runtime {

std::atomic<bool> g_sanitizer{false};

namespace {

/// Streams per device in clock slots: the default stream and two pools (Note [Stream pool]).
constexpr size_t kStreamsPerDevice = 1 + 2 * cuda::Stream::kStreamsPerPool;
/// Frames of each enqueue site a report shows (the innermost ones: the op and its caller).
constexpr int kReportFrames = 14;

using Clock = std::vector<uint64_t>;

void join(Clock& into, const Clock& other) {
  if (into.size() < other.size()) into.resize(other.size(), 0);
  for (size_t i = 0; i < other.size(); ++i) into[i] = std::max(into[i], other[i]);
}

struct StreamClock {
  Clock clock;
  uint64_t host_generation = 0;  // the host clock's generation last joined into `clock`
};

struct State {
  std::mutex mutex;
  std::vector<StreamClock> streams;  // by slot
  Clock host;
  uint64_t host_generation = 0;  // bumped whenever `host` grows
  std::unordered_map<const void*, Clock> events;  // each event's clock at its last record
  AccessHistory history;

  void reset() {
    streams.clear();
    host.clear();
    ++host_generation;
    events.clear();
    history.clear();
  }

  /// The stream's clock, with everything the host waited for joined in (a host wait orders
  /// all work enqueued after it).
  Clock& stream(size_t slot) {
    if (streams.size() <= slot) streams.resize(slot + 1);
    StreamClock& s = streams[slot];
    if (s.host_generation != host_generation) {
      join(s.clock, host);
      s.host_generation = host_generation;
    }
    if (s.clock.size() <= slot) s.clock.resize(slot + 1, 0);
    return s.clock;
  }

  void host_waits_for(const Clock& clock) {
    join(host, clock);
    ++host_generation;
  }
};

// Leaked on purpose: frees may reach the sanitizer during static destruction.
State& state() {
  static State* s = new State();
  return *s;
}

size_t slot_of(int device, uint64_t stream_id) {
  return static_cast<size_t>(device) * kStreamsPerDevice + static_cast<size_t>(stream_id);
}
size_t slot_of(const cuda::Stream& stream) { return slot_of(stream.device_index(), stream.id()); }

// ---- reports

std::string stream_name(int device, uint64_t id) {
  return detail::concat("Stream(device=cuda:", device, ", id=", id, id == 0 ? ", default)" : ")");
}

std::string scope_name(const char* scope) {
  return scope ? detail::concat("scope '", scope, "'") : std::string("no tide::Scope");
}

/// The enqueue site, from the op's front end outwards: the frames of the sanitizer's own
/// plumbing (the declaration helpers and run_kernel) are left out, the rest numbered anew.
std::string where(const RawBacktrace& backtrace) {
  std::istringstream lines(symbolize_backtrace(backtrace));
  std::string line, out;
  int n = 0;
  bool plumbing = true;
  while (n < kReportFrames && std::getline(lines, line)) {
    plumbing = plumbing && (line.find("LaunchAccesses") != std::string::npos ||
                            line.find("tide::detail::sanitize_") != std::string::npos ||
                            line.find("tide::detail::run_kernel") != std::string::npos);
    if (plumbing) continue;
    const size_t hash = line.find('#');
    const size_t space = hash == std::string::npos ? hash : line.find(' ', hash);
    if (space == std::string::npos) continue;
    out += detail::concat(out.empty() ? "" : "\n", "    #", n++, line.substr(space));
  }
  return out.empty() ? std::string("    (no backtrace)") : out;
}

/// Who makes the access being checked: a launch on a stream, or the host.
struct Accessor {
  const char* op;
  const char* scope;
  bool host;
  int device;
  uint64_t stream_id;
  std::string name() const {
    return host ? detail::concat("the host (`", op, "` on cpu)")
                : detail::concat("`", op, "` on ", stream_name(device, stream_id));
  }
};

[[noreturn]] void raise_race(const Accessor& now, const MemoryAccess& access,
                             const RecordedAccess& earlier, const RawBacktrace& now_where) {
  const SanitizedOp& prev = *earlier.op;
  const char* kind = !earlier.write ? "write-after-read"
                     : access.write ? "write-after-write"
                                    : "read-after-write";
  const std::string prev_stream = stream_name(prev.device, prev.stream_id);
  const uintptr_t lo = std::max(access.lo, earlier.lo), hi = std::min(access.hi, earlier.hi);
  std::ostringstream os;
  os << "[stream sanitizer] expected " << now.name() << " to be ordered after `" << prev.info.op
     << "` on " << prev_stream << ", found no synchronization between them: a " << kind
     << " race. `" << now.op << "` " << (access.write ? "writes" : "reads") << " bytes [0x"
     << std::hex << lo << ", 0x" << hi << std::dec << ") (" << hi - lo
     << " bytes of the allocation at 0x" << std::hex << access.base << std::dec << ") that `"
     << prev.info.op << "` " << (earlier.write ? "writes" : "reads")
     << ", and may run while it still does. ";
  if (now.host) {
    os << "Wait for " << prev_stream << " before the host touches the memory: "
       << "stream.synchronize(), or an Event recorded after `" << prev.info.op
       << "` and synchronized.";
  } else {
    os << "Make " << stream_name(now.device, now.stream_id) << " wait for " << prev_stream
       << " before enqueueing `" << now.op << "`: stream.wait_stream(other), or an Event "
       << "recorded after `" << prev.info.op << "` and waited on (or synchronize).";
  }
  os << "\n  this access: " << now.name() << " (" << (access.write ? "write" : "read") << ", "
     << scope_name(now.scope) << "), enqueued at:\n"
     << where(now_where) << "\n  previous access: `" << prev.info.op << "` on " << prev_stream
     << " (" << (earlier.write ? "write" : "read") << ", " << scope_name(prev.info.scope)
     << ", launch #" << prev.seq << " the sanitizer saw on that stream), enqueued at:\n"
     << where(prev.where);
  throw StreamRaceError(os.str());
}

}  // namespace

void sanitizer_enable() { g_sanitizer.store(true, std::memory_order_relaxed); }

void sanitizer_disable() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  g_sanitizer.store(false, std::memory_order_relaxed);
  s.reset();
}

void sanitize_launch(const cuda::Stream& stream, const char* op, const MemoryAccess* accesses,
                     size_t count) {
  // Captured before the lock: a backtrace costs microseconds.
  const RawBacktrace here = capture_backtrace(1);
  const size_t slot = slot_of(stream);
  const char* scope = Scope::current();
  State& s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  if (!sanitizer_enabled()) return;  // switched off meanwhile
  Clock& clock = s.stream(slot);
  const auto ordered = [&](const SanitizedOp& prev) {
    return prev.slot == slot || (prev.slot < clock.size() && clock[prev.slot] >= prev.seq);
  };
  for (size_t i = 0; i < count; ++i) {
    if (const RecordedAccess* race = s.history.find_race(accesses[i], ordered)) {
      const RecordedAccess earlier = *race;
      lock.unlock();
      raise_race(Accessor{op, scope, false, stream.device_index(), stream.id()}, accesses[i],
                 earlier, here);
    }
  }
  auto record = std::make_shared<SanitizedOp>(SanitizedOp{
      LaunchInfo{op, scope}, stream.device_index(), stream.id(), slot, ++clock[slot], here});
  for (size_t i = 0; i < count; ++i) s.history.record(accesses[i], record);
}

void sanitize_host_access(const char* op, const MemoryAccess* accesses, size_t count) {
  State& s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  const Clock& host = s.host;
  const auto ordered = [&](const SanitizedOp& prev) {
    return prev.slot < host.size() && host[prev.slot] >= prev.seq;
  };
  for (size_t i = 0; i < count; ++i) {
    if (const RecordedAccess* race = s.history.find_race(accesses[i], ordered)) {
      const RecordedAccess earlier = *race;
      lock.unlock();
      raise_race(Accessor{op, Scope::current(), true, -1, 0}, accesses[i], earlier,
                 capture_backtrace(1));
    }
  }
}

void sanitizer_event_record(const void* event, const cuda::Stream& stream) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.events[event] = s.stream(slot_of(stream));
}

void sanitizer_event_wait(const void* event, const cuda::Stream& stream) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.events.find(event);
  if (it == s.events.end()) return;  // recorded before the sanitizer started: unknown
  join(s.stream(slot_of(stream)), it->second);
}

void sanitizer_event_synchronize(const void* event) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.events.find(event);
  if (it != s.events.end()) s.host_waits_for(it->second);
}

void sanitizer_event_destroyed(const void* event) noexcept {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.events.erase(event);
}

void sanitizer_stream_synchronize(const cuda::Stream& stream) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const Clock clock = s.stream(slot_of(stream));
  s.host_waits_for(clock);
}

void sanitizer_device_synchronize(int device) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  Clock all;
  const size_t first = slot_of(device, 0);
  for (size_t slot = first; slot < first + kStreamsPerDevice && slot < s.streams.size(); ++slot) {
    join(all, s.stream(slot));
  }
  s.host_waits_for(all);
}

void sanitizer_memory_freed(const void* ptr, size_t nbytes) noexcept {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const auto lo = reinterpret_cast<uintptr_t>(ptr);
  s.history.forget(lo, lo + nbytes);
}

}  // namespace tide::runtime

namespace tide::cuda {

void enable_sanitizer() {
  runtime::backend(kCUDA);  // start the backends first (they read TIDE_CUDA_SANITIZER)
  runtime::sanitizer_enable();
}

void disable_sanitizer() { runtime::sanitizer_disable(); }

bool sanitizer_enabled() { return runtime::sanitizer_enabled(); }

}  // namespace tide::cuda
