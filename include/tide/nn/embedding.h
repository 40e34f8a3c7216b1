#pragma once
// nn::Embedding (torch.nn.Embedding): a table of num_embeddings rows of embedding_dim, drawn
// from N(0, 1) with the padding_idx row zeroed; forward looks rows up by index.

#include <cstdint>
#include <optional>

#include "tide/nn/module.h"

namespace tide::nn {

class Embedding : public Cloneable<Embedding> {
 public:
  /// padding_idx may count from the end (-1: the last row); its row starts at zero and gets no
  /// gradient. With max_norm, each row that a forward looks up whose norm_type-norm exceeds
  /// max_norm is first scaled in place to max_norm (torch's embedding_renorm_).
  Embedding(int64_t num_embeddings, int64_t embedding_dim,
            std::optional<int64_t> padding_idx = std::nullopt,
            std::optional<double> max_norm = std::nullopt, double norm_type = 2.0);

  /// indices (int64, any shape) -> indices.shape + (embedding_dim,).
  Tensor forward(const Tensor& indices) override;
  void reset() override;
  /// Draws weight from N(0, 1) again and zeroes the padding row.
  void reset_parameters();

  int64_t num_embeddings, embedding_dim;
  std::optional<int64_t> padding_idx;  // non-negative once constructed
  std::optional<double> max_norm;
  double norm_type;
  Tensor weight;
};

/// Scales in place (without recording) each row of weight named in indices whose
/// norm_type-norm exceeds max_norm, by max_norm / (norm + 1e-7), as torch.embedding_renorm_.
void embedding_renorm_(const Tensor& weight, const Tensor& indices, double max_norm,
                       double norm_type);

}  // namespace tide::nn
