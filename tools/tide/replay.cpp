#include "replay.h"

#include <cstdio>
#include <string>

#include "memory/allocator_config.h"
#include "memory/replay.h"
#include "memory/snapshot.h"

namespace tide::cli {
namespace {

std::string mib(int64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

void print_device(const memory::DeviceReplay& r, std::ostream& out) {
  out << "  cuda:" << r.device << ": " << r.allocations << " allocations";
  if (r.initial_allocations > 0) {
    out << " (" << r.initial_allocations << " alive before the history began)";
  }
  out << ", " << r.frees << " frees, from " << r.trace_entries << " trace entries";
  if (r.unmatched_frees > 0) {
    out << "; " << r.unmatched_frees << " frees of addresses not alive were skipped";
  }
  out << "\n";
  char frag[32];
  std::snprintf(frag, sizeof frag, "%.1f%%", 100.0 * r.fragmentation());
  out << "    peak allocated      " << mib(r.peak_allocated) << " (" << r.peak_allocated
      << " bytes; requested " << mib(r.peak_requested) << ")\n";
  out << "    peak reserved       " << mib(r.peak_reserved) << " (" << r.peak_reserved
      << " bytes)\n";
  out << "    fragmentation       " << frag << " (1 - peak allocated / peak reserved)\n";
  out << "    at the end          " << mib(r.end_allocated) << " allocated, "
      << mib(r.end_reserved) << " reserved, " << mib(r.end_reserved - r.end_allocated)
      << " reserved but unallocated\n";
  out << "    snapshot reserved   " << mib(r.snapshot_reserved)
      << " (what the recording allocator held when the snapshot was taken)\n";
}

}  // namespace

int run_replay(const ReplayOptions& options, std::ostream& out) {
  memory::Snapshot snapshot = memory::read_snapshot_file(options.snapshot, "tide replay");
  std::vector<std::string> confs = options.alloc_confs;
  if (confs.empty()) confs.emplace_back();
  // Parse every spec first: a typo in the third should not cost the first two replays.
  std::vector<memory::AllocatorConfig> configs;
  for (const std::string& spec : confs) configs.push_back(memory::AllocatorConfig::parse(spec));

  out << "replaying " << options.snapshot << "\n";
  if (!snapshot.has_history()) {
    out << "note: the snapshot has no allocation history (its device_traces are empty: history "
           "was not recorded), so only the allocations alive in its segments are replayed. "
           "Record history before the workload runs with "
           "tide::cuda::record_memory_history(true) (PyTorch: "
           "torch.cuda.memory._record_memory_history()) for peaks over time.\n";
  }
  for (size_t i = 0; i < configs.size(); ++i) {
    memory::ReplayResult result = memory::replay_snapshot(snapshot, configs[i], options.snapshot);
    out << "alloc-conf \"" << confs[i] << "\"" << (confs[i].empty() ? " (torch's defaults)" : "")
        << ":\n";
    for (const memory::DeviceReplay& r : result.devices) print_device(r, out);
  }
  return 0;
}

}  // namespace tide::cli
