// The caching pinned host allocator. The algorithm is described in Note [Pinned host memory]
// (pinned_allocator.h).

#include "memory/pinned_allocator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

#include "runtime/fork_safety.h"
#include "runtime/registry.h"
#include "runtime/sanitizer.h"
#include "tide/cuda/event.h"
#include "tide/error.h"

namespace tide::memory {
namespace {

constexpr int kNumSizeClasses = 64;
constexpr size_t kMaxRequest = size_t{1} << 62;  // the largest power of two that fits

/// current / peak / allocated (ever increased) / freed (ever decreased), as torch's Stat.
struct Stat {
  int64_t current = 0, peak = 0, allocated = 0, freed = 0;
  void increase(int64_t n) {
    current += n;
    allocated += n;
    peak = std::max(peak, current);
  }
  void decrease(int64_t n) {
    current -= n;
    freed += n;
  }
  void put(std::map<std::string, int64_t>& out, const std::string& name) const {
    out[name + ".current"] = current;
    out[name + ".peak"] = peak;
    out[name + ".allocated"] = allocated;
    out[name + ".freed"] = freed;
  }
};

/// Durations in microseconds, as torch's DurationStat.
struct DurationStat {
  int64_t total = 0, max = 0, min = 0, count = 0;
  void add(int64_t us) {
    min = count == 0 ? us : std::min(min, us);
    max = std::max(max, us);
    total += us;
    ++count;
  }
  void put(std::map<std::string, int64_t>& out, const std::string& name) const {
    out[name + ".total"] = total;
    out[name + ".max"] = max;
    out[name + ".min"] = min;
    out[name + ".count"] = count;
    out[name + ".avg"] = count == 0 ? 0 : total / count;
  }
};

struct Block {
  Block(void* p, size_t s) : ptr(p), size(s) {}
  void* ptr;
  size_t size;                         // a power of two
  bool allocated = true;               // a tensor holds it
  int pending_events = 0;              // events still to complete before it may be reused
  std::vector<cuda::Stream> streams;   // streams that used it since it was handed out
};

struct PendingEvent {
  cuda::Event event;
  Block* block;
};

std::string format_bytes(int64_t n) {
  static const char* const kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (n < 1024) return std::to_string(n) + " bytes";
  double v = static_cast<double>(n);
  int unit = 0;
  while (v >= 1024 && unit < 6) {
    v /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %s", v, kUnits[unit]);
  return buf;
}

int64_t parse_fault_env() {
  const char* v = std::getenv("TIDE_FAULT_PINNED_OOM_AT");
  if (v == nullptr || *v == '\0') return 0;
  char* end = nullptr;
  long long n = std::strtoll(v, &end, 10);
  TIDE_CHECK(end != v && *end == '\0' && n >= 0, "[pinned allocator] TIDE_FAULT_PINNED_OOM_AT "
             "must be a non-negative integer (n: the n-th pinned allocation fails; 0: off), got '",
             v, "'");
  return n;
}

class PinnedAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    check_pinned_memory_available("pinned allocator");
    std::unique_lock<std::mutex> lock(mutex_);
    if (!fault_env_read_) {
      fault_countdown_ = parse_fault_env();  // a bad value raises here, and again next time
      fault_env_read_ = true;
    }
    if (nbytes == 0) return DataPtr(nullptr, 0, Device(kCPU), 0, nullptr, nullptr);
    if (fault_countdown_ > 0 && --fault_countdown_ == 0) {
      throw_oom_locked(nbytes, nbytes <= kMaxRequest ? std::bit_ceil(nbytes) : nbytes, true);
    }
    TIDE_CHECK_T(OutOfMemoryError, nbytes <= kMaxRequest, "[pinned allocator] cannot allocate ",
                 nbytes, " bytes of pinned host memory: more than any host can provide; "
                 "check the tensor's size");
    const size_t size = std::bit_ceil(nbytes);
    process_events_locked();
    Block* block = take_free_locked(size);
    if (block == nullptr) {
      void* p = host_alloc_locked(size);
      if (p == nullptr) {
        release_free_blocks_locked();
        p = host_alloc_locked(size);
      }
      if (p == nullptr) throw_oom_locked(nbytes, size, false);
      block = new Block(p, size);
      blocks_.insert(block);
      segment_.increase(1);
      reserved_bytes_.increase(static_cast<int64_t>(size));
    }
    block->allocated = true;
    allocation_.increase(1);
    allocated_bytes_.increase(static_cast<int64_t>(size));
    return DataPtr(block->ptr, nbytes, Device(kCPU), 0, block, &PinnedAllocator::release);
  }

