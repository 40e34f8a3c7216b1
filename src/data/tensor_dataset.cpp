#include "tide/data/tensor_dataset.h"

#include "data/gather_rows.h"
#include "tensor/tensor_internal.h"

namespace tide::data {

TensorDataset::TensorDataset(Tensor data, Tensor target)
    : data_(std::move(data)), target_(std::move(target)) {
  TIDE_CHECK(data_.defined(), "[TensorDataset] expected a defined data tensor");
  TIDE_CHECK(data_.dim() >= 1, "[TensorDataset] the data tensor needs a first dimension that "
             "indexes the samples, but it is 0-dimensional; unsqueeze(0) it for one sample");
  if (target_.defined()) {
    TIDE_CHECK(target_.dim() >= 1, "[TensorDataset] the target tensor needs a first dimension "
               "that indexes the samples, but it is 0-dimensional");
    TIDE_CHECK(data_.size(0) == target_.size(0), "[TensorDataset] Size mismatch between tensors: "
               "data has ", data_.size(0), " samples (shape ", tide::detail::shape_str(data_.shape()),
               ") but target has ", target_.size(0), " (shape ",
               tide::detail::shape_str(target_.shape()), "); dim 0 of both must index the same "
               "samples");
  }
}

size_t TensorDataset::size() const { return static_cast<size_t>(data_.size(0)); }

Example TensorDataset::get(size_t index) const {
  TIDE_CHECK(index < size(), "[TensorDataset::get] index ", index,
             " is out of range for a dataset of ", size(), " samples");
  const auto i = static_cast<int64_t>(index);
  return Example{data_.select(0, i), target_.defined() ? target_.select(0, i) : Tensor()};
}

Example TensorDataset::get_batch(std::span<const size_t> indices, bool pinned) const {
  TIDE_CHECK(!indices.empty(), "[TensorDataset::get_batch] expected at least one sample index");
  const char* where = "TensorDataset::get_batch";
  return Example{detail::gather_rows(data_, indices, pinned, where),
                 target_.defined() ? detail::gather_rows(target_, indices, pinned, where) : Tensor()};
}

}  // namespace tide::data
