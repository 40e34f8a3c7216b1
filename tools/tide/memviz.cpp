#include "memviz.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "tide/error.h"

namespace tide::cli {
namespace {

using memory::AllocationEvent;
using memory::Snapshot;
using memory::SnapshotBlock;
using memory::SnapshotSegment;

// Note [memviz layout]: the page is drawn here, in C++, as static SVG, so it renders without
// scripts and the tests can check it; the inline script only adds hover details. The
// timeline follows torch's "Active Memory Timeline": x is the index of the alloc/free event,
// y the bytes alive, each allocation a band that keeps its place in the stack and drops
// when one below it is freed. Points closer than half a pixel in x are merged, so a band
// costs points for the pixels it spans, not for the events: short-lived allocations are
// cheap and a 100k-event trace stays a page a browser opens. Beyond kMaxBands allocations
// the smallest are summed in one grey band on top.
constexpr size_t kMaxBands = 20000;
constexpr size_t kOutlinedBands = 1000;  // more bands than this: no white outlines
constexpr size_t kMaxSegmentRows = 300;
constexpr size_t kTableRows = 25;
constexpr double kWidth = 1240, kLeft = 90, kRight = 20, kTop = 16, kPlotH = 380, kBottom = 52;

constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#17becf",
                                    "#bcbd22", "#8c6bb1"};
constexpr const char* kOtherColor = "#b8b8b8";
constexpr const char* kStateColors[][2] = {{"active_allocated", "#4e79a7"},
                                           {"active_pending_free", "#f28e2b"},
                                           {"inactive", "#e3e3e3"}};

std::string html_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

/// "1.50 MiB", "512 B": sizes as people read them.
std::string human_bytes(int64_t bytes) {
  double b = static_cast<double>(bytes);
  if (bytes < 1024) return std::to_string(bytes) + " B";
  if (bytes < (int64_t{1} << 20)) return fmt("%.1f KiB", b / 1024);
  if (bytes < (int64_t{1} << 30)) return fmt("%.2f MiB", b / (1 << 20));
  return fmt("%.2f GiB", b / (1 << 30));
}

std::string label_of(const std::string& op, const std::string& scope) {
  if (op.empty() && scope.empty()) return "(unknown)";
  if (scope.empty()) return op;
  if (op.empty()) return scope;
  return op + " @ " + scope;
}

/// A step between tick marks that gives at most about 8 ticks: 1, 2 or 5 times a power of 10.
double nice_step(double max_value) {
  if (max_value <= 0) return 1;
  double raw = max_value / 8;
  double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= raw) return m * p;
  }
  return 10 * p;
}

std::string tick_label(double value, double step) {
  if (step >= 1) return fmt("%.0f", value);
  int decimals = static_cast<int>(std::ceil(-std::log10(step)));
  char format[16];
  std::snprintf(format, sizeof format, "%%.%df", std::min(decimals, 6));
  return fmt(format, value);
}

struct Interval {
  uint64_t addr = 0;
  int64_t size = 0;
  uint64_t stream = 0;
  int64_t start = 0, end = -1;  // event indices; end = -1 while alive
  std::string op, scope;
  bool initial = false;
  int band = -1;  // index among the drawn bands, or -1 (summed into "smaller allocations")
};

/// An edge of a band in pixels, with points closer than half a pixel in x merged.
struct Edge {
  std::vector<std::pair<double, double>> points;
  void step_to(double x, double y) {
    if (!points.empty() && points.back().second == y) return;
    if (points.size() >= 2 && std::fabs(points[points.size() - 2].first - x) < 0.5 &&
        std::fabs(points.back().first - x) < 0.5) {
      points.back().second = y;
      return;
    }
    double old_y = points.empty() ? y : points.back().second;
    if (!points.empty()) points.emplace_back(x, old_y);
    points.emplace_back(x, y);
  }
  void finish(double x) {
    if (!points.empty()) points.emplace_back(x, points.back().second);
  }
};

