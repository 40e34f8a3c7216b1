#include "serialize/safetensors_header.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tide/error.h"

namespace tide::serialize {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

struct DtypeCode {
  Dtype dtype;
  const char* code;
};

// In the order the package writes them (Note [safetensors layout]): an entry's index is its rank.
constexpr DtypeCode kCodes[] = {
    {kInt64, "I64"},     {kFloat64, "F64"}, {kFloat32, "F32"}, {kInt32, "I32"},
    {kBFloat16, "BF16"}, {kFloat16, "F16"}, {kUInt8, "U8"},    {kBool, "BOOL"},
};

// Codes the package knows that tide has no dtype for: named in the error as such.
constexpr const char* kForeignCodes[] = {"I8",  "I16",     "U16",     "U32",
                                         "U64", "F8_E5M2", "F8_E4M3", "F8_E8M0",
                                         "F4",  "F6_E2M3", "F6_E3M2", "C64"};

constexpr const char* kSupportedCodes = "BOOL, U8, I32, I64, F16, BF16, F32, F64";

size_t rank_of(Dtype dtype) {
  for (size_t i = 0; i < std::size(kCodes); ++i) {
    if (kCodes[i].dtype == dtype) return i;
  }
  TIDE_INTERNAL_ASSERT(false, "dtype without a safetensors code: ", name(dtype));
  return 0;
}

std::string shape_str(const std::vector<int64_t>& shape) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
  return os.str() + ']';
}

