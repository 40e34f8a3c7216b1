#pragma once
// torch.save's zip archive, read and written with libzip.
//
// Note [Archive layout]
// torch's writer (PyTorchStreamWriter, over miniz) stores every record uncompressed and pads
// each local header with an extra field ("FB", filled with 'Z') so that the record's data
// starts at a multiple of 64 bytes, which lets a reader map storages straight from the file.
// tide writes the same: stored records, and a 0x4246 ("FB") local extra field sized so the data
// lands on a 64-byte boundary. libzip has no alignment option, so the padding is computed from
// the offsets the records will have (local header 30 bytes + name + extra field, then the
// data; libzip adds no data descriptor to a seekable output and no zip64 field below 4 GiB);
// tests/serialize checks the offsets of a written archive. Readers do not need the alignment:
// tide's reader accepts any top folder, stored or deflated records and any order.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct zip;

namespace tide::serialize {

/// One record of an archive being written; `data` must outlive write_zip.
struct ZipRecord {
  std::string name;
  const void* data = nullptr;
  uint64_t size = 0;
};

/// Writes `records` in order to `path`, or, when `path` is empty, into the returned bytes.
std::vector<char> write_zip(const std::vector<ZipRecord>& records, const std::string& path,
                            const char* caller);

/// An archive open for reading: from a file, or from bytes that must outlive it.
class ZipReader {
 public:
  static ZipReader open_file(const std::string& path, const char* caller);
  static ZipReader open_bytes(std::string_view bytes, const char* caller);
  ~ZipReader();
  ZipReader(ZipReader&&) noexcept;
  ZipReader& operator=(ZipReader&&) = delete;

  std::vector<std::string> names() const;
  /// The size of record `name`; raises tide::Error when the archive has no such record.
  uint64_t size(const std::string& name) const;
  /// Reads record `name` into `out`, which holds exactly size(name) bytes.
  void read(const std::string& name, void* out, uint64_t bytes) const;
  std::string read(const std::string& name) const;

 private:
  ZipReader(zip* archive, std::string what, const char* caller)
      : archive_(archive), what_(std::move(what)), caller_(caller) {}
  int64_t index(const std::string& name) const;

  zip* archive_;
  std::string what_;  // "'path'" or "the bytes", for messages
  const char* caller_;
};

}  // namespace tide::serialize