std::string polygon_points(const Edge& bottom, double height) {
  std::string s;
  s.reserve(bottom.points.size() * 24);
  for (const auto& [x, y] : bottom.points) s += fmt("%.1f", x) + "," + fmt("%.1f", y) + " ";
  for (auto it = bottom.points.rbegin(); it != bottom.points.rend(); ++it) {
    s += fmt("%.1f", it->first) + "," + fmt("%.1f", it->second - height) + " ";
  }
  return s;
}

std::string two_edge_points(const Edge& bottom, const Edge& top) {
  std::string s;
  for (const auto& [x, y] : bottom.points) s += fmt("%.1f", x) + "," + fmt("%.1f", y) + " ";
  for (auto it = top.points.rbegin(); it != top.points.rend(); ++it) {
    s += fmt("%.1f", it->first) + "," + fmt("%.1f", it->second) + " ";
  }
  return s;
}

class DevicePage {
 public:
  DevicePage(const Snapshot& snapshot, int device) : snapshot_(snapshot), device_(device) {
    memory::DeviceEvents events = memory::allocation_events(snapshot, device);
    initial_ = events.initial_allocations;
    unmatched_ = events.unmatched_frees;
    build_intervals(events);
    assign_colors();
  }

  /// The timeline SVG, legend and allocation table; or a note when there is no history.
  void timeline(std::ostream& os, nlohmann::json& data) const;
  void segment_map(std::ostream& os) const;
  void summary(std::ostream& os) const;

 private:
  void build_intervals(const memory::DeviceEvents& events) {
    std::unordered_map<uint64_t, size_t> alive;
    int64_t t = 0;
    for (const AllocationEvent& e : events.events) {
      if (!e.initial) ++t;
      if (e.kind == AllocationEvent::Kind::Alloc) {
        Interval iv;
        iv.addr = e.addr;
        iv.size = e.size;
        iv.stream = e.stream;
        iv.start = e.initial ? 0 : t;
        iv.initial = e.initial;
        if (e.entry != nullptr) {
          iv.op = e.entry->op;
          iv.scope = e.entry->scope;
        } else if (e.block != nullptr) {
          iv.op = e.block->op;
          iv.scope = e.block->scope;
        }
        alive[e.addr] = intervals_.size();
        intervals_.push_back(std::move(iv));
      } else {
        auto it = alive.find(e.addr);
        if (it == alive.end()) continue;
        intervals_[it->second].end = t;
        alive.erase(it);
      }
    }
    events_ = t + 1;
    // Draw the largest allocations as bands of their own (Note [memviz layout]).
    std::vector<size_t> order(intervals_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return intervals_[a].size > intervals_[b].size; });
    for (size_t i = 0; i < order.size() && i < kMaxBands; ++i) {
      intervals_[order[i]].band = static_cast<int>(i);
    }
    by_size_ = std::move(order);
  }

  void assign_colors() {
    // The ops holding the most bytes (summed over their allocations) get their own color.
    std::map<std::string, int64_t> bytes;
    for (const Interval& iv : intervals_) bytes[op_key(iv)] += iv.size;
    std::vector<std::pair<std::string, int64_t>> ranked(bytes.begin(), bytes.end());
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (size_t i = 0; i < ranked.size() && i < std::size(kPalette); ++i) {
      colors_[ranked[i].first] = kPalette[i];
      legend_.push_back(ranked[i].first);
    }
    other_ops_ = ranked.size() > std::size(kPalette);
  }

  /// Bands are colored by op; torch's snapshots have none, so by the user frame instead.
  static std::string op_key(const Interval& iv) {
    if (!iv.op.empty()) return iv.op;
    return iv.scope.empty() ? "(unknown)" : iv.scope;
  }
  const char* color(const std::string& key) const {
    auto it = colors_.find(key);
    return it == colors_.end() ? kOtherColor : it->second;
  }

  const Snapshot& snapshot_;
  int device_;
  int64_t initial_ = 0, unmatched_ = 0, events_ = 1;
  std::vector<Interval> intervals_;
  std::vector<size_t> by_size_;
  std::map<std::string, const char*> colors_;
  std::vector<std::string> legend_;
  bool other_ops_ = false;
};

