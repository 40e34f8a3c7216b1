// torch.save's zip archive with libzip (Note [Archive layout] in torch_zip.h).

#include "serialize/torch_zip.h"

#include <zip.h>

#include <memory>

#include "tide/error.h"

namespace tide::serialize {
namespace {

constexpr uint64_t kAlignment = 64;
constexpr uint16_t kPaddingFieldId = 0x4246;  // "FB", as torch's writer names its padding
constexpr uint64_t kLocalHeaderBytes = 30;

std::string libzip_message(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string out = zip_error_strerror(&error);
  zip_error_fini(&error);
  return out;
}

struct SourceFree {
  void operator()(zip_source_t* s) const { zip_source_free(s); }
};
using Source = std::unique_ptr<zip_source_t, SourceFree>;

// Bytes of padding payload (after the field's 4-byte header) that put the data of a record whose
// local header starts at `offset` on a 64-byte boundary, or -1 for no field.
int padding_payload(uint64_t offset, size_t name_bytes) {
  const uint64_t unpadded = offset + kLocalHeaderBytes + name_bytes;
  uint64_t pad = (kAlignment - unpadded % kAlignment) % kAlignment;
  if (pad == 0) return -1;
  if (pad < 4) pad += kAlignment;  // the field's own header needs 4 bytes
  return static_cast<int>(pad - 4);
}

}  // namespace

std::vector<char> write_zip(const std::vector<ZipRecord>& records, const std::string& path,
                            const char* caller) {
  // In memory: a buffer source that outlives zip_close, read back afterwards.
  zip_error_t error;
  zip_error_init(&error);
  Source target;
  zip_t* za = nullptr;
  if (path.empty()) {
    target.reset(zip_source_buffer_create(nullptr, 0, 0, &error));
    TIDE_CHECK(target != nullptr, "[", caller, "] cannot create an archive in memory: ",
               zip_error_strerror(&error));
    za = zip_open_from_source(target.get(), ZIP_TRUNCATE, &error);
    TIDE_CHECK(za != nullptr, "[", caller, "] cannot create an archive in memory: ",
               zip_error_strerror(&error));
    zip_source_keep(target.get());
  } else {
    int code = 0;
    za = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
    TIDE_CHECK(za != nullptr, "[", caller, "] cannot create '", path, "': ", libzip_message(code),
               "; check that its folder exists and is writable");
  }
  zip_error_fini(&error);
  const std::vector<uint8_t> padding(kAlignment + 4, 'Z');
  uint64_t offset = 0;
  auto fail = [&](const std::string& what) {
    const std::string message = zip_strerror(za);
    zip_discard(za);
    TIDE_CHECK(false, "[", caller, "] ", what, ": ", message,
               "; check the free space and permissions of the folder");
  };
  for (const ZipRecord& r : records) {
    zip_source_t* data = zip_source_buffer(za, r.size ? r.data : "", r.size, 0);
    if (data == nullptr) fail("cannot add record " + r.name);
    const zip_int64_t index = zip_file_add(za, r.name.c_str(), data, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(data);
      fail("cannot add record " + r.name);
    }
    const auto i = static_cast<zip_uint64_t>(index);
    if (zip_set_file_compression(za, i, ZIP_CM_STORE, 0) != 0) fail("cannot store " + r.name);
    const int pad = padding_payload(offset, r.name.size());
    uint64_t header = kLocalHeaderBytes + r.name.size();
    if (pad >= 0) {
      if (zip_file_extra_field_set(za, i, kPaddingFieldId, ZIP_EXTRA_FIELD_NEW, padding.data(),
                                   static_cast<zip_uint16_t>(pad), ZIP_FL_LOCAL) != 0) {
        fail("cannot pad record " + r.name);
      }
      header += 4 + static_cast<uint64_t>(pad);
    }
    offset += header + r.size;
  }
  if (zip_close(za) != 0) fail(path.empty() ? "writing the archive failed" : "writing '" + path + "' failed");
  std::vector<char> out;
  if (!path.empty()) return out;
  zip_stat_t st;
  TIDE_CHECK(zip_source_stat(target.get(), &st) == 0 && zip_source_open(target.get()) == 0,
             "[", caller, "] cannot read back the archive written in memory: ",
             zip_error_strerror(zip_source_error(target.get())));
  out.resize(st.size);
  const zip_int64_t got = zip_source_read(target.get(), out.data(), out.size());
  zip_source_close(target.get());
  TIDE_CHECK(got == static_cast<zip_int64_t>(out.size()), "[", caller,
             "] cannot read back the archive written in memory");
  return out;
}

ZipReader ZipReader::open_file(const std::string& path, const char* caller) {
  int code = 0;
  zip_t* za = zip_open(path.c_str(), ZIP_RDONLY, &code);
  TIDE_CHECK(za != nullptr, "[", caller, "] cannot read '", path, "' as a torch.save archive: ",
             libzip_message(code),
             ". Expected a zip written by torch.save (torch >= 1.6) or tide; the legacy format of "
             "_use_new_zipfile_serialization=False is not read");
  return ZipReader(za, "'" + path + "'", caller);
}

ZipReader ZipReader::open_bytes(std::string_view bytes, const char* caller) {
  zip_error_t error;
  zip_error_init(&error);
  Source source(zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error));
  TIDE_CHECK(source != nullptr, "[", caller, "] cannot read the bytes: ", zip_error_strerror(&error));
  zip_t* za = zip_open_from_source(source.get(), ZIP_RDONLY, &error);
  TIDE_CHECK(za != nullptr, "[", caller, "] cannot read the ", bytes.size(),
             " bytes as a torch.save archive: ", zip_error_strerror(&error),
             ". Expected the bytes of a zip written by torch.save or tide::pickle_save");
  source.release();  // the archive owns it now
  return ZipReader(za, "the archive's bytes", caller);
}

