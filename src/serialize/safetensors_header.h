#pragma once
// The safetensors header: its JSON encoding and the validation of one read from a file.
//
// Note [safetensors layout]
// A safetensors file is
//   8 bytes   N, the header's length, unsigned little-endian
//   N bytes   a JSON object, padded with spaces: {"__metadata__": {str: str},
//             "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...}
//   the data  every tensor's bytes, dense, row-major, little-endian; offsets count from here
// tide writes what the safetensors package (Rust, 0.4 to 0.8) writes, so the same tensors
// give the same bytes: compact JSON (serde_json's to_string), "__metadata__" first, tensors
// ordered by dtype from the widest code down (I64, F64, F32, I32, BF16, F16, U8, BOOL — the
// order of the package's Dtype enum, reversed) and by name (bytewise) within a dtype, packed
// back to back from offset 0, and the header padded with spaces to a multiple of 8 bytes.
// Reading accepts any order but, like the package, requires the data to be covered exactly:
// no overlaps, no holes, no trailing bytes (the package's guard against polyglot files).

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tide/dtype.h"

namespace tide::serialize {

/// The package's MAX_HEADER_SIZE: a longer header is refused by every reader.
inline constexpr uint64_t kMaxHeaderBytes = 100'000'000;

/// One tensor's header entry; begin and end are its data_offsets.
struct TensorEntry {
  std::string name;
  Dtype dtype = kFloat32;
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;
};

struct Header {
  std::vector<TensorEntry> tensors;  // in data order
  std::map<std::string, std::string> metadata;
};

/// safetensors' code for a tide dtype: "BOOL", "U8", "I32", "I64", "F16", "BF16", "F32", "F64".
const char* dtype_code(Dtype dtype);

/// Orders entries as the package does and packs their data_offsets from 0; each entry's
/// byte length comes from its shape and dtype. Returns the data region's size.
uint64_t lay_out(std::vector<TensorEntry>& tensors);

/// The header text, padded to a multiple of 8 bytes (without the 8-byte length prefix).
/// Throws tide::Error ("[<caller>] ...") for a name or metadata string that is not UTF-8.
std::string encode_header(const Header& header, std::string_view caller);

/// Parses and validates a header read from `source` whose data region holds `data_bytes`
/// bytes; every lie (Note [safetensors layout]) raises tide::Error ("[<caller>] ...").
Header decode_header(std::string_view text, uint64_t data_bytes, const std::string& source,
                     std::string_view caller);

}  // namespace tide::serialize