  bool record_use(const DataPtr& data, const cuda::Stream& stream) {
    auto* block = static_cast<Block*>(data.context());
    if (block == nullptr) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    // The context is only ours if the block is one of ours (another allocator's context
    // may be anything): check membership before touching it, as torch does.
    if (blocks_.find(block) == blocks_.end() || block->ptr != data.get()) return false;
    TIDE_INTERNAL_ASSERT(block->allocated);
    if (std::find(block->streams.begin(), block->streams.end(), stream) == block->streams.end()) {
      block->streams.push_back(stream);
    }
    return true;
  }

  void empty_cache() {
    std::lock_guard<std::mutex> lock(mutex_);
    process_events_locked();
    release_free_blocks_locked();
  }

  std::map<std::string, int64_t> stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    process_events_locked();  // figures reflect every copy that has completed
    std::map<std::string, int64_t> out;
    allocation_.put(out, "allocation");
    allocated_bytes_.put(out, "allocated_bytes");
    segment_.put(out, "segment");
    reserved_bytes_.put(out, "reserved_bytes");
    out["num_host_alloc"] = segment_.allocated;
    out["num_host_free"] = segment_.freed;
    host_alloc_time_.put(out, "host_alloc_time");
    host_free_time_.put(out, "host_free_time");
    return out;
  }

