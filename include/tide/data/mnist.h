#pragma once
// MNIST: the MNIST (or Fashion-MNIST) images and labels, read from IDX files.

#include <string>

#include "tide/data/dataset.h"

namespace tide::data {

/// Reads `root`/train-images-idx3-ubyte and train-labels-idx1-ubyte (t10k-… when `train` is
/// false), each plain or gzip-compressed (a `.gz` suffix), as torchvision's and libtorch's
/// MNIST. The whole split is loaded at construction into one image tensor, float32 in [0, 1]
/// of shape (N, 1, 28, 28), and one int64 label tensor of shape (N); get() returns views into
/// them and batches are gathered in one pass. Fashion-MNIST has the same files (Debian's
/// dataset-fashion-mnist installs them in /usr/share/datasets/fashion-mnist). A missing,
/// truncated or malformed file raises tide::Error naming the file and what is wrong with it.
class MNIST : public Dataset {
 public:
  explicit MNIST(const std::string& root, bool train = true);

  /// (image (1, 28, 28) float32, label () int64).
  Example get(size_t index) const override;
  size_t size() const override;
  Example get_batch(std::span<const size_t> indices, bool pinned = false) const override;

  /// All images, (N, 1, 28, 28) float32 in [0, 1].
  const Tensor& images() const { return images_; }
  /// All labels, (N) int64.
  const Tensor& targets() const { return targets_; }
  bool is_train() const { return train_; }

 private:
  Tensor images_, targets_;
  bool train_;
};

}  // namespace tide::data
