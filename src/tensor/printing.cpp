// Tensor::str: torch's repr (torch/_tensor_str.py, torch 1.13) to the character, with the
// module spelled "tide.". scripts/gen_print_goldens.py records torch's own output for the tests.
//
// Note [Printing algorithm]
// torch prints in three steps, and so do we:
//  1. Pick the elements that will be shown. Above 1000 elements the tensor is summarized:
//     every dimension longer than 6 shows its first and last 3 entries around "...". The
//     formatter (step 2) sees only the shown elements, so a huge value hidden in the middle
//     changes nothing.
//  2. One formatter for the whole tensor. Integers and bools print as Python does and are
//     right-aligned to the widest. Floats (half and bfloat16 first widened to float, as torch
//     does) look at their nonzero finite values: if all are integral they print as "3." (int
//     mode), else with 4 decimals; either switches to "1.0000e+05" (sci mode) when
//     max/min > 1000 or max > 1e8, and fractional values also when min < 1e-4. The width is
//     the widest of those nonzero finite values only, so nan, inf and 0 do not widen a column.
//     (The numbers here are torch's defaults: set_printoptions changes the precision, the
//     threshold, the edge items, the line width and the notation, as torch's PRINT_OPTS.)
//  3. Lay out: nested brackets indented one column per level, rows wrapped so that
//     (80 - indent) / (width + 2) elements fit on a line, blank lines between blocks of
//     3-d and higher tensors, then the suffixes (device, size of an empty tensor, dtype) on
//     the last line or, if they do not fit, on a new line under "tensor(".
// Numbers are rendered with std::to_chars, which rounds the exact binary value half-to-even
// exactly as Python's format() does (and does not depend on the C locale).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "autograd/node.h"
#include "tensor/print_format.h"
#include "tensor/tensor_internal.h"
#include "tide/print_options.h"
#include "tide/tensor.h"

namespace tide {
namespace {


// Note [tide's name in the repr]: "tide." is one character shorter than "torch.", and torch
// decides whether a suffix fits on the last line by its length. Our contract is torch's text
// with the module renamed, so a dtype suffix is measured as torch spells it.
constexpr int64_t kTorchModuleExtraChars = 1;  // len("torch.") - len("tide.")

// ---- numbers as Python's format() writes them

// Python writes every nan as "nan" (no sign); to_chars would write "-nan".
bool append_nonfinite(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "nan";
    return true;
  }
  if (std::isinf(v)) {
    out += v > 0 ? "inf" : "-inf";
    return true;
  }
  return false;
}

/// "{:.{precision}f}" / "{:.{precision}e}" of v.
std::string format_float(double v, std::chars_format format, int precision) {
  std::string out;
  if (append_nonfinite(out, v)) return out;
  char buf[512];  // fixed notation of 1.8e308 with 100 decimals (the most) needs 411 characters
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v, format, precision);
  TIDE_INTERNAL_ASSERT(ec == std::errc());
  out.assign(buf, end);
  return out;
}

std::string format_fixed(double v, int precision) {
  return format_float(v, std::chars_format::fixed, precision);
}
std::string format_scientific(double v, int precision) {
  return format_float(v, std::chars_format::scientific, precision);
}

// ---- step 1: the shown elements

bool is_summarized(int64_t size, bool summarize, int64_t edgeitems) {
  return summarize && size > 2 * edgeitems;
}

// Appends the element offsets (from the tensor's first element) that torch shows, in order:
// get_summarized_data flattened.
void collect_shown_offsets(const DimVector& sizes, const DimVector& strides, int64_t dim,
                           int64_t offset, bool summarize, int64_t edgeitems,
                           std::vector<int64_t>& out) {
  if (dim == static_cast<int64_t>(sizes.size())) {
    out.push_back(offset);
    return;
  }
  int64_t n = sizes[dim];
  auto visit = [&](int64_t i) {
    collect_shown_offsets(sizes, strides, dim + 1, offset + i * strides[dim], summarize,
                          edgeitems, out);
  };
  if (is_summarized(n, summarize, edgeitems)) {
    for (int64_t i = 0; i < edgeitems; ++i) visit(i);
    for (int64_t i = n - edgeitems; i < n; ++i) visit(i);
  } else {
    for (int64_t i = 0; i < n; ++i) visit(i);
  }
}

// ---- step 2: the formatter (torch's _Formatter)

class FloatFormatter {
 public:
  FloatFormatter(const std::vector<double>& values, int precision, std::optional<bool> sci_mode)
      : precision_(precision) {
    double min_abs = 0, max_abs = 0;
    bool any = false;
    for (double v : values) {
      if (!std::isfinite(v) || v == 0) continue;
      double a = std::fabs(v);
      min_abs = any ? std::min(min_abs, a) : a;
      max_abs = any ? std::max(max_abs, a) : a;
      any = true;
      if (v != std::ceil(v)) int_mode_ = false;
    }
    if (any) {
      double ratio = max_abs / min_abs;
      sci_mode_ = ratio > 1000.0 || max_abs > 1.0e8 || (!int_mode_ && min_abs < 1.0e-4);
      for (double v : values) {
        if (!std::isfinite(v) || v == 0) continue;
        size_t w = sci_mode_   ? format_scientific(v, precision_).size()
                   : int_mode_ ? format_fixed(v, 0).size() + 1
                               : format_fixed(v, precision_).size();
        max_width_ = std::max(max_width_, w);
      }
      // torch overrides the notation after measuring: the width stays the one measured for
      // the notation its rule picked, and format() pads to it. With nothing finite and
      // nonzero torch's _Formatter returns before the override (torch 1.13).
      if (sci_mode) sci_mode_ = *sci_mode;
    }
  }

