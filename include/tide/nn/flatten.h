#pragma once
// nn::Flatten: merges dims start_dim..end_dim into one (torch.nn.Flatten; the batch dim stays
// by default).

#include <cstdint>

#include "tide/nn/module.h"

namespace tide::nn {

class Flatten : public Cloneable<Flatten> {
 public:
  explicit Flatten(int64_t start_dim = 1, int64_t end_dim = -1)
      : start_dim(start_dim), end_dim(end_dim) {}
  Tensor forward(const Tensor& input) override;
  void reset() override {}

  int64_t start_dim, end_dim;
};

}  // namespace tide::nn