  void reset_peak() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Stat* s : {&allocation_, &allocated_bytes_, &segment_, &reserved_bytes_}) {
      s->peak = s->current;
    }
    host_alloc_time_.max = host_alloc_time_.min = 0;
    host_free_time_.max = host_free_time_.min = 0;
  }

  void reset_accumulated() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Stat* s : {&allocation_, &allocated_bytes_, &segment_, &reserved_bytes_}) {
      s->allocated = s->freed = 0;
    }
    host_alloc_time_ = DurationStat{};
    host_free_time_ = DurationStat{};
  }

  void inject_oom_at(int64_t n) {
    TIDE_CHECK(n >= 0, "[cuda::inject_pinned_oom_at] expected n >= 0 (n: the n-th pinned "
               "allocation from now fails; 0: disarm), got ", n);
    std::lock_guard<std::mutex> lock(mutex_);
    fault_env_read_ = true;  // an explicit call overrides TIDE_FAULT_PINNED_OOM_AT
    fault_countdown_ = n;
  }

 private:
  static void release(void* ctx, void* /*ptr*/, size_t /*nbytes*/) {
    instance_for_release()->free(static_cast<Block*>(ctx));
  }
  static PinnedAllocator* instance_for_release();

  // Called when the last tensor lets go of the block, possibly on a stream's worker thread.
  void free(Block* block) {
    if (TIDE_UNLIKELY(runtime::in_bad_fork())) return;  // the parent's cache (Note [Fork safety])
    // Its next user is ordered after the streams that used it by this allocator's events
    // (Note [Stream sanitizer] in runtime/sanitizer.h).
    if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) {
      runtime::sanitizer_memory_freed(block->ptr, block->size);
    }
    std::vector<cuda::Stream> streams;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      block->allocated = false;
      if (block->streams.empty()) {
        return_to_free_list_locked(block);
        return;
      }
      streams.swap(block->streams);
      block->pending_events = static_cast<int>(streams.size());
    }
    // Events are recorded outside the lock: recording takes the stream's lock, and a stream
    // never calls into the allocator while holding it, but keep the order one-way anyway.
    std::vector<PendingEvent> events;
    events.reserve(streams.size());
    for (const cuda::Stream& s : streams) events.push_back(PendingEvent{s.record_event(), block});
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& e : events) pending_.push_back(std::move(e));
  }

  void return_to_free_list_locked(Block* block) {
    free_lists_[std::countr_zero(block->size)].push_back(block);
    allocation_.decrease(1);
    allocated_bytes_.decrease(static_cast<int64_t>(block->size));
  }

  // Returns to the free lists every block whose events have all completed.
  void process_events_locked() {
    auto done = std::remove_if(pending_.begin(), pending_.end(), [&](PendingEvent& e) {
      if (!e.event.query()) return false;
      if (--e.block->pending_events == 0) return_to_free_list_locked(e.block);
      return true;
    });
    pending_.erase(done, pending_.end());
  }

  Block* take_free_locked(size_t size) {
    auto& list = free_lists_[std::countr_zero(size)];
    if (list.empty()) return nullptr;
    Block* b = list.back();  // most recently freed: likeliest still in cache
    list.pop_back();
    return b;
  }

  void* host_alloc_locked(size_t size) {
    auto start = std::chrono::steady_clock::now();
    void* p = runtime::backend(kCUDA)->host_alloc(size);
    host_alloc_time_.add(elapsed_us(start));
    return p;
  }

  void release_free_blocks_locked() {
    for (auto& list : free_lists_) {
      for (Block* b : list) {
        auto start = std::chrono::steady_clock::now();
        runtime::backend(kCUDA)->host_free(b->ptr, b->size);
        host_free_time_.add(elapsed_us(start));
        segment_.decrease(1);
        reserved_bytes_.decrease(static_cast<int64_t>(b->size));
        blocks_.erase(b);
        delete b;
      }
      list.clear();
    }
  }

  static int64_t elapsed_us(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now() - start)
        .count();
  }

  [[noreturn]] void throw_oom_locked(size_t nbytes, size_t size, bool injected) {
    int64_t cached = 0;
    for (const auto& list : free_lists_) {
      for (const Block* b : list) cached += static_cast<int64_t>(b->size);
    }
    throw OutOfMemoryError(detail::concat(
        "[pinned allocator] could not allocate ", format_bytes(static_cast<int64_t>(size)),
        " of pinned (page-locked) host memory (requested ", nbytes, " bytes, rounded up to a "
        "power of two). Pinned memory held by tensors: ",
        format_bytes(allocated_bytes_.current), " in ", allocation_.current,
        " blocks; cached and unused: ", format_bytes(cached),
        injected ? "; this failure was injected by cuda::inject_pinned_oom_at or "
                   "TIDE_FAULT_PINNED_OOM_AT"
                 : "; the cache was released and the allocation retried",
        ". Free pinned tensors you no longer need, call cuda::host_empty_cache(), pin smaller "
        "batches, or keep this data in pageable memory (pin_memory=false)."));
  }

  std::mutex mutex_;
  std::unordered_set<Block*> blocks_;  // every block that owns host memory
  std::array<std::vector<Block*>, kNumSizeClasses> free_lists_;  // by log2(size)
  std::vector<PendingEvent> pending_;
  Stat allocation_, allocated_bytes_, segment_, reserved_bytes_;
  DurationStat host_alloc_time_, host_free_time_;
  bool fault_env_read_ = false;
  int64_t fault_countdown_ = 0;
};

PinnedAllocator& instance() {
  // Leaked on purpose: pinned tensors may be freed during static destruction.
  static auto* a = new PinnedAllocator();
  return *a;
}

PinnedAllocator* PinnedAllocator::instance_for_release() { return &instance(); }

}  // namespace

Allocator* pinned_allocator() { return &instance(); }

void check_pinned_memory_available(const char* where) {
  if (TIDE_UNLIKELY(runtime::in_bad_fork())) runtime::raise_bad_fork(where);
  TIDE_CHECK(runtime::cuda_device_count() > 0, "[", where, "] pinned memory needs a cuda device "
             "(real or simulated), but none is available: device_count() is 0 (",
             runtime::cuda_unavailable_reason(), "). Keep the tensor in pageable memory, run on "
             "a machine with an NVIDIA GPU, or set TIDE_SIM_DEVICES=N for N simulated GPUs");
}

bool record_pinned_use(const DataPtr& data, const cuda::Stream& stream) {
  return instance().record_use(data, stream);
}

std::map<std::string, int64_t> pinned_stats() { return instance().stats(); }
void pinned_empty_cache() { instance().empty_cache(); }
void pinned_reset_peak_stats() { instance().reset_peak(); }
void pinned_reset_accumulated_stats() { instance().reset_accumulated(); }
void pinned_inject_oom_at(int64_t n) { instance().inject_oom_at(n); }

}  // namespace tide::memory