void DevicePage::summary(std::ostream& os) const {
  int64_t reserved = 0, allocated = 0, segments = 0;
  for (const SnapshotSegment& seg : snapshot_.segments) {
    if (seg.device != device_) continue;
    ++segments;
    reserved += seg.total_size;
    allocated += seg.allocated_size;
  }
  size_t entries = static_cast<size_t>(device_) < snapshot_.device_traces.size()
                       ? snapshot_.device_traces[static_cast<size_t>(device_)].size()
                       : 0;
  os << "<p class=\"summary\">At the snapshot: <b>" << human_bytes(allocated)
     << "</b> allocated in <b>" << human_bytes(reserved) << "</b> reserved (" << segments
     << " segment" << (segments == 1 ? "" : "s") << "). History: " << entries
     << " trace entries, " << intervals_.size() << " allocations";
  if (initial_ > 0) os << " (" << initial_ << " alive before the history began)";
  if (unmatched_ > 0) os << ", " << unmatched_ << " frees of unknown addresses skipped";
  os << ".</p>\n";
}

void DevicePage::timeline(std::ostream& os, nlohmann::json& data) const {
  os << "<h3>Active memory timeline</h3>\n";
  bool history = static_cast<size_t>(device_) < snapshot_.device_traces.size() &&
                 !snapshot_.device_traces[static_cast<size_t>(device_)].empty();
  if (!history) {
    os << "<p class=\"note\">No allocation history for this device: the snapshot's "
          "device_traces are empty. Record it before the workload runs with "
          "<code>tide::cuda::record_memory_history(true)</code> (PyTorch: "
          "<code>torch.cuda.memory._record_memory_history()</code>). The segment map below "
          "shows memory at the moment of the snapshot.</p>\n";
    return;
  }

  // Pass 1: the stacked total over time gives the y scale.
  int64_t total = 0, peak = 0;
  {
    std::vector<std::pair<int64_t, int64_t>> deltas;
    for (const Interval& iv : intervals_) {
      deltas.emplace_back(iv.start, iv.size);
      if (iv.end >= 0) deltas.emplace_back(iv.end, -iv.size);
    }
    std::stable_sort(deltas.begin(), deltas.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < deltas.size();) {
      int64_t t = deltas[i].first;
      for (; i < deltas.size() && deltas[i].first == t; ++i) total += deltas[i].second;
      peak = std::max(peak, total);
    }
  }
  const double mib = 1024.0 * 1024.0;
  double peak_mib = std::max(static_cast<double>(peak) / mib, 1e-6);
  double step = nice_step(peak_mib);
  double y_max = std::ceil(peak_mib / step - 1e-9) * step;
  double plot_w = kWidth - kLeft - kRight;
  auto x_of = [&](int64_t t) { return kLeft + plot_w * static_cast<double>(t) / static_cast<double>(events_); };
  auto y_of = [&](double bytes) { return kTop + kPlotH - kPlotH * (bytes / mib) / y_max; };
  double px_per_byte = kPlotH / (y_max * mib);

  // Pass 2: walk the events in order, keeping the drawn bands in allocation order.
  struct Event {
    int64_t t;
    bool alloc;
    size_t interval;
  };
  std::vector<Event> order;
  for (size_t i = 0; i < intervals_.size(); ++i) {
    order.push_back({intervals_[i].start, true, i});
    if (intervals_[i].end >= 0) order.push_back({intervals_[i].end, false, i});
  }
  std::stable_sort(order.begin(), order.end(), [](const Event& a, const Event& b) {
    return a.t != b.t ? a.t < b.t : (!a.alloc && b.alloc);  // frees first at a tie
  });
  std::vector<Edge> edges(std::min(intervals_.size(), kMaxBands));
  std::vector<int64_t> offset(intervals_.size(), 0);
  std::vector<size_t> stack;  // drawn intervals alive, bottom first
  int64_t banded = 0, rest = 0;
  Edge rest_bottom, rest_top;
  // The total's maximum per pixel column: an outline that shows the peaks even where bands
  // are narrower than a pixel.
  const size_t columns = static_cast<size_t>(std::ceil(plot_w));
  std::vector<int64_t> column_max(columns, -1), column_end(columns, 0);
  for (const Event& e : order) {
    const Interval& iv = intervals_[e.interval];
    double x = x_of(e.t);
    if (iv.band >= 0) {
      if (e.alloc) {
        offset[e.interval] = banded;
        banded += iv.size;
        stack.push_back(e.interval);
        edges[static_cast<size_t>(iv.band)].step_to(x, y_of(static_cast<double>(offset[e.interval])));
      } else {
        auto pos = std::find(stack.begin(), stack.end(), e.interval);
        for (auto above = pos + 1; above != stack.end(); ++above) {
          offset[*above] -= iv.size;
          edges[static_cast<size_t>(intervals_[*above].band)].step_to(
              x, y_of(static_cast<double>(offset[*above])));
        }
        edges[static_cast<size_t>(iv.band)].finish(x);
        stack.erase(pos);
        banded -= iv.size;
      }
    } else {
      rest += e.alloc ? iv.size : -iv.size;
    }
    if (rest > 0 || !rest_bottom.points.empty()) {
      rest_bottom.step_to(x, y_of(static_cast<double>(banded)));
      rest_top.step_to(x, y_of(static_cast<double>(banded + rest)));
    }
    size_t column = std::min(columns - 1, static_cast<size_t>(std::max(0.0, x - kLeft)));
    column_max[column] = std::max(column_max[column], banded + rest);
    column_end[column] = banded + rest;
  }
  std::string outline = fmt("%.1f", kLeft) + "," + fmt("%.1f", y_of(0)) + " ";
  for (size_t c = 0, carry = 0; c < columns; ++c) {
    int64_t v = static_cast<int64_t>(carry);
    if (column_max[c] >= 0) {
      v = std::max(v, column_max[c]);
      carry = static_cast<size_t>(column_end[c]);
    }
    double y = y_of(static_cast<double>(v));
    outline += fmt("%.1f", kLeft + static_cast<double>(c)) + "," + fmt("%.1f", y) + " " +
               fmt("%.1f", kLeft + static_cast<double>(c + 1)) + "," + fmt("%.1f", y) + " ";
  }
  double x_end = x_of(events_);
  for (size_t i : stack) edges[static_cast<size_t>(intervals_[i].band)].finish(x_end);
  rest_bottom.finish(x_end);
  rest_top.finish(x_end);

  // Legend.
  os << "<div class=\"legend\">";
  for (const std::string& key : legend_) {
    os << "<span><i style=\"background:" << color(key) << "\"></i>" << html_escape(key) << "</span>";
  }
  if (other_ops_) os << "<span><i style=\"background:" << kOtherColor << "\"></i>other ops</span>";
  os << "<span><i class=\"outline\"></i>total allocated (the outline)</span>";
  size_t small = intervals_.size() > kMaxBands ? intervals_.size() - kMaxBands : 0;
  if (small > 0) {
    os << "<span><i class=\"hatch\"></i>" << small << " smaller allocations, summed</span>";
  }
  os << "</div>\n";

  // The plot.
  double height = kTop + kPlotH + kBottom;
  os << "<svg class=\"timeline" << (intervals_.size() > kOutlinedBands ? " dense" : "") << "\" width=\"" << kWidth << "\" height=\"" << height
     << "\" viewBox=\"0 0 " << kWidth << " " << height << "\">\n";
  os << "<g class=\"grid\">";
  for (double v = 0; v <= y_max + step / 2; v += step) {
    double y = y_of(v * mib);
    os << "<line x1=\"" << kLeft << "\" x2=\"" << kWidth - kRight << "\" y1=\"" << fmt("%.1f", y)
       << "\" y2=\"" << fmt("%.1f", y) << "\"/>";
    os << "<text class=\"ytick\" x=\"" << kLeft - 6 << "\" y=\"" << fmt("%.1f", y + 4) << "\">"
       << tick_label(v, step) << "</text>";
  }
  double xstep = nice_step(static_cast<double>(events_));
  xstep = std::max(1.0, std::round(xstep));
  for (double t = 0; t <= static_cast<double>(events_) + 0.5; t += xstep) {
    double x = x_of(static_cast<int64_t>(t));
    os << "<line class=\"xgrid\" x1=\"" << fmt("%.1f", x) << "\" x2=\"" << fmt("%.1f", x)
       << "\" y1=\"" << kTop + kPlotH << "\" y2=\"" << kTop + kPlotH + 5 << "\"/>";
    os << "<text class=\"xtick\" x=\"" << fmt("%.1f", x) << "\" y=\"" << kTop + kPlotH + 18
       << "\">" << fmt("%.0f", t) << "</text>";
  }
  os << "</g>\n<polygon class=\"total\" points=\"" << outline << fmt("%.1f", kLeft + static_cast<double>(columns))
     << "," << fmt("%.1f", y_of(0)) << "\"><title>memory allocated (all allocations)</title></polygon>\n";
  os << "<g class=\"bands\">\n";
  nlohmann::json allocations = nlohmann::json::array();
  for (size_t i = 0; i < intervals_.size(); ++i) {
    const Interval& iv = intervals_[i];
    allocations.push_back({{"addr", hex(iv.addr)},
                           {"size", iv.size},
                           {"op", iv.op},
                           {"scope", iv.scope},
                           {"stream", iv.stream},
                           {"start", iv.start},
                           {"end", iv.end},
                           {"initial", iv.initial}});
    if (iv.band < 0) continue;
    const Edge& edge = edges[static_cast<size_t>(iv.band)];
    if (edge.points.empty()) continue;
    os << "<polygon data-i=\"" << i << "\" fill=\"" << color(op_key(iv)) << "\" points=\""
       << polygon_points(edge, static_cast<double>(iv.size) * px_per_byte) << "\"><title>"
       << html_escape(label_of(iv.op, iv.scope)) << " — " << human_bytes(iv.size) << " at "
       << hex(iv.addr) << "</title></polygon>\n";
  }
  if (!rest_bottom.points.empty()) {
    os << "<polygon class=\"rest\" fill=\"url(#hatch)\" points=\""
       << two_edge_points(rest_bottom, rest_top) << "\"><title>" << small
       << " smaller allocations, summed</title></polygon>\n";
  }
  os << "</g>\n";
  os << "<polygon class=\"total-line\" points=\"" << outline << fmt("%.1f", kLeft + static_cast<double>(columns))
     << "," << fmt("%.1f", y_of(0)) << "\"/>\n";
  os << "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#d0d0d0\"/>"
        "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#999\" stroke-width=\"2\"/>"
        "</pattern></defs>\n";
  os << "<line class=\"axis\" x1=\"" << kLeft << "\" x2=\"" << kLeft << "\" y1=\"" << kTop
     << "\" y2=\"" << kTop + kPlotH << "\"/>";
  os << "<line class=\"axis\" x1=\"" << kLeft << "\" x2=\"" << kWidth - kRight << "\" y1=\""
     << kTop + kPlotH << "\" y2=\"" << kTop + kPlotH << "\"/>\n";
  os << "<text class=\"axis-label\" transform=\"translate(22," << kTop + kPlotH / 2
     << ") rotate(-90)\">memory allocated (MiB)</text>\n";
  os << "<text class=\"axis-label\" x=\"" << kLeft + plot_w / 2 << "\" y=\"" << height - 8
     << "\">allocation and free events, in order (trace entry index)</text>\n";
  os << "</svg>\n";
  os << "<div class=\"details\" id=\"details-" << device_
     << "\">Hover over an allocation to see its op, scope, size and lifetime.</div>\n";

  // The largest allocations, as a list for readers without a mouse.
  os << "<table class=\"allocs\"><caption>Largest allocations</caption>\n"
        "<tr><th>#</th><th>size</th><th>op</th><th>scope</th><th>address</th><th>stream</th>"
        "<th>allocated at</th><th>freed at</th></tr>\n";
  for (size_t r = 0; r < by_size_.size() && r < kTableRows; ++r) {
    const Interval& iv = intervals_[by_size_[r]];
    os << "<tr data-i=\"" << by_size_[r] << "\"><td>" << r + 1 << "</td><td class=\"num\">"
       << human_bytes(iv.size) << "</td><td><i style=\"background:" << color(op_key(iv))
       << "\"></i>" << html_escape(iv.op.empty() ? "(unknown)" : iv.op) << "</td><td>"
       << html_escape(iv.scope) << "</td><td>" << hex(iv.addr) << "</td><td>" << iv.stream
       << "</td><td class=\"num\">" << (iv.initial ? std::string("before history") : std::to_string(iv.start))
       << "</td><td class=\"num\">" << (iv.end < 0 ? std::string("alive") : std::to_string(iv.end))
       << "</td></tr>\n";
  }
  os << "</table>\n";
  data[std::to_string(device_)] = {{"allocations", std::move(allocations)}};
}

