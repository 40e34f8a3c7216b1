#include "tide/data/mnist.h"

#include <filesystem>

#include "data/gather_rows.h"
#include "data/idx_file.h"
#include "tide/factories.h"

namespace tide::data {
namespace {

constexpr int64_t kImageRows = 28, kImageColumns = 28;

/// `root`/`name`, or `root`/`name`.gz when only that exists (torchvision and libtorch accept
/// both forms).
std::string find_file(const std::string& root, const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path plain = fs::path(root) / name;
  const fs::path gz = fs::path(root) / (name + ".gz");
  std::error_code ec;
  if (fs::exists(plain, ec)) return plain.string();
  if (fs::exists(gz, ec)) return gz.string();
  TIDE_CHECK(fs::is_directory(root, ec), "[MNIST] the root directory ", root,
             " does not exist; pass the directory that holds the MNIST or Fashion-MNIST IDX "
             "files (Debian's dataset-fashion-mnist installs /usr/share/datasets/fashion-mnist)");
  TIDE_CHECK(false, "[MNIST] cannot find ", name, " in ", root, ": neither ", plain.string(),
             " nor ", gz.string(), " exists; download the MNIST or Fashion-MNIST files there "
             "(plain or .gz)");
  return {};
}

Tensor read_images(const std::string& path) {
  detail::IdxBytes idx = detail::read_idx_ubyte(path, 3, "images");
  TIDE_CHECK(idx.dims[1] == kImageRows && idx.dims[2] == kImageColumns, "[MNIST] ", path,
             " holds images of ", idx.dims[1], "x", idx.dims[2], " pixels, expected ", kImageRows,
             "x", kImageColumns, "; it is not an MNIST or Fashion-MNIST image file");
  const int64_t n = idx.dims[0];
  Tensor images = empty({n, 1, kImageRows, kImageColumns}, dtype(kFloat32).device(Device(kCPU)));
  float* out = images.data_ptr<float>();
  const uint8_t* in = idx.values();
  // Division, not a multiplication by 1/255: the same bits as libtorch's .to(kFloat32).div_(255).
  for (int64_t i = 0, count = images.numel(); i < count; ++i) out[i] = static_cast<float>(in[i]) / 255.0f;
  return images;
}

Tensor read_labels(const std::string& path) {
  detail::IdxBytes idx = detail::read_idx_ubyte(path, 1, "labels");
  const int64_t n = idx.dims[0];
  Tensor labels = empty({n}, dtype(kInt64).device(Device(kCPU)));
  int64_t* out = labels.data_ptr<int64_t>();
  const uint8_t* in = idx.values();
  for (int64_t i = 0; i < n; ++i) out[i] = in[i];
  return labels;
}

}  // namespace

MNIST::MNIST(const std::string& root, bool train) : train_(train) {
  const std::string prefix = train ? "train" : "t10k";
  const std::string images_path = find_file(root, prefix + "-images-idx3-ubyte");
  const std::string labels_path = find_file(root, prefix + "-labels-idx1-ubyte");
  images_ = read_images(images_path);
  targets_ = read_labels(labels_path);
  TIDE_CHECK(images_.size(0) == targets_.size(0), "[MNIST] ", images_path, " holds ",
             images_.size(0), " images but ", labels_path, " holds ", targets_.size(0),
             " labels; the two files must come from the same split and release");
}

size_t MNIST::size() const { return static_cast<size_t>(images_.size(0)); }

Example MNIST::get(size_t index) const {
  TIDE_CHECK(index < size(), "[MNIST::get] index ", index, " is out of range for a dataset of ",
             size(), " samples");
  const auto i = static_cast<int64_t>(index);
  return Example{images_.select(0, i), targets_.select(0, i)};
}

Example MNIST::get_batch(std::span<const size_t> indices, bool pinned) const {
  TIDE_CHECK(!indices.empty(), "[MNIST::get_batch] expected at least one sample index");
  return Example{detail::gather_rows(images_, indices, pinned, "MNIST::get_batch"),
                 detail::gather_rows(targets_, indices, pinned, "MNIST::get_batch")};
}

}  // namespace tide::data