// The text of a JSON value for a message, cut short: a corrupt header may be huge.
std::string excerpt(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

struct Reader {
  std::string_view caller;
  const std::string& source;

  template <class... Args>
  [[noreturn]] void fail(const Args&... args) const {
    throw Error(detail::concat("[", caller, "] '", source, "': ", args...));
  }

  /// A header value that must be a non-negative integer no larger than `max`.
  uint64_t unsigned_value(const json& value, uint64_t max, const std::string& what) const {
    if (value.is_number_integer() && !value.is_number_unsigned()) {
      fail(what, " is negative (", excerpt(value),
           "); expected a non-negative integer. The header is "
           "corrupt: write the file again");
    }
    if (!value.is_number_unsigned()) {
      fail(what, " is ", excerpt(value),
           ", expected a non-negative integer. The header is "
           "corrupt: write the file again");
    }
    const uint64_t v = value.get<uint64_t>();
    if (v > max) {
      fail(what, " is ", v, ", more than the largest possible (", max,
           "). The header is corrupt: write the file again");
    }
    return v;
  }

  const json& field(const json& entry, const std::string& tensor, const char* key) const {
    auto it = entry.find(key);
    if (it == entry.end()) {
      fail("tensor '", tensor, "' has no \"", key,
           "\"; expected {\"dtype\": ..., \"shape\": [...], "
           "\"data_offsets\": [begin, end]}, found ",
           excerpt(entry), ". The header is corrupt: write the file again");
    }
    return *it;
  }

  Dtype dtype(const json& value, const std::string& tensor) const {
    if (!value.is_string()) {
      fail("tensor '", tensor, "' has dtype ", excerpt(value), ", expected one of the strings ",
           kSupportedCodes, ". The header is corrupt: write the file again");
    }
    const std::string& code = value.get_ref<const std::string&>();
    for (const DtypeCode& c : kCodes) {
      if (code == c.code) return c.dtype;
    }
    for (const char* foreign : kForeignCodes) {
      if (code == foreign) {
        fail("tensor '", tensor, "' has dtype ", code,
             ", which safetensors knows but tide has no dtype for; tide reads ", kSupportedCodes,
             ". Convert the tensor to one of them before saving it (e.g. to F32)");
      }
    }
    fail("tensor '", tensor, "' has dtype \"", code,
         "\", which is not a safetensors dtype tide "
         "reads; expected one of ",
         kSupportedCodes,
         ". The header is corrupt or from a newer "
         "format: write the file again with one of those dtypes");
  }

  TensorEntry entry(const std::string& tensor, const json& value, uint64_t data_bytes) const {
    if (!value.is_object()) {
      fail("tensor '", tensor, "' is described by ", excerpt(value),
           ", expected an object "
           "{\"dtype\": ..., \"shape\": [...], \"data_offsets\": [begin, end]}. The header is "
           "corrupt: write the file again");
    }
    TensorEntry e;
    e.name = tensor;
    e.dtype = dtype(field(value, tensor, "dtype"), tensor);

    const json& shape = field(value, tensor, "shape");
    if (!shape.is_array()) {
      fail("tensor '", tensor, "' has shape ", excerpt(shape),
           ", expected an array of sizes. "
           "The header is corrupt: write the file again");
    }
    constexpr uint64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
    bool empty = false;
    for (size_t i = 0; i < shape.size(); ++i) {
      const uint64_t size = unsigned_value(shape[i], kMaxInt64,
                                           detail::concat("size ", i, " of tensor '", tensor, "'"));
      e.shape.push_back(static_cast<int64_t>(size));
      empty = empty || size == 0;
    }
    // bytes = numel * itemsize, refused when it cannot be represented (a tensor with a zero size
    // has no elements whatever its other sizes are).
    uint64_t bytes = 0;
    if (!empty) {
      bytes = element_size(e.dtype);
      for (int64_t size : e.shape) {
        if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(size), &bytes) ||
            bytes > kMaxInt64) {
          fail("tensor '", tensor, "' has shape ", shape_str(e.shape),
               ", whose byte size overflows "
               "64 bits. The header is corrupt: write the file again");
        }
      }
    }

    const json& offsets = field(value, tensor, "data_offsets");
    if (!offsets.is_array() || offsets.size() != 2) {
      fail("tensor '", tensor, "' has data_offsets ", excerpt(offsets),
           ", expected [begin, end]. "
           "The header is corrupt: write the file again");
    }
    const uint64_t any = std::numeric_limits<uint64_t>::max();
    e.begin = unsigned_value(offsets[0], any, "data_offsets[0] of tensor '" + tensor + "'");
    e.end = unsigned_value(offsets[1], any, "data_offsets[1] of tensor '" + tensor + "'");
    if (e.begin > e.end) {
      fail("tensor '", tensor, "' has data_offsets [", e.begin, ", ", e.end,
           "], which end before "
           "they begin. The header is corrupt: write the file again");
    }
    if (e.end > data_bytes) {
      fail("tensor '", tensor, "' has data_offsets [", e.begin, ", ", e.end,
           "] but the file holds ", data_bytes,
           " bytes of tensor data after its header. The file is truncated or its "
           "header is corrupt: copy or write it again");
    }
    if (e.end - e.begin != bytes) {
      fail("tensor '", tensor, "' of dtype ", dtype_code(e.dtype), " and shape ",
           shape_str(e.shape), " needs ", bytes, " bytes but its data_offsets [", e.begin, ", ",
           e.end, "] span ", e.end - e.begin, ". The header is corrupt: write the file again");
    }
    return e;
  }

  std::map<std::string, std::string> metadata(const json& value) const {
    std::map<std::string, std::string> out;
    if (value.is_null()) return out;  // the package reads null as "no metadata"
    if (!value.is_object()) {
      fail("__metadata__ is ", excerpt(value),
           ", expected an object of strings. The header is "
           "corrupt: write the file again");
    }
    for (const auto& [key, text] : value.items()) {
      if (!text.is_string()) {
        fail("__metadata__ entry '", key, "' is ", excerpt(text),
             ", expected a string. The "
             "header is corrupt: write the file again");
      }
      out.emplace(key, text.get<std::string>());
    }
    return out;
  }

  json parse(std::string_view text) const {
    // Duplicate keys would be dropped silently by the parser: find them as it goes. Nesting is
    // bounded too, as no valid header nests deeper than 3 (header, entry, shape).
    std::vector<std::set<std::string>> open_objects;
    int nesting = 0;
    auto on_event = [&](int, json::parse_event_t event, json& parsed) {
      switch (event) {
        case json::parse_event_t::object_start:
          open_objects.emplace_back();
          [[fallthrough]];
        case json::parse_event_t::array_start:
          if (++nesting > 3) {
            fail(
                "the header nests deeper than a safetensors header can (3 levels). The header "
                "is corrupt: write the file again");
          }
          break;
        case json::parse_event_t::object_end:
          open_objects.pop_back();
          [[fallthrough]];
        case json::parse_event_t::array_end:
          --nesting;
          break;
        case json::parse_event_t::key: {
          const std::string& key = parsed.get_ref<const std::string&>();
          if (!open_objects.back().insert(key).second) {
            if (open_objects.size() == 1) {
              fail("the header names tensor '", key,
                   "' twice; names must be unique. The header "
                   "is corrupt: write the file again");
            }
            fail("the header repeats the key '", key,
                 "' inside one entry. The header is corrupt: "
                 "write the file again");
          }
          break;
        }
        default:
          break;
      }
      return true;
    };
    try {
      return json::parse(text.begin(), text.end(), on_event);
    } catch (const json::exception& e) {
      fail("the header is not valid JSON (", e.what(),
           "); expected a safetensors header. The "
           "file is corrupt or not a safetensors file");
    }
  }
};

