#pragma once
// Example: one sample of a dataset, or one batch of samples (torch::data::Example).

#include "tide/tensor.h"

namespace tide::data {

/// A sample's input and its target; in a batch, each is the samples' tensors stacked along a
/// new dim 0. Either may be undefined for datasets without one (an unlabeled dataset).
struct Example {
  Tensor data;
  Tensor target;
};

}  // namespace tide::data