  size_t width() const { return max_width_; }

  std::string format(double v) const {
    std::string s;
    if (sci_mode_) {
      s = format_scientific(v, precision_);
    } else if (int_mode_) {
      s = format_fixed(v, 0);
      if (std::isfinite(v)) s += '.';
    } else {
      s = format_fixed(v, precision_);
    }
    if (s.size() < max_width_) s.insert(0, max_width_ - s.size(), ' ');
    return s;
  }

 private:
  int precision_;
  bool int_mode_ = true;
  bool sci_mode_ = false;
  size_t max_width_ = 1;
};

// Formats the shown elements; returns them in order with the common width.
std::vector<std::string> format_cells(const Tensor& host, const std::vector<int64_t>& offsets,
                                      const PrintOptions& opts, size_t& width) {
  std::vector<std::string> cells;
  cells.reserve(offsets.size());
  dispatch_dtype(host.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* base = static_cast<const T*>(host.raw_data());
    if constexpr (std::is_same_v<T, bool>) {
      width = 4;
      for (int64_t o : offsets) {
        cells.emplace_back(base[o] ? "True" : "False");
        if (!base[o]) width = 5;
      }
      for (auto& c : cells) c.insert(0, width - c.size(), ' ');
    } else if constexpr (std::is_integral_v<T>) {
      width = 1;
      for (int64_t o : offsets) {
        cells.push_back(std::to_string(static_cast<int64_t>(base[o])));
        width = std::max(width, cells.back().size());
      }
      for (auto& c : cells) c.insert(0, width - c.size(), ' ');
    } else {
      std::vector<double> values;
      values.reserve(offsets.size());
      for (int64_t o : offsets) {
        // half and bfloat16 widen to float first, exactly (torch's self.float()).
        if constexpr (std::is_same_v<T, double>) {
          values.push_back(base[o]);
        } else {
          values.push_back(static_cast<float>(base[o]));
        }
      }
      FloatFormatter formatter(values, opts.precision, opts.sci_mode);
      width = formatter.width();
      for (double v : values) cells.push_back(formatter.format(v));
    }
  });
  return cells;
}

// ---- step 3: layout (torch's _tensor_str_with_formatter and _vector_str)

struct Layout {
  const DimVector& sizes;
  const std::vector<std::string>& cells;
  size_t width;
  bool summarize;
  const PrintOptions& opts;
  size_t next = 0;  // the next cell to place
};

void append_join(std::string& out, const std::vector<std::string>& parts, std::string_view sep) {
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
}

std::string vector_str(Layout& layout, int64_t dim, int64_t indent) {
  int64_t n = layout.sizes[dim];
  std::vector<std::string> data;
  const int64_t edge = layout.opts.edgeitems;
  if (is_summarized(n, layout.summarize, edge)) {
    for (int64_t i = 0; i < edge; ++i) data.push_back(layout.cells[layout.next++]);
    data.emplace_back(" ...");
    for (int64_t i = 0; i < edge; ++i) data.push_back(layout.cells[layout.next++]);
  } else {
    for (int64_t i = 0; i < n; ++i) data.push_back(layout.cells[layout.next++]);
  }
  auto element_length = static_cast<int64_t>(layout.width) + 2;
  // Python's floor division: (80 - indent) may be negative for deep nesting.
  int64_t room = layout.opts.linewidth - indent;
  int64_t per_line =
      room >= 0 ? room / element_length : -((-room + element_length - 1) / element_length);
  per_line = std::max<int64_t>(1, per_line);

  std::string out = "[";
  std::string line_sep = ",\n";
  line_sep.append(indent + 1, ' ');
  for (size_t i = 0; i < data.size(); ++i) {
    if (i) out += (static_cast<int64_t>(i) % per_line == 0) ? std::string_view(line_sep) : ", ";
    out += data[i];
  }
  out += ']';
  return out;
}

