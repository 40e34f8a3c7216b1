// Caching allocator operation sequences — malloc, free, record_stream, stream progress,
// empty_cache, peak and accumulated resets, device failures, injected OOMs, a memory
// fraction — on a FakeUpstream device (tests/memory/fake_upstream.h), checked after every
// step against a reference model that knows only what the allocator promises:
//   - a block holds at least the rounded request, and at most one unsplit remainder more;
//   - live blocks and blocks still waiting on other streams never overlap;
//   - allocated, requested, allocation count and reserved bytes are the model's sums, the
//     peak is the largest allocated total since the last reset, num_ooms counts the
//     OutOfMemoryErrors raised and allocation.all.allocated the successful mallocs;
//   - an OutOfMemoryError that was neither injected nor forced by the device happens only
//     when the device (or the memory fraction) truly cannot take the new segment after the
//     cache was freed;
//   - freeing everything and emptying the cache returns every byte to the device.

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

#include "fuzz_target.h"
#include "memory/caching_allocator.h"
#include "memory/fake_upstream.h"

namespace tide::fuzz {
namespace {

using memory::AllocatorConfig;
using memory::Block;
using memory::CachingAllocator;

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kMaxLive = 64;
constexpr uint64_t kStreams = 4;

int floor_log2(size_t v) { return 63 - __builtin_clzll(v); }

// torch's round_size, written from its definition: 512 B steps, or with N > 1 divisions for
// the request's power-of-two interval, the next of N equal steps between two powers of two
// (for sizes above 512·N).
size_t rounded(size_t n, const AllocatorConfig& config) {
  size_t divisions = static_cast<size_t>(config.roundup_power2_divisions);
  if (divisions == 0) {  // the bracket form: intervals [2^(20+k), 2^(21+k)), k in [0, 15]
    const int k = n == 0 ? 0 : std::clamp(floor_log2(n) - 20, 0, 15);
    divisions = static_cast<size_t>(config.roundup_power2_division_table[static_cast<size_t>(k)]);
  }
  if (n < 512) return 512;
  if (divisions > 1 && n > 512 * divisions) {
    const size_t p = size_t{1} << floor_log2(n);
    if (p == n) return n;
    const size_t step = p / divisions;
    return (n + step - 1) / step * step;
  }
  return (n + 511) / 512 * 512;
}

// The segment a request of `size` (rounded) bytes needs when no cached block fits.
size_t segment_size(size_t size) {
  if (size <= kMiB) return 2 * kMiB;
  if (size < 10 * kMiB) return 20 * kMiB;
  return (size + 2 * kMiB - 1) / (2 * kMiB) * (2 * kMiB);
}

struct Live {
  Block* block;
  uintptr_t ptr;
  size_t size;
  size_t requested;
  uint64_t stream;
  std::set<uint64_t> used_on;  // other streams that used it (record_stream)
};

struct Pending {  // freed while other streams' work may still use it
  uintptr_t ptr;
  size_t size;
  size_t requested;  // counted in requested_bytes until the allocator sees the streams done
  std::set<uint64_t> streams;
};

class Run {
 public:
  explicit Run(Input& in) : in_(in) {
    const uint8_t setup = in_.byte();
    static const char* const kConfigs[] = {
        "", "roundup_power2_divisions:4", "max_split_size_mb:40",
        "roundup_power2_divisions:[1:2,4:8,>:1],max_split_size_mb:30",
        "garbage_collection_threshold:0.5"};  // acts once a memory fraction is set
    config_ = AllocatorConfig::parse(kConfigs[setup % std::size(kConfigs)]);
    capacity_ = static_cast<int64_t>((64 + (setup / std::size(kConfigs) % 4) * 32) * kMiB);
    dev_.emplace(capacity_, config_);
    stats_ = dev_->alloc->stats();
  }

