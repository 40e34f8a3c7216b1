#include "memory/snapshot.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unordered_map>

#include "memory/caching_allocator.h"
#include "tide/error.h"

namespace tide::memory {
namespace {

using ordered_json = nlohmann::ordered_json;
using json = nlohmann::json;

const char* action_name(TraceEntry::Action action) {
  switch (action) {
    case TraceEntry::Action::Alloc: return "alloc";
    case TraceEntry::Action::FreeRequested: return "free_requested";
    case TraceEntry::Action::FreeCompleted: return "free_completed";
    case TraceEntry::Action::SegmentAlloc: return "segment_alloc";
    case TraceEntry::Action::SegmentFree: return "segment_free";
    case TraceEntry::Action::Oom: return "oom";
  }
  return "unknown";
}

ordered_json nullable(const char* text) {
  return text == nullptr ? ordered_json(nullptr) : ordered_json(text);
}

ordered_json settings_json(const AllocatorConfig& config) {
  ordered_json s;
  // null: no limit (torch prints SIZE_MAX here; null says the same without a magic number).
  s["max_split_size"] = config.max_split_size == std::numeric_limits<size_t>::max()
                            ? ordered_json(nullptr)
                            : ordered_json(config.max_split_size);
  s["roundup_power2_divisions"] = config.roundup_power2_divisions;
  s["garbage_collection_threshold"] = config.garbage_collection_threshold;
  return s;
}

}  // namespace

std::string snapshot_json(const std::vector<CachingAllocator*>& allocators, int device_count) {
  ordered_json segments = ordered_json::array();
  for (CachingAllocator* allocator : allocators) {
    device_count = std::max(device_count, allocator->device() + 1);
  }
  std::vector<ordered_json> traces(static_cast<size_t>(device_count), ordered_json::array());
  ordered_json settings = ordered_json::object();

  for (CachingAllocator* allocator : allocators) {
    for (const SegmentInfo& seg : allocator->segments()) {
      ordered_json blocks = ordered_json::array();
      for (const BlockInfo& b : seg.blocks) {
        blocks.push_back({{"address", b.addr},
                          {"size", b.size},
                          {"requested_size", b.requested_size},
                          {"state", b.state},
                          {"frames", ordered_json::array()},
                          {"op", nullable(b.op)},
                          {"scope", nullable(b.scope)}});
      }
      // A segment's op and scope are those of its first block's allocation, when known.
      const BlockInfo* first = seg.blocks.empty() ? nullptr : &seg.blocks.front();
      segments.push_back({{"device", allocator->device()},
                          {"address", seg.address},
                          {"total_size", seg.total_size},
                          {"allocated_size", seg.allocated_size},
                          {"active_size", seg.active_size},
                          {"requested_size", seg.requested_size},
                          {"stream", seg.stream},
                          {"segment_type", seg.segment_type},
                          {"segment_pool_id", {0, 0}},
                          {"is_expandable", false},
                          {"frames", ordered_json::array()},
                          {"blocks", std::move(blocks)},
                          {"op", nullable(first ? first->op : nullptr)},
                          {"scope", nullable(first ? first->scope : nullptr)}});
    }
    ordered_json& trace = traces[static_cast<size_t>(allocator->device())];
    for (const TraceEntry& e : allocator->trace()) {
      trace.push_back({{"action", action_name(e.action)},
                       {"addr", e.addr},
                       {"size", e.size},
                       {"stream", e.stream},
                       {"time_us", e.time_us},
                       {"frames", ordered_json::array()},
                       {"op", nullable(e.op)},
                       {"scope", nullable(e.scope)}});
    }
    settings[std::to_string(allocator->device())] = settings_json(allocator->config());
  }

  ordered_json root;
  root["segments"] = std::move(segments);
  root["device_traces"] = ordered_json::array();
  for (ordered_json& t : traces) root["device_traces"].push_back(std::move(t));
  root["allocator_settings"] = std::move(settings);
  return root.dump();
}

// ---------------------------------------------------------------------------------------
// Reading snapshots back (tide's and torch's).

std::vector<int> Snapshot::devices() const {
  std::set<int> found;
  for (const SnapshotSegment& s : segments) found.insert(s.device);
  for (size_t d = 0; d < device_traces.size(); ++d) {
    if (!device_traces[d].empty()) found.insert(static_cast<int>(d));
  }
  return {found.begin(), found.end()};
}

bool Snapshot::has_history() const {
  return std::any_of(device_traces.begin(), device_traces.end(),
                     [](const auto& t) { return !t.empty(); });
}

namespace {

struct Reader {
  const std::string& source;
  const std::string& who;

  [[noreturn]] void fail(const std::string& what) const {
    throw Error("[" + who + "] '" + source + "' is not a memory snapshot: " + what +
                "; pass a file written by tide::cuda::dump_snapshot or by "
                "json.dump(torch.cuda.memory._snapshot(), f)");
  }