void DevicePage::segment_map(std::ostream& os) const {
  std::vector<const SnapshotSegment*> segments;
  for (const SnapshotSegment& seg : snapshot_.segments) {
    if (seg.device == device_) segments.push_back(&seg);
  }
  std::sort(segments.begin(), segments.end(),
            [](const auto* a, const auto* b) { return a->address < b->address; });
  os << "<h3>Segment map</h3>\n";
  os << "<div class=\"legend\">";
  for (const auto& [state, c] : kStateColors) {
    os << "<span><i style=\"background:" << c << "\"></i>" << state << "</span>";
  }
  os << "</div>\n";
  if (segments.empty()) {
    os << "<p class=\"note\">No segments: the allocator held no memory on this device.</p>\n";
    return;
  }
  int64_t largest = 0;
  for (const auto* seg : segments) largest = std::max(largest, seg->total_size);
  const double label_w = 330, bar_w = kWidth - label_w - kRight, row_h = 18;
  size_t rows = std::min(segments.size(), kMaxSegmentRows);
  double height = 24 + row_h * static_cast<double>(rows);
  os << "<svg class=\"segments\" width=\"" << kWidth << "\" height=\"" << height << "\" viewBox=\"0 0 "
     << kWidth << " " << height << "\">\n";
  os << "<text class=\"seg-head\" x=\"0\" y=\"14\">segment (address, size, pool, stream)</text>"
     << "<text class=\"seg-head\" x=\"" << label_w << "\" y=\"14\">blocks, drawn to scale: the "
     << "widest bar is " << human_bytes(largest) << "</text>\n";
  for (size_t r = 0; r < rows; ++r) {
    const SnapshotSegment& seg = *segments[r];
    double y = 24 + row_h * static_cast<double>(r);
    double w = std::max(6.0, bar_w * static_cast<double>(seg.total_size) / static_cast<double>(largest));
    os << "<text class=\"seg-label\" x=\"0\" y=\"" << y + 12 << "\">" << hex(seg.address) << "  "
       << human_bytes(seg.total_size) << "  " << html_escape(seg.segment_type) << "  stream "
       << seg.stream << "</text>\n";
    os << "<g transform=\"translate(" << label_w << "," << y << ")\">";
    for (const SnapshotBlock& b : seg.blocks) {
      double bx = w * static_cast<double>(b.address - seg.address) / static_cast<double>(seg.total_size);
      double bw = std::max(1.0, w * static_cast<double>(b.size) / static_cast<double>(seg.total_size));
      const char* c = kOtherColor;
      for (const auto& [state, sc] : kStateColors) {
        if (b.state == state) c = sc;
      }
      os << "<rect x=\"" << fmt("%.1f", bx) << "\" y=\"1\" width=\"" << fmt("%.1f", bw)
         << "\" height=\"" << row_h - 4 << "\" fill=\"" << c << "\"><title>"
         << html_escape(b.state) << " " << human_bytes(b.size) << " (requested "
         << human_bytes(b.requested_size) << ") at " << hex(b.address);
      if (b.state != "inactive") os << ": " << html_escape(label_of(b.op, b.scope));
      os << "</title></rect>";
    }
    os << "<rect class=\"seg-outline\" x=\"0\" y=\"1\" width=\"" << fmt("%.1f", w) << "\" height=\""
       << row_h - 4 << "\"/></g>\n";
  }
  os << "</svg>\n";
  if (segments.size() > rows) {
    os << "<p class=\"note\">" << segments.size() - rows << " more segments are not drawn.</p>\n";
  }
}

