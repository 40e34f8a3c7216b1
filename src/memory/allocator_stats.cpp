#include "memory/allocator_stats.h"

namespace tide::memory {
namespace {

void put(std::map<std::string, int64_t>& out, const std::string& prefix, const Stat& s) {
  out[prefix + ".current"] = s.current;
  out[prefix + ".peak"] = s.peak;
  out[prefix + ".allocated"] = s.allocated;
  out[prefix + ".freed"] = s.freed;
}

void put(std::map<std::string, int64_t>& out, const std::string& name, const StatArray& s) {
  put(out, name + ".all", s[kAllPools]);
  put(out, name + ".small_pool", s[kSmallPool]);
  put(out, name + ".large_pool", s[kLargePool]);
}

template <class F>
void for_each_array(AllocatorStats& st, F f) {
  for (StatArray* a : {&st.allocation, &st.segment, &st.active, &st.inactive_split,
                       &st.allocated_bytes, &st.reserved_bytes, &st.active_bytes,
                       &st.inactive_split_bytes, &st.requested_bytes}) {
    for (Stat& s : *a) f(s);
  }
  f(st.oversize_allocations);
  f(st.oversize_segments);
}

}  // namespace

std::map<std::string, int64_t> AllocatorStats::to_map() const {
  std::map<std::string, int64_t> out;
  put(out, "allocation", allocation);
  put(out, "segment", segment);
  put(out, "active", active);
  put(out, "inactive_split", inactive_split);
  put(out, "allocated_bytes", allocated_bytes);
  put(out, "reserved_bytes", reserved_bytes);
  put(out, "active_bytes", active_bytes);
  put(out, "inactive_split_bytes", inactive_split_bytes);
  put(out, "requested_bytes", requested_bytes);
  out["num_alloc_retries"] = num_alloc_retries;
  out["num_ooms"] = num_ooms;
  out["num_sync_all_streams"] = num_sync_all_streams;
  out["num_device_alloc"] = num_device_alloc;
  out["num_device_free"] = num_device_free;
  put(out, "oversize_allocations", oversize_allocations);
  put(out, "oversize_segments", oversize_segments);
  out["max_split_size"] = max_split_size;
  return out;
}

void AllocatorStats::reset_peak() {
  for_each_array(*this, [](Stat& s) { s.reset_peak(); });
}

void AllocatorStats::reset_accumulated() {
  for_each_array(*this, [](Stat& s) { s.reset_accumulated(); });
  num_alloc_retries = num_ooms = num_sync_all_streams = 0;
  num_device_alloc = num_device_free = 0;
}

}  // namespace tide::memory
