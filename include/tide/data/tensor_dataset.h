#pragma once
// TensorDataset: samples are the rows (first dim) of a data tensor and a target tensor.

#include "tide/data/dataset.h"

namespace tide::data {

/// torch.utils.data.TensorDataset for an (input, target) pair: sample i is (data[i],
/// target[i]), views that share the tensors' storage. Batches are gathered from the two
/// tensors in one pass (no per-sample get and stack), straight into pinned memory when asked.
class TensorDataset : public Dataset {
 public:
  /// Both tensors need at least one dimension and the same size in dim 0 (the sample count).
  /// `target` may be undefined (an unlabeled dataset): every Example's target is then too.
  TensorDataset(Tensor data, Tensor target);

  Example get(size_t index) const override;
  size_t size() const override;
  Example get_batch(std::span<const size_t> indices, bool pinned = false) const override;

  const Tensor& data() const { return data_; }
  const Tensor& target() const { return target_; }

 private:
  Tensor data_, target_;
};

}  // namespace tide::data