std::string tensor_str(Layout& layout, int64_t dim, int64_t indent) {
  auto ndim = static_cast<int64_t>(layout.sizes.size());
  if (dim == ndim - 1) return vector_str(layout, dim, indent);
  int64_t n = layout.sizes[dim];
  std::vector<std::string> slices;
  const int64_t edge = layout.opts.edgeitems;
  if (is_summarized(n, layout.summarize, edge)) {
    for (int64_t i = 0; i < edge; ++i)
      slices.push_back(tensor_str(layout, dim + 1, indent + 1));
    slices.emplace_back("...");
    for (int64_t i = 0; i < edge; ++i)
      slices.push_back(tensor_str(layout, dim + 1, indent + 1));
  } else {
    for (int64_t i = 0; i < n; ++i) slices.push_back(tensor_str(layout, dim + 1, indent + 1));
  }
  std::string sep(1, ',');
  sep.append(ndim - dim - 1, '\n');
  sep.append(indent + 1, ' ');
  std::string out = "[";
  append_join(out, slices, sep);
  out += ']';
  return out;
}

struct Suffix {
  std::string text;
  int64_t measured_length;  // as torch measures it (Note [tide's name in the repr])
};

Suffix dtype_suffix(Dtype dtype) {
  std::string text = std::string("dtype=tide.") + name(dtype);
  auto len = static_cast<int64_t>(text.size()) + kTorchModuleExtraChars;
  return {std::move(text), len};
}

// torch's _add_suffixes, with force_newline false (it is only true for sparse tensors).
std::string add_suffixes(std::string repr, const std::vector<Suffix>& suffixes, int64_t indent,
                         int64_t linewidth) {
  size_t newline = repr.rfind('\n');
  auto size = static_cast<int64_t>(repr.size());
  // Python's len(s) - s.rfind("\n") + 1, where rfind gives -1 when there is no newline.
  int64_t last_line_len =
      newline == std::string::npos ? size + 2 : size - static_cast<int64_t>(newline) + 1;
  for (const Suffix& suffix : suffixes) {
    if (last_line_len + suffix.measured_length + 2 > linewidth) {
      repr += ",\n";
      repr.append(indent, ' ');
      repr += suffix.text;
      last_line_len = indent + suffix.measured_length;
    } else {
      repr += ", ";
      repr += suffix.text;
      last_line_len += suffix.measured_length + 2;
    }
  }
  repr += ')';
  return repr;
}

}  // namespace

namespace detail {

std::string tensor_repr(const Tensor& host, const Device& shown_device,
                        const std::string& autograd_suffix) {
  TIDE_INTERNAL_ASSERT(host.is_cpu());
  const PrintOptions opts = get_printoptions();
  const std::string prefix = "tensor(";
  const auto indent = static_cast<int64_t>(prefix.size());
  std::vector<Suffix> suffixes;
  // Note [Print tensor device] in torch: the device is shown when it is not the default
  // device type, which is cpu.
  if (!shown_device.is_cpu()) {
    std::string text = "device='" + shown_device.str() + "'";
    auto len = static_cast<int64_t>(text.size());
    suffixes.push_back({std::move(text), len});
  }

  Dtype dtype = host.dtype();
  std::string body;
  if (host.numel() == 0) {
    // Like NumPy, the shape is shown unless it is (0,); the dtype is shown even for int64 and
    // bool, because there are no elements to infer it from.
    if (host.dim() != 1) {
      std::string text = "size=" + shape_str(host.shape());
      auto len = static_cast<int64_t>(text.size());
      suffixes.push_back({std::move(text), len});
    }
    if (dtype != get_default_dtype()) suffixes.push_back(dtype_suffix(dtype));
    body = "[]";
  } else {
    // torch's has_default_dtype: the default dtype (Note [Default dtype]), int64 and bool.
    if (dtype != get_default_dtype() && dtype != kInt64 && dtype != kBool)
      suffixes.push_back(dtype_suffix(dtype));
    bool summarize = static_cast<double>(host.numel()) > opts.threshold;
    std::vector<int64_t> offsets;
    collect_shown_offsets(host.shape(), host.stride_vector(), 0, 0, summarize, opts.edgeitems,
                          offsets);
    size_t width = 1;
    std::vector<std::string> cells = format_cells(host, offsets, opts, width);
    if (host.dim() == 0) {
      body = std::move(cells.front());
    } else {
      Layout layout{host.shape(), cells, width, summarize, opts};
      body = tensor_str(layout, 0, indent);
    }
  }
  // torch's last suffix: requires_grad=True on leaves, grad_fn=<Name> on recorded results.
  if (!autograd_suffix.empty()) {
    suffixes.push_back({autograd_suffix, static_cast<int64_t>(autograd_suffix.size())});
  }
  return add_suffixes(prefix + body, suffixes, indent, opts.linewidth);
}

}  // namespace detail

std::string Tensor::str() const {
  // libtorch's spelling for a tensor without storage; Python has no undefined tensors.
  if (!defined()) return "[ Tensor (undefined) ]";
  // Values are read on the host; for a device tensor cpu() waits for pending work first.
  // (detach: reading the values for printing is not an op of the graph)
  Tensor host = is_cpu() ? *this : detach().cpu();
  std::string autograd_suffix;
  if (requires_grad()) {
    autograd_suffix = is_leaf() ? std::string("requires_grad=True")
                                : std::string("grad_fn=<") + grad_fn()->name() + ">";
  }
  return detail::tensor_repr(host, device(), autograd_suffix);
}

}  // namespace tide