// Throws when `text` cannot be written as JSON (not UTF-8), naming what it is.
void require_utf8(const std::string& text, std::string_view what, std::string_view caller) {
  try {
    (void)json(text).dump();
  } catch (const json::type_error&) {
    throw Error(detail::concat("[", caller, "] ", what,
                               " is not valid UTF-8; safetensors headers "
                               "are JSON text: use a UTF-8 string"));
  }
}

}  // namespace

const char* dtype_code(Dtype dtype) { return kCodes[rank_of(dtype)].code; }

uint64_t lay_out(std::vector<TensorEntry>& tensors) {
  std::stable_sort(tensors.begin(), tensors.end(), [](const TensorEntry& a, const TensorEntry& b) {
    const size_t ra = rank_of(a.dtype), rb = rank_of(b.dtype);
    return ra != rb ? ra < rb : a.name < b.name;
  });
  uint64_t offset = 0;
  for (TensorEntry& e : tensors) {
    uint64_t bytes = element_size(e.dtype);
    for (int64_t size : e.shape) bytes *= static_cast<uint64_t>(size);
    e.begin = offset;
    e.end = offset += bytes;
  }
  return offset;
}

std::string encode_header(const Header& header, std::string_view caller) {
  ordered_json j = ordered_json::object();
  if (!header.metadata.empty()) {
    ordered_json meta = ordered_json::object();
    for (const auto& [key, value] : header.metadata) {
      require_utf8(key, detail::concat("metadata key '", key, "'"), caller);
      require_utf8(value, detail::concat("the value of metadata key '", key, "'"), caller);
      meta[key] = value;
    }
    j["__metadata__"] = std::move(meta);
  }
  for (const TensorEntry& e : header.tensors) {
    require_utf8(e.name, detail::concat("tensor name '", e.name, "'"), caller);
    ordered_json entry = ordered_json::object();
    entry["dtype"] = dtype_code(e.dtype);
    entry["shape"] = e.shape;
    entry["data_offsets"] = {e.begin, e.end};
    j[e.name] = std::move(entry);
  }
  std::string text = j.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  return text;
}

Header decode_header(std::string_view text, uint64_t data_bytes, const std::string& source,
                     std::string_view caller) {
  const Reader reader{caller, source};
  const json j = reader.parse(text);
  if (!j.is_object()) {
    reader.fail("the header is ", excerpt(j),
                ", expected a JSON object of tensors. The file is "
                "corrupt or not a safetensors file");
  }
  Header header;
  for (const auto& [key, value] : j.items()) {
    if (key == "__metadata__") {
      header.metadata = reader.metadata(value);
    } else {
      header.tensors.push_back(reader.entry(key, value, data_bytes));
    }
  }

  // The data must be covered exactly: sorted by offsets, each tensor starts where the previous
  // ended (empty tensors may share an offset) and the last ends at the end of the file.
  std::sort(header.tensors.begin(), header.tensors.end(),
            [](const TensorEntry& a, const TensorEntry& b) {
              return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
            });
  uint64_t covered = 0;
  const TensorEntry* previous = nullptr;
  for (const TensorEntry& e : header.tensors) {
    if (e.begin < covered) {
      reader.fail(
          "tensor '", e.name, "' (data_offsets [", e.begin, ", ", e.end, "]) overlaps tensor '",
          previous->name, "' (data_offsets [", previous->begin, ", ", previous->end,
          "]); each byte belongs to one tensor. The header is corrupt: write the file again");
    }
    if (e.begin > covered) {
      reader.fail("bytes [", covered, ", ", e.begin,
                  ") of the data belong to no tensor (the next, '", e.name, "', starts at ",
                  e.begin,
                  "); safetensors files have no holes. The header "
                  "is corrupt: write the file again");
    }
    covered = e.end;
    previous = &e;
  }
  if (covered != data_bytes) {
    reader.fail("the file holds ", data_bytes, " bytes of tensor data but its tensors cover ",
                covered,
                "; safetensors files end with the last tensor. The file has trailing "
                "bytes or its header is corrupt: write it again");
  }
  return header;
}

}  // namespace tide::serialize
