#include "data/idx_file.h"

#include <zlib.h>

#include <cerrno>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

#include "tide/error.h"

namespace tide::data::detail {
namespace {

struct GzCloser {
  void operator()(gzFile_s* f) const { gzclose(f); }
};

uint32_t big_endian_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 |
         static_cast<uint32_t>(p[2]) << 8 | static_cast<uint32_t>(p[3]);
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

}  // namespace

std::vector<uint8_t> read_maybe_gzipped(const std::string& path) {
  errno = 0;
  std::unique_ptr<gzFile_s, GzCloser> file(gzopen(path.c_str(), "rb"));
  TIDE_CHECK(file != nullptr, "[MNIST] cannot open ", path, ": ",
             errno != 0 ? std::strerror(errno) : "out of memory",
             "; check that the file exists and is readable");
  gzbuffer(file.get(), 1 << 17);
  std::vector<uint8_t> bytes;
  size_t size = 0;
  for (;;) {
    if (bytes.size() - size < (1 << 20)) bytes.resize(bytes.empty() ? (1 << 20) : bytes.size() * 2);
    const unsigned chunk = static_cast<unsigned>(std::min<size_t>(bytes.size() - size, 1u << 30));
    const int got = gzread(file.get(), bytes.data() + size, chunk);
    if (got < 0) {
      int code = 0;
      const char* message = gzerror(file.get(), &code);
      TIDE_CHECK(false, "[MNIST] cannot read ", path, ": ",
                 code == Z_ERRNO ? std::strerror(errno) : message,
                 code == Z_DATA_ERROR || code == Z_BUF_ERROR
                     ? " (the gzip data is corrupt or truncated); download the file again"
                     : "");
    }
    if (got == 0) break;
    size += static_cast<size_t>(got);
  }
  // gzread stops quietly at the end of a gzip stream cut short; gzerror tells.
  int code = 0;
  const char* message = gzerror(file.get(), &code);
  TIDE_CHECK(code == Z_OK || code == Z_STREAM_END, "[MNIST] cannot read ", path, ": ", message,
             " (the gzip data is corrupt or truncated); download the file again");
  bytes.resize(size);
  return bytes;
}

IdxBytes read_idx_ubyte(const std::string& path, int expected_dims, const char* what) {
  std::vector<uint8_t> bytes = read_maybe_gzipped(path);
  const uint32_t expected_magic = 0x00000800u | static_cast<uint32_t>(expected_dims);
  TIDE_CHECK(bytes.size() >= 4, "[MNIST] ", path, " is not an IDX file of ", what, ": it has ",
             bytes.size(), " bytes, fewer than the 4 of its magic number ", hex32(expected_magic),
             "; the file is truncated or empty, download it again");
  const uint32_t magic = big_endian_u32(bytes.data());
  TIDE_CHECK(magic == expected_magic, "[MNIST] ", path, " is not an IDX file of ", what,
             ": its magic number is ", hex32(magic), ", expected ", hex32(expected_magic),
             " (unsigned bytes, ", expected_dims, " dimension", expected_dims == 1 ? "" : "s",
             ")", bytes[0] != 0 || bytes[1] != 0 ? "; it does not start like an IDX file"
             : bytes[2] != 0x08 ? "; its elements are not unsigned bytes"
                                : "; it has another number of dimensions (images and labels swapped?)",
             "; pass the directory of the original MNIST or Fashion-MNIST files");
  const size_t header = 4 + 4 * static_cast<size_t>(expected_dims);
  TIDE_CHECK(bytes.size() >= header, "[MNIST] ", path, " is truncated: its header needs ",
             header, " bytes (the magic number and ", expected_dims, " dimension sizes) but the "
             "file has ", bytes.size(), "; download it again");
  IdxBytes out;
  size_t count = 1;
  bool overflow = false;
  for (int d = 0; d < expected_dims; ++d) {
    const uint32_t n = big_endian_u32(bytes.data() + 4 + 4 * d);
    out.dims.push_back(static_cast<int64_t>(n));
    overflow = overflow || __builtin_mul_overflow(count, size_t{n}, &count);
  }
  const size_t data = bytes.size() - header;
  TIDE_CHECK(!overflow && data >= count, "[MNIST] ", path, " is truncated: its header announces ", count,
             " bytes of ", what, " but the file has ", data, " after the header; download it again");
  TIDE_CHECK(data == count, "[MNIST] ", path, " has ", data - count, " bytes after the ", count,
             " bytes of ", what, " its header announces; it is not a well-formed IDX file, "
             "download it again");
  out.file = std::move(bytes);
  out.header = header;
  return out;
}

}  // namespace tide::data::detail
