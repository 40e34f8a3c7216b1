#pragma once
// IDX files (the MNIST format; http://yann.lecun.com/exdb/mnist/), plain or gzip-compressed.

#include <cstdint>
#include <string>
#include <vector>

namespace tide::data::detail {

/// An IDX array of unsigned bytes: its dimensions and the file's bytes, whose row-major values
/// start after the header (kept in place: no copy of a 47 MB image file).
struct IdxBytes {
  std::vector<int64_t> dims;
  std::vector<uint8_t> file;
  size_t header = 0;
  const uint8_t* values() const { return file.data() + header; }
};

/// The whole content of `path`, gunzipped when it is gzip data (zlib reads plain files as
/// they are). Raises tide::Error naming the path when it cannot be opened or its compressed
/// data is corrupt or truncated.
std::vector<uint8_t> read_maybe_gzipped(const std::string& path);

/// Reads an IDX file of unsigned bytes with `expected_dims` dimensions: magic number
/// 0x0000 08 <dims>, then each dimension as a big-endian 32-bit count, then exactly the
/// product of the dimensions in bytes. Raises tide::Error naming the path and what is wrong
/// (magic number, element type, dimension count, missing or surplus data). `what` says what
/// the file should hold ("images", "labels") in those messages.
IdxBytes read_idx_ubyte(const std::string& path, int expected_dims, const char* what);

}  // namespace tide::data::detail
