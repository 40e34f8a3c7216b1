// IDX files (MNIST's format) on arbitrary bytes, plain or gzip-compressed: read_idx_ubyte and
// tide::data::MNIST either load them or raise tide::Error. What loads agrees with the bytes:
// the dimensions are the header's, the values the bytes after it (for MNIST, images as
// byte / 255 in (N, 1, 28, 28) and labels as int64).
//
// Input: one mode byte; for read_idx_ubyte the rest is the file; for MNIST two bytes give
// the images file's length, then the images file, then the labels file.

#include <filesystem>
#include <optional>

#include "data/idx_file.h"
#include "fuzz_target.h"
#include "tide/data/mnist.h"

namespace tide::fuzz {
namespace {

uint32_t big_endian(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
}

bool is_gzip(const std::string& bytes) {
  return bytes.size() >= 2 && static_cast<uint8_t>(bytes[0]) == 0x1f && static_cast<uint8_t>(bytes[1]) == 0x8b;
}

void one_file(uint8_t mode, Input& in) {
  const int dims = 1 + mode / 2 % 3;
  const std::string path = write_temp_file("input-idx", in.rest());
  data::detail::IdxBytes idx;
  if (!accepted([&] { idx = data::detail::read_idx_ubyte(path, dims, "images"); })) return;
  const size_t header = 4 + 4 * static_cast<size_t>(dims);
  if (idx.header != header || idx.dims.size() != static_cast<size_t>(dims) || idx.file.size() < header)
    fail("read_idx_ubyte(", dims, " dims) gives a header of ", idx.header, " bytes and ", idx.dims.size(), " dims");
  if (big_endian(idx.file.data()) != (0x800u | static_cast<uint32_t>(dims)))
    fail("read_idx_ubyte accepted the magic number ", big_endian(idx.file.data()));
  uint64_t count = 1;
  for (int d = 0; d < dims; ++d) {
    const uint32_t n = big_endian(idx.file.data() + 4 + 4 * d);
    if (idx.dims[static_cast<size_t>(d)] != static_cast<int64_t>(n)) fail("dimension ", d, " is not the header's");
    if (__builtin_mul_overflow(count, uint64_t{n}, &count)) fail("read_idx_ubyte accepted dims whose product overflows");
  }
  if (count != idx.file.size() - header)
    fail("read_idx_ubyte accepted ", idx.file.size() - header, " bytes for ", count, " values");
}

void mnist(uint8_t mode, Input& in) {
  const bool train = mode & 2;
  const bool gz_names = mode & 4;
  const std::string images_bytes = in.take(in.u64(2));
  const std::string labels_bytes = in.rest();
  const std::string prefix = train ? "train" : "t10k";
  namespace fs = std::filesystem;
  const fs::path root = fs::path(temp_dir()) / "mnist";
  fs::create_directories(root);
  for (const char* kind : {"-images-idx3-ubyte", "-labels-idx1-ubyte"}) {
    fs::remove(root / (prefix + kind));
    fs::remove(root / (prefix + kind + ".gz"));
  }
  const std::string suffix = gz_names ? ".gz" : "";
  write_temp_file("mnist/" + prefix + "-images-idx3-ubyte" + suffix, images_bytes);
  write_temp_file("mnist/" + prefix + "-labels-idx1-ubyte" + suffix, labels_bytes);

  std::optional<data::MNIST> set;
  if (!accepted([&] { set.emplace(root.string(), train); })) return;
  const Tensor& images = set->images();
  const Tensor& labels = set->targets();
  const int64_t n = labels.numel();
  if (images.sizes() != std::vector<int64_t>{n, 1, 28, 28} || labels.sizes() != std::vector<int64_t>{n} ||
      set->size() != static_cast<size_t>(n))
    fail("MNIST loaded images of sizes ", images.numel(), " and ", n, " labels");
  if (!is_gzip(images_bytes) && !is_gzip(labels_bytes)) {
    const float* pixels = images.data_ptr<float>();
    for (int64_t i = 0; i < images.numel(); ++i) {
      if (pixels[i] != static_cast<float>(static_cast<uint8_t>(images_bytes[16 + i])) / 255.0f)
        fail("pixel ", i, " is ", pixels[i]);
    }
    const int64_t* values = labels.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      if (values[i] != static_cast<uint8_t>(labels_bytes[8 + i])) fail("label ", i, " is ", values[i]);
    }
  }
  if (n > 0) {
    const data::Example first = set->get(0);
    const size_t indices[] = {static_cast<size_t>(n - 1), 0};
    const data::Example batch = set->get_batch(indices);
    if (batch.data.sizes() != std::vector<int64_t>{2, 1, 28, 28} || first.target.dim() != 0)
      fail("MNIST::get or get_batch gives the wrong sizes");
  }
}

}  // namespace

void idx(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.byte();
  if (mode % 2 == 0) {
    one_file(mode, in);
  } else {
    mnist(mode, in);
  }
}

}  // namespace tide::fuzz