  void run() {
    for (int step = 0; step < 256 && !in_.empty(); ++step) {
      const uint8_t op = in_.byte();
      switch (op % 10) {
        case 0: case 1: case 2: case 3: do_malloc(op); break;
        case 4: case 5: do_free(); break;
        case 6: do_record_stream(); break;
        case 7: do_complete(); break;
        case 8: do_empty_cache(); break;
        default: do_misc(); break;
      }
      check();
    }
    for (const Live& l : live_) dev_->alloc->free(l.block);
    live_.clear();
    dev_->alloc->empty_cache();
    fresh_ = false;
    pending_.clear();
    check();
    if (dev_->up->raw_in_use() != 0)
      fail("after freeing every block and empty_cache the device still holds ", dev_->up->raw_in_use(), " bytes");
    if (dev_->up->bad_frees != 0) fail("the allocator returned memory the device did not give it");
  }

 private:
  // One of the allocator's stats now. Building the map is a large part of each step's cost:
  // it is rebuilt only after the allocator was called.
  int64_t stat(const char* key) {
    if (!fresh_) {
      stats_ = dev_->alloc->stats();
      fresh_ = true;
    }
    return stats_.at(key);
  }

  size_t request_size() {
    static constexpr size_t kEdges[] = {0, 1, 511, 512, 513, kMiB - 1, kMiB, kMiB + 1, 10 * kMiB - 1,
                                        10 * kMiB, 10 * kMiB + 1, 20 * kMiB, 21 * kMiB, 40 * kMiB};
    switch (in_.byte() % 4) {
      case 0: return kEdges[in_.byte() % std::size(kEdges)];
      case 1: return in_.u64(2);
      case 2: return in_.u64(3);
      default: return in_.u64(2) * 1024;
    }
  }

  void do_malloc(uint8_t op) {
    if (live_.size() >= kMaxLive) return do_free();
    const uint64_t stream = op / 16 % kStreams;
    const size_t n = request_size();
    // The allocator first returns blocks whose streams are done (torch's process_events).
    std::erase_if(pending_, [](const Pending& p) { return p.streams.empty(); });
    const int64_t syncs = stat("num_sync_all_streams");
    const bool injected = injections_left_ == 1;
    if (injections_left_ > 0) --injections_left_;
    const int calls_before = dev_->up->malloc_calls;
    Block* b = nullptr;
    try {
      b = dev_->alloc->malloc(n, stream);
    } catch (const OutOfMemoryError&) {
      ++ooms_;
    }
    fresh_ = false;
    // fail_next(k) makes the device's next k raw mallocs fail; this malloc made `calls`.
    const int calls = dev_->up->malloc_calls - calls_before;
    const bool device_forced = calls > 0 && device_failures_left_ >= calls;
    device_failures_left_ = std::max(0, device_failures_left_ - calls);
    if (stat("num_sync_all_streams") != syncs) pending_.clear();  // the retry waited for every stream
    if (!b) {
      if (injected || device_forced) return;
      // Otherwise the last request for a segment was refused for want of room.
      const int64_t reserved = stat("reserved_bytes.all.current");
      const int64_t need = static_cast<int64_t>(segment_size(rounded(n, config_)));
      const bool over_fraction =
          fraction_ && reserved + need > static_cast<int64_t>(*fraction_ * static_cast<double>(capacity_));
      if (!over_fraction && reserved + need <= capacity_)
        fail("malloc(", n, ") raised OutOfMemoryError with ", reserved, " bytes reserved, a segment of ", need,
             " needed, a capacity of ", capacity_, " and a memory fraction of ", fraction_.value_or(1.0));
      return;
    }
    if (injected) fail("malloc(", n, ") succeeded although an OOM was injected for it");
    ++mallocs_;
    Live l{b, reinterpret_cast<uintptr_t>(CachingAllocator::ptr(b)), CachingAllocator::size(b), n, stream, {}};
    const size_t want = rounded(n, config_);
    const size_t slack = want <= kMiB ? 511 : want >= config_.max_split_size ? 20 * kMiB - 1 : kMiB;
    if (l.size < want || l.size - want > slack)
      fail("malloc(", n, ") gave a block of ", l.size, " bytes; the rounded request is ", want);
    for (const Pending& p : pending_) {
      if (l.ptr < p.ptr + p.size && p.ptr < l.ptr + l.size)
        fail("malloc(", n, ") handed out memory another stream may still use");
    }
    live_.push_back(std::move(l));
    peak_ = std::max(peak_, allocated());
  }