ZipReader::~ZipReader() {
  if (archive_ != nullptr) zip_discard(archive_);
}

ZipReader::ZipReader(ZipReader&& o) noexcept
    : archive_(o.archive_), what_(std::move(o.what_)), caller_(o.caller_) {
  o.archive_ = nullptr;
}

std::vector<std::string> ZipReader::names() const {
  std::vector<std::string> out;
  const zip_int64_t n = zip_get_num_entries(archive_, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* name = zip_get_name(archive_, static_cast<zip_uint64_t>(i), 0);
    if (name != nullptr) out.emplace_back(name);
  }
  return out;
}

int64_t ZipReader::index(const std::string& name) const {
  const zip_int64_t i = zip_name_locate(archive_, name.c_str(), 0);
  TIDE_CHECK(i >= 0, "[", caller_, "] ", what_, " has no record '", name,
             "'; expected every storage the pickle names. The archive is incomplete or corrupt");
  return i;
}

uint64_t ZipReader::size(const std::string& name) const {
  zip_stat_t st;
  TIDE_CHECK(zip_stat_index(archive_, static_cast<zip_uint64_t>(index(name)), 0, &st) == 0 &&
                 (st.valid & ZIP_STAT_SIZE),
             "[", caller_, "] cannot read the size of record '", name, "' in ", what_, ": ",
             zip_strerror(archive_));
  return st.size;
}

void ZipReader::read(const std::string& name, void* out, uint64_t bytes) const {
  zip_file_t* f = zip_fopen_index(archive_, static_cast<zip_uint64_t>(index(name)), 0);
  TIDE_CHECK(f != nullptr, "[", caller_, "] cannot open record '", name, "' in ", what_, ": ",
             zip_strerror(archive_), ". The archive is corrupt");
  uint64_t done = 0;
  while (done < bytes) {
    const zip_int64_t got = zip_fread(f, static_cast<char*>(out) + done, bytes - done);
    if (got <= 0) break;
    done += static_cast<uint64_t>(got);
  }
  // One more read reaches the end, where libzip checks the record's CRC.
  char extra = 0;
  const zip_int64_t tail = done == bytes ? zip_fread(f, &extra, 1) : -1;
  const std::string message = zip_file_strerror(f);
  zip_fclose(f);
  TIDE_CHECK(done == bytes && tail == 0, "[", caller_, "] reading record '", name, "' of ", what_,
             " failed after ", done, " of ", bytes, " bytes: ", message,
             ". The archive is truncated or corrupt");
}

std::string ZipReader::read(const std::string& name) const {
  std::string out(size(name), '\0');
  read(name, out.data(), out.size());
  return out;
}

}  // namespace tide::serialize
