// TIDE_CUDA_ALLOC_CONF strings: AllocatorConfig::parse raises tide::Error, or gives a config
// whose every field is in its documented range, that to_string() writes as a spec parsing
// back to the same config, and that a caching allocator serves requests with.

#include <limits>
#include <memory>

#include "fuzz_target.h"
#include "memory/allocator_config.h"
#include "memory/caching_allocator.h"
#include "memory/unlimited_upstream.h"

namespace tide::fuzz {
namespace {

using memory::AllocatorConfig;

constexpr size_t kMiB = size_t{1} << 20;

bool zero_or_power_of_2_upto_64(int n) { return n == 0 || (n > 0 && n <= 64 && (n & (n - 1)) == 0); }

bool same(const AllocatorConfig& a, const AllocatorConfig& b) {
  return a.max_split_size == b.max_split_size &&
         a.roundup_power2_divisions == b.roundup_power2_divisions &&
         a.garbage_collection_threshold == b.garbage_collection_threshold &&
         a.roundup_power2_division_table == b.roundup_power2_division_table;
}

void check_ranges(const AllocatorConfig& c, const std::string& spec) {
  if (c.max_split_size != std::numeric_limits<size_t>::max() &&
      (c.max_split_size % kMiB != 0 || c.max_split_size <= 20 * kMiB))
    fail("'", spec, "' gives max_split_size ", c.max_split_size);
  if (!zero_or_power_of_2_upto_64(c.roundup_power2_divisions))
    fail("'", spec, "' gives roundup_power2_divisions ", c.roundup_power2_divisions);
  for (int d : c.roundup_power2_division_table) {
    if (!zero_or_power_of_2_upto_64(d)) fail("'", spec, "' gives a division table entry ", d);
  }
  const double gc = c.garbage_collection_threshold;
  if (!(gc == 0.0 || (gc > 0.0 && gc < 1.0)))
    fail("'", spec, "' gives garbage_collection_threshold ", gc);
}

// Requests on both sides of every rounding and pool boundary.
constexpr size_t kRequests[] = {0, 1, 511, 512, 513, kMiB - 1, kMiB, kMiB + 1, 3 * kMiB + 7,
                                10 * kMiB - 1, 10 * kMiB + 1, 33 * kMiB + 123, (size_t{1} << 30) + 1,
                                (size_t{1} << 36) - 3};

void serve_requests(const AllocatorConfig& c, const std::string& spec) {
  memory::CachingAllocator alloc(0, std::make_unique<memory::UnlimitedUpstream>(), c);
  std::vector<memory::Block*> blocks;
  for (size_t n : kRequests) {
    memory::Block* b = alloc.malloc(n, 0);
    const size_t got = memory::CachingAllocator::size(b);
    if (got < n || got % 512 != 0 || got == 0)
      fail("with '", spec, "' a request of ", n, " bytes got a block of ", got);
    blocks.push_back(b);
  }
  alloc.check_invariants();
  for (memory::Block* b : blocks) alloc.free(b);
  alloc.empty_cache();
  alloc.check_invariants();
  const auto stats = alloc.stats();
  if (stats.at("reserved_bytes.all.current") != 0 || stats.at("allocated_bytes.all.current") != 0)
    fail("with '", spec, "' memory is still reserved after freeing everything and empty_cache");
}

}  // namespace

void alloc_conf(const uint8_t* data, size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  AllocatorConfig c;
  if (!accepted([&] { c = AllocatorConfig::parse(spec); })) return;
  check_ranges(c, spec);
  const std::string written = c.to_string();
  AllocatorConfig again;
  if (!accepted([&] { again = AllocatorConfig::parse(written); }))
    fail("'", spec, "' is written as '", written, "', which does not parse");
  if (!same(c, again)) fail("'", spec, "' is written as '", written, "', which parses to another config");
  if (again.to_string() != written) fail("'", written, "' is written back as '", again.to_string(), "'");
  try {
    serve_requests(c, spec);
  } catch (const Error& e) {
    fail("with '", spec, "' the allocator raised: ", e.what());
  }
}

}  // namespace tide::fuzz