  size_t pick_live() { return in_.byte() % live_.size(); }

  void do_free() {
    if (live_.empty()) return;
    const size_t i = pick_live();
    Live l = std::move(live_[i]);
    live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(i));
    dev_->alloc->free(l.block);
    fresh_ = false;
    if (!l.used_on.empty()) pending_.push_back({l.ptr, l.size, l.requested, l.used_on});
  }

  void do_record_stream() {
    if (live_.empty()) return;
    Live& l = live_[pick_live()];
    const uint64_t stream = in_.byte() % kStreams;
    dev_->alloc->record_stream(l.block, stream);
    fresh_ = false;
    if (stream != l.stream) l.used_on.insert(stream);
  }

  void do_complete() {
    const uint64_t stream = in_.byte() % kStreams;
    dev_->up->complete(stream);
    fresh_ = false;
    for (Pending& p : pending_) p.streams.erase(stream);
  }

  void do_empty_cache() {
    dev_->alloc->empty_cache();  // waits for every stream first
    fresh_ = false;
    pending_.clear();
  }

  void do_misc() {
    const uint8_t what = in_.byte();
    fresh_ = false;
    switch (what % 5) {
      case 0:
        dev_->alloc->reset_peak_stats();
        peak_ = allocated();
        break;
      case 1:
        dev_->alloc->reset_accumulated_stats();
        ooms_ = 0;
        mallocs_ = 0;
        break;
      case 2:
        device_failures_left_ = 1 + what / 5 % 6;
        dev_->up->fail_next(device_failures_left_);
        break;
      case 3:
        injections_left_ = 1 + what / 5 % 4;
        dev_->alloc->inject_oom_at(injections_left_);
        break;
      default:
        fraction_ = static_cast<double>(what / 5 + 1) / 52.0;  // (0, 1]
        dev_->alloc->set_memory_fraction(*fraction_);
        break;
    }
  }

  int64_t allocated() const {
    int64_t sum = 0;
    for (const Live& l : live_) sum += static_cast<int64_t>(l.size);
    return sum;
  }

  void check() {
    int64_t requested = 0;
    for (const Live& l : live_) requested += static_cast<int64_t>(l.requested);
    for (const Pending& p : pending_) requested += static_cast<int64_t>(p.requested);
    const auto expect = [&](const char* key, int64_t value) {
      if (stat(key) != value) fail(key, " is ", stat(key), ", the model says ", value);
    };
    expect("allocated_bytes.all.current", allocated());
    expect("allocated_bytes.all.peak", peak_);
    expect("requested_bytes.all.current", requested);
    expect("allocation.all.current", static_cast<int64_t>(live_.size()));
    expect("allocation.all.allocated", mallocs_);
    expect("num_ooms", ooms_);
    expect("reserved_bytes.all.current", dev_->up->raw_in_use());
    std::vector<std::pair<uintptr_t, size_t>> ranges;
    for (const Live& l : live_) ranges.emplace_back(l.ptr, l.size);
    for (const Pending& p : pending_) ranges.emplace_back(p.ptr, p.size);
    std::sort(ranges.begin(), ranges.end());
    for (size_t i = 1; i < ranges.size(); ++i) {
      if (ranges[i - 1].first + ranges[i - 1].second > ranges[i].first) fail("two live or pending blocks overlap");
    }
    dev_->alloc->check_invariants();
  }

  Input& in_;
  AllocatorConfig config_;
  int64_t capacity_ = 0;
  std::optional<memory::testing::FakeDevice> dev_;
  std::vector<Live> live_;
  std::vector<Pending> pending_;
  int64_t peak_ = 0;
  int64_t ooms_ = 0;
  int64_t mallocs_ = 0;
  int injections_left_ = 0;
  int device_failures_left_ = 0;
  std::optional<double> fraction_;
  memory::StatMap stats_;
  bool fresh_ = true;  // stats_ is the allocator's now (no call since it was read)
};

}  // namespace

void allocator(const uint8_t* data, size_t size) {
  Input in(data, size);
  Run(in).run();
}

}  // namespace tide::fuzz
