#pragma once
// `tide memviz SNAPSHOT -o memory.html`: one self-contained HTML page (inline SVG, CSS and a
// little JS, no network) that draws a memory snapshot — tide's or torch's — the way torch's
// memory_viz does: active memory over time stacked by allocation, and the segment map.

#include <ostream>
#include <string>

#include "memory/snapshot.h"

namespace tide::cli {

struct MemvizOptions {
  std::string snapshot;                // path of the JSON snapshot
  std::string output = "memory.html";  // where the page goes
};

/// The page for `snapshot`; `title` (usually the file name) heads it.
std::string memviz_html(const memory::Snapshot& snapshot, const std::string& title);

/// Reads the snapshot, writes the page and says where; raises tide::Error (naming the file
/// and what to do) when the snapshot cannot be read or the page cannot be written.
int run_memviz(const MemvizOptions& options, std::ostream& out);

}  // namespace tide::cli
