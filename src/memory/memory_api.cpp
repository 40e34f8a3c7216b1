// tide::cuda's memory functions (include/tide/cuda/memory.h) over the device allocators.

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "memory/caching_allocator.h"
#include "memory/device_allocators.h"
#include "runtime/fork_safety.h"
#include "runtime/registry.h"
#include "tide/cuda/memory.h"
#include "tide/error.h"

namespace tide::cuda {
namespace {

memory::CachingAllocator& allocator_of(int device, const char* fn) {
  return memory::device_allocator(runtime::check_cuda_device(device, fn));
}

int64_t stat_of(int device, const char* fn, const char* key) {
  const memory::StatMap stats = allocator_of(device, fn).stats();
  const auto it = stats.find(key);
  TIDE_INTERNAL_ASSERT(it != stats.end(), "the allocator has no statistic ", key);
  return it->second;
}

// ---- memory_summary: torch.cuda.memory_summary's table, character for character --------

int64_t summary_stat(const memory::StatMap& stats, const std::string& key) {
  const auto it = stats.find(key);
  TIDE_INTERNAL_ASSERT(it != stats.end(), "the allocator has no statistic ", key);
  return it->second;
}

// torch's _format_size: the unit is chosen by `pref` (the row's "all" figure), so a column's
// sub-rows share its unit; integer division, as Python's //.
std::string format_size(int64_t size, int64_t pref) {
  static const char* const kPrefixes[] = {"B  ", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  auto p = static_cast<double>(pref);
  while (unit < 5 && !(p < 768.0 * 1024)) {
    ++unit;
    size /= 1024;
    p /= 1024;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%6" PRId64 " %s", size, kPrefixes[unit]);
  return buf;
}

// torch's _format_count.
std::string format_count(int64_t count, int64_t pref) {
  static const char* const kPrefixes[] = {" ", "K", "M"};
  int unit = 0;
  auto p = static_cast<double>(pref);
  while (unit < 2 && !(p < 750.0 * 1000)) {
    ++unit;
    count /= 1000;
    p /= 1000;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%7" PRId64 " %s ", count, kPrefixes[unit]);
  return buf;
}

using Formatter = std::string (*)(int64_t, int64_t);

std::string pad_right(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string summary_row(const std::string& name, const int64_t (&v)[4], const int64_t (&pref)[4],
                        Formatter f) {
  std::string row(" ");
  row += pad_right(name, 21);
  for (int i = 0; i < 4; ++i) {
    row += " | ";
    row += f(v[i], pref[i]);
  }
  row += ' ';
  return row;
}

std::string summary_table(int device, const memory::StatMap& stats, bool abbreviated) {
  struct Metric {
    const char* key;
    const char* name;
    Formatter format;
  };
  static const Metric kPooled[] = {
      {"allocated_bytes", "Allocated memory", &format_size},
      {"active_bytes", "Active memory", &format_size},
      {"requested_bytes", "Requested memory", &format_size},
      {"reserved_bytes", "GPU reserved memory", &format_size},
      {"inactive_split_bytes", "Non-releasable memory", &format_size},
      {"allocation", "Allocations", &format_count},
      {"active", "Active allocs", &format_count},
      {"segment", "GPU reserved segments", &format_count},
      {"inactive_split", "Non-releasable allocs", &format_count},
  };
  static const Metric kOversize[] = {
      {"oversize_allocations", "Oversize allocations", &format_count},
      {"oversize_segments", "Oversize GPU segments", &format_count},
  };
  static const char* const kColumns[] = {"current", "peak", "allocated", "freed"};
  const std::string rule_eq(75, '='), rule_dash(75, '-');
  auto figures = [&](const std::string& prefix, int64_t (&out)[4]) {
    for (int i = 0; i < 4; ++i) out[i] = summary_stat(stats, prefix + kColumns[i]);
  };

  std::vector<std::string> lines;
  lines.push_back(rule_eq);
  // torch's " {_:16} PyTorch CUDA memory summary, device ID {device:<17d} "; the device
  // field is 3 wider because "tide" is 3 shorter than "PyTorch", so the table stays 75 wide.
  lines.push_back(std::string(17, ' ') + " tide CUDA memory summary, device ID " +
                  pad_right(std::to_string(device), 20) + " ");
  lines.push_back(rule_dash);
  lines.push_back("  " + std::string(9, ' ') + " CUDA OOMs: " +
                  pad_right(std::to_string(summary_stat(stats, "num_ooms")), 12) + " | " +
                  std::string(6, ' ') + " cudaMalloc retries: " +
                  pad_right(std::to_string(summary_stat(stats, "num_alloc_retries")), 8) + "  ");
  lines.push_back(rule_eq);
  lines.push_back("        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ");
  for (const Metric& m : kPooled) {
    lines.push_back(rule_dash);
    int64_t all[4];
    figures(std::string(m.key) + ".all.", all);
    lines.push_back(summary_row(m.name, all, all, m.format));
    if (abbreviated) continue;
    int64_t pool[4];
    figures(std::string(m.key) + ".large_pool.", pool);
    lines.push_back(summary_row("      from large pool", pool, all, m.format));
    figures(std::string(m.key) + ".small_pool.", pool);
    lines.push_back(summary_row("      from small pool", pool, all, m.format));
  }
  for (const Metric& m : kOversize) {
    lines.push_back(rule_dash);
    int64_t v[4];
    figures(std::string(m.key) + ".", v);
    lines.push_back(summary_row(m.name, v, v, m.format));
  }
  lines.push_back(rule_eq);

  std::string out;
  for (const std::string& line : lines) out += "|" + line + "|\n";
  return out;
}

}  // namespace

int64_t memory_allocated(int device) {
  return stat_of(device, "memory_allocated", "allocated_bytes.all.current");
}

int64_t max_memory_allocated(int device) {
  return stat_of(device, "max_memory_allocated", "allocated_bytes.all.peak");
}

int64_t memory_reserved(int device) {
  return stat_of(device, "memory_reserved", "reserved_bytes.all.current");
}

int64_t max_memory_reserved(int device) {
  return stat_of(device, "max_memory_reserved", "reserved_bytes.all.peak");
}

int64_t memory_cached(int device) {
  return stat_of(device, "memory_cached", "reserved_bytes.all.current");
}

int64_t max_memory_cached(int device) {
  return stat_of(device, "max_memory_cached", "reserved_bytes.all.peak");
}

void empty_cache() {
  // As torch: a no-op before cuda is used (only allocators that exist hold anything) and in a
  // child forked after it was (the cache is the parent's; Note [Fork safety]).
  if (runtime::in_bad_fork()) return;
  const int count = runtime::backends_initialized() ? runtime::cuda_device_count() : 0;
  for (int d = 0; d < count; ++d) {
    if (memory::CachingAllocator* a = memory::device_allocator_if_created(d)) a->empty_cache();
  }
}

void reset_peak_memory_stats(int device) {
  allocator_of(device, "reset_peak_memory_stats").reset_peak_stats();
}

void set_per_process_memory_fraction(double fraction, int device) {
  memory::CachingAllocator& a = allocator_of(device, "set_per_process_memory_fraction");
  TIDE_CHECK(fraction >= 0 && fraction <= 1, "[set_per_process_memory_fraction] Invalid fraction "
             "value: ", fraction, ". Allowed range: 0~1");
  a.set_memory_fraction(fraction);
}

void inject_oom_at(int64_t n, int device) {
  memory::CachingAllocator& a = allocator_of(device, "inject_oom_at");
  TIDE_CHECK(n >= 0, "[inject_oom_at] n counts allocations from now (1 = the next) and 0 "
             "disarms, so it must not be negative; got ", n);
  a.inject_oom_at(n);
}

std::map<std::string, int64_t> memory_stats(int device) {
  return allocator_of(device, "memory_stats").stats();
}

std::string memory_summary(int device, bool abbreviated) {
  const int d = runtime::check_cuda_device(device, "memory_summary");
  return summary_table(d, memory::device_allocator(d).stats(), abbreviated);
}

std::pair<int64_t, int64_t> mem_get_info(int device) {
  return allocator_of(device, "mem_get_info").mem_get_info();
}

}  // namespace tide::cuda