  const json& member(const json& obj, const char* key, const std::string& where) const {
    auto it = obj.find(key);
    if (it == obj.end()) fail(where + " has no \"" + key + "\"");
    return *it;
  }

  uint64_t u64(const json& obj, const char* key, const std::string& where, bool required,
               uint64_t fallback = 0) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) {
      if (required) fail(where + " has no \"" + key + "\"");
      return fallback;
    }
    if (!it->is_number_integer()) fail(where + "[\"" + key + "\"] is not an integer");
    if (it->is_number_unsigned()) return it->get<uint64_t>();
    int64_t v = it->get<int64_t>();
    if (v < 0) fail(where + "[\"" + key + "\"] is negative");
    return static_cast<uint64_t>(v);
  }

  int64_t i64(const json& obj, const char* key, const std::string& where, bool required,
              int64_t fallback = 0) const {
    uint64_t v = u64(obj, key, where, required, static_cast<uint64_t>(fallback));
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      fail(where + "[\"" + key + "\"] is too large");
    }
    return static_cast<int64_t>(v);
  }

  static std::string str(const json& obj, const char* key) {
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_string()) return {};
    return it->get<std::string>();
  }

  /// torch records stack frames instead of tide's scope: the innermost frame of user python
  /// code ("train_step (train.py:42)") says best where the memory came from.
  static std::string frames_scope(const json& obj) {
    auto it = obj.find("frames");
    if (it == obj.end() || !it->is_array()) return {};
    for (const json& f : *it) {
      if (!f.is_object()) continue;
      std::string file = str(f, "filename");
      if (file.size() < 3 || file.compare(file.size() - 3, 3, ".py") != 0) continue;
      if (file.find("/torch/") != std::string::npos) continue;
      std::string base = file.substr(file.find_last_of('/') + 1);
      auto line = f.find("line");
      std::string line_text = line != f.end() && line->is_number() ? line->dump() : "?";
      return str(f, "name") + " (" + base + ":" + line_text + ")";
    }
    return {};
  }

  static std::string scope_of(const json& obj) {
    std::string scope = str(obj, "scope");
    return scope.empty() ? frames_scope(obj) : scope;
  }
};

}  // namespace

Snapshot parse_snapshot(const std::string& json_text, const std::string& source,
                        const std::string& who) {
  json root;
  try {
    root = json::parse(json_text);
  } catch (const json::parse_error& e) {
    throw Error("[" + who + "] '" + source + "' is not valid JSON (" + e.what() +
                "); pass a file written by tide::cuda::dump_snapshot or by "
                "json.dump(torch.cuda.memory._snapshot(), f)");
  }
  Reader r{source, who};
  if (!root.is_object()) r.fail("the top level is not an object");
  const json& segments = r.member(root, "segments", "the top level");
  if (!segments.is_array()) r.fail("\"segments\" is not a list");

  Snapshot snap;
  for (size_t i = 0; i < segments.size(); ++i) {
    const json& s = segments[i];
    std::string where = "segments[" + std::to_string(i) + "]";
    if (!s.is_object()) r.fail(where + " is not an object");
    SnapshotSegment seg;
    seg.device = static_cast<int>(r.i64(s, "device", where, false));
    seg.address = r.u64(s, "address", where, true);
    seg.total_size = r.i64(s, "total_size", where, true);
    seg.allocated_size = r.i64(s, "allocated_size", where, false);
    seg.active_size = r.i64(s, "active_size", where, false);
    seg.stream = r.u64(s, "stream", where, false);
    seg.segment_type = Reader::str(s, "segment_type");
    const json& blocks = r.member(s, "blocks", where);
    if (!blocks.is_array()) r.fail(where + "[\"blocks\"] is not a list");
    // torch before 2.1 gave blocks no address: they tile the segment in order.
    uint64_t next = seg.address;
    for (size_t j = 0; j < blocks.size(); ++j) {
      const json& b = blocks[j];
      std::string bwhere = where + "[\"blocks\"][" + std::to_string(j) + "]";
      if (!b.is_object()) r.fail(bwhere + " is not an object");
      SnapshotBlock block;
      block.address = r.u64(b, "address", bwhere, false, next);
      block.size = r.i64(b, "size", bwhere, true);
      block.requested_size = r.i64(b, "requested_size", bwhere, false, block.size);
      block.state = Reader::str(b, "state");
      if (block.state.empty()) r.fail(bwhere + " has no \"state\"");
      block.op = Reader::str(b, "op");
      block.scope = Reader::scope_of(b);
      next = block.address + static_cast<uint64_t>(block.size);
      seg.blocks.push_back(std::move(block));
    }
    snap.segments.push_back(std::move(seg));
  }

  auto traces = root.find("device_traces");
  if (traces != root.end() && !traces->is_null()) {
    if (!traces->is_array()) r.fail("\"device_traces\" is not a list of lists");
    for (size_t d = 0; d < traces->size(); ++d) {
      const json& list = (*traces)[d];
      std::string where = "device_traces[" + std::to_string(d) + "]";
      if (!list.is_array()) r.fail(where + " is not a list");
      std::vector<SnapshotTraceEntry> entries;
      entries.reserve(list.size());
      for (size_t k = 0; k < list.size(); ++k) {
        const json& e = list[k];
        std::string ewhere = where + "[" + std::to_string(k) + "]";
        if (!e.is_object()) r.fail(ewhere + " is not an object");
        SnapshotTraceEntry entry;
        entry.action = Reader::str(e, "action");
        if (entry.action.empty()) r.fail(ewhere + " has no \"action\"");
        bool needs_addr = entry.action == "alloc" || entry.action == "free_requested";
        entry.addr = r.u64(e, "addr", ewhere, needs_addr);
        entry.size = r.i64(e, "size", ewhere, needs_addr);
        entry.stream = r.u64(e, "stream", ewhere, false);
        entry.op = Reader::str(e, "op");
        entry.scope = Reader::scope_of(e);
        entries.push_back(std::move(entry));
      }
      snap.device_traces.push_back(std::move(entries));
    }
  }
  return snap;
}

