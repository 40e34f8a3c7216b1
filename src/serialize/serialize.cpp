// tide::save and tide::load: tensors to and from safetensors files (Note [safetensors layout]).
//
// Note [Shared storage]
// safetensors has no notion of aliasing: each name owns its bytes. torch's save_file refuses
// tensors that share storage (it would write the shared bytes twice); tide, like the package's
// numpy binding, writes each tensor's own elements — a view writes only what it sees, and two
// names over one storage become two independent tensors when loaded. Saving a state dict with
// tied weights therefore stores the tie twice and loses it; tie them again after loading.

#include "tide/serialize.h"

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "serialize/safetensors_header.h"
#include "tide/factories.h"

namespace tide {
namespace {

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; a big-endian host would need byte swaps");

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

constexpr const char* kLoad = "tide::load";

/// An open safetensors file with its header validated.
struct OpenedFile {
  File file;
  uint64_t data_start = 0;  // byte offset of the data region in the file
  serialize::Header header;
};

OpenedFile open_safetensors(const std::string& path, const char* caller) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  TIDE_CHECK(std::filesystem::exists(status), "[", caller, "] cannot read '", path,
             "': no such file; expected the path of a safetensors file (written by tide::save or "
             "safetensors' save_file)");
  TIDE_CHECK(std::filesystem::is_regular_file(status), "[", caller, "] cannot read '", path,
             "': it is not a regular file; expected the path of a safetensors file");
  OpenedFile out;
  out.file.reset(std::fopen(path.c_str(), "rb"));
  TIDE_CHECK(out.file != nullptr, "[", caller, "] cannot open '", path, "': ", std::strerror(errno),
             "; check the path and its permissions");
  const uint64_t file_bytes = std::filesystem::file_size(path, ec);
  TIDE_CHECK(!ec, "[", caller, "] cannot read the size of '", path, "': ", ec.message());

  TIDE_CHECK(file_bytes >= 8, "[", caller, "] '", path, "' is ", file_bytes,
             " bytes long, shorter than the 8-byte header length every safetensors file starts "
             "with. The file is truncated or not a safetensors file");
  unsigned char length_bytes[8];
  TIDE_CHECK(std::fread(length_bytes, 1, 8, out.file.get()) == 8, "[", caller,
             "] could not read the first 8 bytes of '", path, "'; the file changed while reading");
  TIDE_CHECK(std::memcmp(length_bytes, "PK\x03\x04", 4) != 0, "[", caller, "] '", path,
             "' is a zip archive, as torch.save writes, not a safetensors file; read it with "
             "tide::torch_load (include/tide/torch_format.h), or tide.load in Python");
  uint64_t header_bytes = 0;
  for (int i = 7; i >= 0; --i) header_bytes = header_bytes << 8 | length_bytes[i];
  TIDE_CHECK(header_bytes <= serialize::kMaxHeaderBytes, "[", caller, "] '", path,
             "': the header length says ", header_bytes, " bytes, more than safetensors' limit of ",
             serialize::kMaxHeaderBytes, ". The file is corrupt or not a safetensors file");
  TIDE_CHECK(header_bytes <= file_bytes - 8, "[", caller, "] '", path, "': the header length says ",
             header_bytes, " bytes but only ", file_bytes - 8,
             " follow it. The file is truncated or not a safetensors file");