constexpr const char* kStyle = R"(
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 4px; border-bottom: 1px solid #ddd; }
h3 { font-size: 15px; margin: 18px 0 6px; } .sub, .note { color: #555; } .note { font-style: italic; }
.summary { margin: 4px 0; } code { background: #f3f3f3; padding: 0 3px; }
.legend span { display: inline-block; margin: 0 14px 4px 0; font-size: 13px; }
.legend i, .allocs i { display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -1px; border: 1px solid #0003; }
.legend i.outline { background: #d5dde6; border: 1.5px solid #2b2b2b; }
.legend i.hatch { background: repeating-linear-gradient(45deg, #d0d0d0 0 3px, #999 3px 5px); }
svg text { font-size: 12px; fill: #333; } .ytick { text-anchor: end; } .xtick { text-anchor: middle; }
.axis-label { text-anchor: middle; font-size: 13px; fill: #111; } .grid line { stroke: #e6e6e6; } .grid .xgrid { stroke: #888; }
.axis { stroke: #444; } .bands polygon { stroke: #fff; stroke-width: 0.4; } .dense .bands polygon { stroke: none; } .total { fill: #d5dde6; } .total-line { fill: none; stroke: #2b2b2b; stroke-width: 0.8; pointer-events: none; }
.bands polygon:hover, .bands polygon.hl { stroke: #000; stroke-width: 1.5; }
.seg-label { font-family: ui-monospace, monospace; font-size: 11px; } .seg-head { font-weight: 600; }
.seg-outline { fill: none; stroke: #555; stroke-width: 0.8; } .segments rect { stroke: #fff; stroke-width: 0.3; }
.details { min-height: 20px; padding: 6px 10px; background: #f7f7f7; border: 1px solid #ddd; margin: 4px 0 12px; font-size: 13px; }
table.allocs { border-collapse: collapse; font-size: 13px; margin-top: 6px; }
table.allocs caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
table.allocs td, table.allocs th { border-bottom: 1px solid #eee; padding: 2px 10px 2px 0; text-align: left; }
table.allocs td.num { text-align: right; font-variant-numeric: tabular-nums; } table.allocs tr.hl { background: #fff3c4; }
)";

// Shows the hovered allocation's details; works on the data embedded in #memviz-data.
constexpr const char* kScript = R"(
(function () {
  var data = JSON.parse(document.getElementById('memviz-data').textContent);
  function size(b) {
    if (b < 1024) return b + ' B';
    if (b < 1048576) return (b / 1024).toFixed(1) + ' KiB';
    if (b < 1073741824) return (b / 1048576).toFixed(2) + ' MiB';
    return (b / 1073741824).toFixed(2) + ' GiB';
  }
  document.querySelectorAll('section.device').forEach(function (sec) {
    var dev = data.devices[sec.dataset.device];
    var box = sec.querySelector('.details');
    if (!dev || !box) return;
    function show(i, on) {
      var a = dev.allocations[i];
      sec.querySelectorAll('[data-i="' + i + '"]').forEach(function (el) { el.classList.toggle('hl', on); });
      if (!on) return;
      box.textContent = 'op: ' + (a.op || '(unknown)') + '   scope: ' + (a.scope || '-') +
        '   size: ' + size(a.size) + '   address: ' + a.addr + '   stream: ' + a.stream +
        '   allocated at event ' + (a.initial ? '(before history)' : a.start) +
        ', freed ' + (a.end < 0 ? 'never (alive at the snapshot)' : 'at event ' + a.end);
    }
    sec.querySelectorAll('[data-i]').forEach(function (el) {
      el.addEventListener('mouseenter', function () { show(el.dataset.i, true); });
      el.addEventListener('mouseleave', function () { show(el.dataset.i, false); });
    });
  });
})();
)";

}  // namespace

std::string memviz_html(const Snapshot& snapshot, const std::string& title) {
  std::ostringstream body;
  nlohmann::json devices = nlohmann::json::object();
  std::vector<int> device_list = snapshot.devices();
  int64_t reserved = 0, allocated = 0;
  for (const SnapshotSegment& seg : snapshot.segments) {
    reserved += seg.total_size;
    allocated += seg.allocated_size;
  }
  body << "<h1>Memory snapshot: " << html_escape(title) << "</h1>\n";
  body << "<p class=\"sub\">" << device_list.size() << " device"
       << (device_list.size() == 1 ? "" : "s") << ", " << snapshot.segments.size()
       << " segments, " << human_bytes(allocated) << " allocated of " << human_bytes(reserved)
       << " reserved at the snapshot. Drawn by <code>tide memviz</code>.</p>\n";
  if (device_list.empty()) {
    body << "<p class=\"note\">The snapshot holds no memory: no segments and no history.</p>\n";
  }
  for (int device : device_list) {
    DevicePage page(snapshot, device);
    body << "<section class=\"device\" data-device=\"" << device << "\">\n<h2>cuda:" << device
         << "</h2>\n";
    page.summary(body);
    page.timeline(body, devices);
    page.segment_map(body);
    body << "</section>\n";
  }
  nlohmann::json data = {{"devices", std::move(devices)}};
  std::string data_text = data.dump();
  // No "<" inside the script element ("</script>" would end it early): JSON's own escape
  // of "<" is the same string.
  for (size_t pos = 0; (pos = data_text.find('<', pos)) != std::string::npos; pos += 6) {
    data_text.replace(pos, 1, "\\u003c");
  }

  std::ostringstream page;
  page << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
       << html_escape(title) << " — tide memviz</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n"
       << body.str() << "<script type=\"application/json\" id=\"memviz-data\">" << data_text
       << "</script>\n<script>" << kScript << "</script>\n</body>\n</html>\n";
  return page.str();
}

int run_memviz(const MemvizOptions& options, std::ostream& out) {
  memory::Snapshot snapshot = memory::read_snapshot_file(options.snapshot, "tide memviz");
  std::string html = memviz_html(snapshot, options.snapshot);
  std::ofstream file(options.output, std::ios::binary | std::ios::trunc);
  TIDE_CHECK(file.good(), "[tide memviz] cannot write '", options.output, "': ",
             std::strerror(errno), "; pass -o with a path in a directory that exists and is writable");
  file << html;
  file.close();
  TIDE_CHECK(!file.fail(), "[tide memviz] writing '", options.output, "' failed: ",
             std::strerror(errno), "; check the free space of its file system");
  out << "wrote " << options.output << " (" << snapshot.devices().size() << " device"
      << (snapshot.devices().size() == 1 ? "" : "s") << ", " << snapshot.segments.size()
      << " segments";
  if (!snapshot.has_history()) out << "; no allocation history in the snapshot";
  out << ")\n";
  return 0;
}

}  // namespace tide::cli
