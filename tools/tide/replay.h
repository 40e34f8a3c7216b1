#pragma once
// `tide replay SNAPSHOT [--alloc-conf SPEC]...`: replays a snapshot's allocation history —
// tide's or torch's — through tide's caching allocator and prints peak allocated, peak
// reserved and fragmentation, once per allocator configuration, so settings can be compared
// on any machine (src/memory/replay.h).

#include <ostream>
#include <string>
#include <vector>

namespace tide::cli {

struct ReplayOptions {
  std::string snapshot;
  /// TIDE_CUDA_ALLOC_CONF-style specs ("max_split_size_mb:128"); none: torch's defaults.
  std::vector<std::string> alloc_confs;
};

/// Replays and prints the figures; raises tide::Error for a missing or bad snapshot and for a
/// bad --alloc-conf (naming the valid keys).
int run_replay(const ReplayOptions& options, std::ostream& out);

}  // namespace tide::cli