  std::string text(header_bytes, '\0');
  TIDE_CHECK(std::fread(text.data(), 1, text.size(), out.file.get()) == text.size(), "[", caller,
             "] could not read the header of '", path, "'; the file changed while reading");
  out.data_start = 8 + header_bytes;
  out.header = serialize::decode_header(text, file_bytes - out.data_start, path, caller);
  return out;
}

/// Reads one tensor's bytes into a new cpu tensor.
Tensor read_tensor(const OpenedFile& f, const serialize::TensorEntry& e, const std::string& path) {
  Tensor t = empty(e.shape, TensorOptions().device(Device(kCPU)).dtype(e.dtype));
  const uint64_t bytes = e.end - e.begin;
  if (bytes == 0) return t;
  TIDE_CHECK(fseeko(f.file.get(), static_cast<off_t>(f.data_start + e.begin), SEEK_SET) == 0 &&
                 std::fread(t.raw_data(), 1, bytes, f.file.get()) == bytes,
             "[", kLoad, "] '", path, "': could not read the ", bytes, " bytes of tensor '", e.name,
             "'; the file was truncated while reading");
  if (e.dtype == kBool) {
    // Any byte but 0 and 1 read as a C++ bool is undefined behaviour: refuse it.
    const auto* raw = static_cast<const unsigned char*>(t.raw_data());
    for (uint64_t i = 0; i < bytes; ++i) {
      TIDE_CHECK(raw[i] <= 1, "[", kLoad, "] '", path, "': BOOL tensor '", e.name,
                 "' holds the byte ", static_cast<int>(raw[i]), " at element ", i,
                 "; safetensors bools are 0 or 1. The file is corrupt: write it again");
    }
  }
  return t;
}

}  // namespace

void save(const std::map<std::string, Tensor>& tensors, const std::string& path,
          const std::map<std::string, std::string>& metadata) {
  serialize::Header header;
  header.metadata = metadata;
  std::map<std::string, Tensor> dense;  // cpu and contiguous (Note [Shared storage])
  for (const auto& [name, tensor] : tensors) {
    TIDE_CHECK(name != "__metadata__",
               "[tide::save] a tensor is named \"__metadata__\", the key "
               "safetensors reserves for metadata; rename the tensor");
    TIDE_CHECK(tensor.defined(), "[tide::save] tensor '", name,
               "' is undefined (a default-"
               "constructed Tensor); give it a value or leave it out of the map");
    dense.emplace(name, tensor.cpu().contiguous());
    header.tensors.push_back({name, tensor.dtype(), tensor.sizes(), 0, 0});
  }
  serialize::lay_out(header.tensors);
  const std::string text = serialize::encode_header(header, "tide::save");
  TIDE_CHECK(text.size() <= serialize::kMaxHeaderBytes, "[tide::save] the header for ",
             tensors.size(), " tensors is ", text.size(),
             " bytes, more than safetensors' limit of ", serialize::kMaxHeaderBytes,
             "; save the tensors in several files");

  File file(std::fopen(path.c_str(), "wb"));
  TIDE_CHECK(file != nullptr, "[tide::save] cannot open '", path,
             "' for writing: ", std::strerror(errno),
             "; check that its folder exists and is writable");
  unsigned char length_bytes[8];
  for (int i = 0; i < 8; ++i) length_bytes[i] = static_cast<unsigned char>(text.size() >> (8 * i));
  bool ok = std::fwrite(length_bytes, 1, 8, file.get()) == 8 &&
            std::fwrite(text.data(), 1, text.size(), file.get()) == text.size();
  for (const serialize::TensorEntry& e : header.tensors) {
    const Tensor& t = dense.at(e.name);
    ok = ok && std::fwrite(t.raw_data(), 1, t.nbytes(), file.get()) == t.nbytes();
  }
  int write_errno = ok ? 0 : errno;
  if (std::fclose(file.release()) != 0 && ok) {  // buffered bytes that could not be flushed
    ok = false;
    write_errno = errno;
  }
  if (!ok) {
    // No half-written file that a later load would call corrupt (a device such as /dev/full
    // is left alone).
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) std::filesystem::remove(path, ec);
    TIDE_CHECK(false, "[tide::save] writing '", path, "' failed: ", std::strerror(write_errno),
               "; check the free space and permissions of its folder");
  }
}

std::map<std::string, Tensor> load(const std::string& path, std::optional<Device> map_location) {
  const OpenedFile f = open_safetensors(path, kLoad);
  std::map<std::string, Tensor> out;
  for (const serialize::TensorEntry& e : f.header.tensors) {
    Tensor t = read_tensor(f, e, path);
    if (map_location) t = t.to(*map_location);  // a no-op onto cpu
    out.emplace(e.name, std::move(t));
  }
  return out;
}

std::map<std::string, std::string> load_metadata(const std::string& path) {
  return open_safetensors(path, "tide::load_metadata").header.metadata;
}

}  // namespace tide