Snapshot read_snapshot_file(const std::string& path, const std::string& who) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error("[" + who + "] cannot open '" + path + "': " + std::strerror(errno) +
                "; pass the path of a snapshot written by tide::cuda::dump_snapshot or by "
                "json.dump(torch.cuda.memory._snapshot(), f)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::string content = text.str();
  // torch.cuda.memory._dump_snapshot writes a pickle (protocol 2+ starts with 0x80).
  if (!content.empty() && static_cast<unsigned char>(content[0]) == 0x80) {
    throw Error("[" + who + "] '" + path +
                "' is a Python pickle (torch.cuda.memory._dump_snapshot writes one), not JSON; "
                "convert it with: python -c \"import pickle, json, sys; "
                "json.dump(pickle.load(open(sys.argv[1], 'rb')), open(sys.argv[2], 'w'))\" " +
                path + " snapshot.json");
  }
  return parse_snapshot(content, path, who);
}

// ---------------------------------------------------------------------------------------
// Matching allocations and frees by address.

DeviceEvents allocation_events(const Snapshot& snapshot, int device) {
  DeviceEvents out;
  static const std::vector<SnapshotTraceEntry> kNoTrace;
  const std::vector<SnapshotTraceEntry>& trace =
      device >= 0 && static_cast<size_t>(device) < snapshot.device_traces.size()
          ? snapshot.device_traces[static_cast<size_t>(device)]
          : kNoTrace;

  // The first alloc/free event of each address decides whether it was alive at the start.
  std::unordered_map<uint64_t, const SnapshotTraceEntry*> first_event;
  for (const SnapshotTraceEntry& e : trace) {
    if (e.action == "alloc" || e.action == "free_requested") first_event.try_emplace(e.addr, &e);
  }
  std::vector<AllocationEvent> initial;
  for (const SnapshotTraceEntry& e : trace) {
    if (e.action != "free_requested") continue;
    if (first_event.at(e.addr) != &e) continue;
    initial.push_back({AllocationEvent::Kind::Alloc, e.addr, e.size, e.stream, true, &e, nullptr});
  }
  for (const SnapshotSegment& seg : snapshot.segments) {
    if (seg.device != device) continue;
    for (const SnapshotBlock& b : seg.blocks) {
      if (b.state == "inactive" || first_event.count(b.address) != 0) continue;
      initial.push_back(
          {AllocationEvent::Kind::Alloc, b.address, b.requested_size, seg.stream, true, nullptr, &b});
    }
  }
  out.initial_allocations = static_cast<int64_t>(initial.size());
  out.events = std::move(initial);

  // A free of an address that is not alive (a double free, or a trace from another run)
  // cannot be replayed: count it and go on.
  std::unordered_map<uint64_t, bool> live;
  for (const AllocationEvent& e : out.events) live[e.addr] = true;
  for (const SnapshotTraceEntry& e : trace) {
    if (e.action == "alloc") {
      live[e.addr] = true;
      out.events.push_back({AllocationEvent::Kind::Alloc, e.addr, e.size, e.stream, false, &e, nullptr});
    } else if (e.action == "free_requested") {
      auto it = live.find(e.addr);
      if (it == live.end() || !it->second) {
        ++out.unmatched_frees;
        continue;
      }
      it->second = false;
      out.events.push_back({AllocationEvent::Kind::Free, e.addr, e.size, e.stream, false, &e, nullptr});
    }
  }
  return out;
}

}  // namespace tide::memory
