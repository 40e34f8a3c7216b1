#include "tide/nn/embedding.h"

#include <cmath>
#include <set>

#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::nn {

Embedding::Embedding(int64_t num_embeddings, int64_t embedding_dim,
                     std::optional<int64_t> padding_idx, std::optional<double> max_norm,
                     double norm_type)
    : num_embeddings(num_embeddings),
      embedding_dim(embedding_dim),
      max_norm(max_norm),
      norm_type(norm_type) {
  TIDE_CHECK(num_embeddings > 0 && embedding_dim > 0,
             "[nn::Embedding] expected positive num_embeddings and embedding_dim, found ",
             num_embeddings, " and ", embedding_dim, "; pass the table's rows and columns");
  if (padding_idx) {
    // torch's checks: within [-num_embeddings, num_embeddings), negative counted from the end
    TIDE_CHECK(*padding_idx < num_embeddings && *padding_idx >= -num_embeddings,
               "[nn::Embedding] expected padding_idx within num_embeddings (", num_embeddings,
               "), found ", *padding_idx, "; Padding_idx must be within num_embeddings");
    this->padding_idx = *padding_idx < 0 ? *padding_idx + num_embeddings : *padding_idx;
  }
  reset();
  reset_parameters();
}

void Embedding::reset() {
  weight = register_parameter("weight", empty({num_embeddings, embedding_dim}));
}

void Embedding::reset_parameters() {
  NoGradGuard no_grad;
  weight.normal_(0, 1);
  if (padding_idx) weight.select(0, *padding_idx).zero_();
}

Tensor Embedding::forward(const Tensor& indices) {
  if (max_norm) embedding_renorm_(weight, indices, *max_norm, norm_type);
  return embedding(weight, indices, padding_idx.value_or(-1));
}

void embedding_renorm_(const Tensor& weight, const Tensor& indices, double max_norm,
                       double norm_type) {
  NoGradGuard no_grad;
  // Each row once, however often it is looked up (torch sorts and deduplicates too).
  const std::vector<int64_t> ids = indices.to(kInt64).cpu().contiguous().tolist<int64_t>();
  for (int64_t id : std::set<int64_t>(ids.begin(), ids.end())) {
    Tensor row = weight.select(0, id);
    const Tensor magnitude = row.abs().to(kFloat64);
    double norm;
    if (std::isinf(norm_type)) {
      norm = magnitude.max().item<double>();
    } else {
      norm = std::pow(magnitude.pow(norm_type).sum().item<double>(), 1.0 / norm_type);
    }
    if (norm > max_norm) row.mul_(max_norm / (norm + 1e-7));
  }
}

}  // namespace tide::nn
