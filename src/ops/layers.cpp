// nn layers' functional forms (the op table's `layers:` family): layer_norm, group_norm,
// embedding, one_hot, normalize, cosine_similarity, pairwise_distance. Each composes table ops,
// so autograd differentiates it through its parts (Note [Losses as compositions] in ops.yaml);
// formulas and checks follow torch 1.13.

#include <string>
#include <vector>

#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

/// (x - mean) / sqrt(var + eps) over `dims` (biased variance, as torch's norms).
Tensor standardize(const Tensor& x, const std::vector<int64_t>& dims, double eps) {
  const Tensor centered = x - x.mean(dims, /*keepdim=*/true);
  const Tensor var = (centered * centered).mean(dims, /*keepdim=*/true);
  return centered / sqrt(var + Scalar(eps));
}

/// |x|_p over `dim`: the 2-norm as sqrt(sum(x^2)), others as sum(|x|^p)^(1/p).
Tensor vector_norm(const Tensor& x, double p, int64_t dim, bool keepdim) {
  if (p == 2.0) return sqrt((x * x).sum(dim, keepdim));
  if (p == 1.0) return abs(x).sum(dim, keepdim);
  return pow(pow(abs(x), Scalar(p)).sum(dim, keepdim), Scalar(1.0 / p));
}

}  // namespace

Tensor plain_layer_norm(const Tensor& self, const std::vector<int64_t>& normalized_shape,
                        const Tensor& weight, const Tensor& bias, double eps) {
  check_defined(self, "layer_norm", "input");
  const auto k = static_cast<int64_t>(normalized_shape.size());
  bool matches = k >= 1 && k <= self.dim();
  for (int64_t i = 0; matches && i < k; ++i)
    matches = self.shape()[self.dim() - k + i] == normalized_shape[static_cast<size_t>(i)];
  TIDE_CHECK(matches, "[layer_norm] Given normalized_shape=", shape_str(DimVector(normalized_shape)),
             ", expected input with shape [*, ...normalized_shape], but got input of size ",
             shape_str(self.shape()), "; normalized_shape names the input's last dims");
  for (const Tensor* t : {&weight, &bias}) {
    TIDE_CHECK(!t->defined() || t->shape() == DimVector(normalized_shape),
               "[layer_norm] Expected weight and bias of shape ",
               shape_str(DimVector(normalized_shape)), ", found ", shape_str(t->shape()));
  }
  std::vector<int64_t> dims;
  for (int64_t d = self.dim() - k; d < self.dim(); ++d) dims.push_back(d);
  Tensor y = standardize(self, dims, eps);
  if (weight.defined()) y = y * weight;
  if (bias.defined()) y = y + bias;
  return y;
}

Tensor plain_group_norm(const Tensor& self, int64_t num_groups, const Tensor& weight,
                        const Tensor& bias, double eps) {
  check_defined(self, "group_norm", "input");
  TIDE_CHECK(self.dim() >= 2, "[group_norm] Expected at least 2 dimensions for input tensor but "
             "received ", self.dim(), "; pass (N, C, ...)");
  const int64_t n = self.shape()[0], channels = self.shape()[1];
  TIDE_CHECK(num_groups > 0 && channels % num_groups == 0,
             "[group_norm] Expected number of channels in input to be divisible by num_groups, "
             "but got input of shape ", shape_str(self.shape()), " and num_groups=", num_groups);
  for (const Tensor* t : {&weight, &bias}) {
    TIDE_CHECK(!t->defined() || (t->dim() == 1 && t->numel() == channels),
               "[group_norm] Expected weight and bias to be vectors of size ", channels,
               ", found ", shape_str(t->shape()));
  }
  std::vector<int64_t> sizes(self.shape().begin(), self.shape().end());
  Tensor y = standardize(self.reshape({n, num_groups, -1}), {2}, eps).reshape(sizes);
  std::vector<int64_t> per_channel(sizes.size(), 1);
  per_channel[1] = channels;
  if (weight.defined()) y = y * weight.view(per_channel);
  if (bias.defined()) y = y + bias.view(per_channel);
  return y;
}

Tensor plain_embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx) {
  check_defined(weight, "embedding", "weight");
  check_defined(indices, "embedding", "indices");
  TIDE_CHECK(indices.dtype() == kInt64 || indices.dtype() == kInt32,
             "[embedding] Expected tensor for argument #1 'indices' to have one of the following "
             "scalar types: Long, Int; but got ", torch_type_name(indices.dtype()),
             " instead; pass indices as int64");
  TIDE_CHECK(weight.dim() == 2, "[embedding] 'weight' must be 2-D, found ",
             shape_str(weight.shape()));
  std::vector<int64_t> sizes(indices.shape().begin(), indices.shape().end());
  sizes.push_back(weight.shape()[1]);
  Tensor rows = index_select(weight, 0, indices.reshape({-1})).reshape(sizes);
  if (padding_idx < 0) return rows;
  // torch's embedding_backward skips padding_idx: the detached branch carries no gradient.
  const Tensor padding = eq(indices, Scalar(padding_idx)).unsqueeze(-1);
  return where(padding, rows.detach(), rows);
}

Tensor plain_one_hot(const Tensor& self, int64_t num_classes) {
  check_defined(self, "one_hot", "input");
  TIDE_CHECK(self.dtype() == kInt64, "[one_hot] one_hot is only applicable to index tensor. "
             "(found ", torch_type_name(self.dtype()), "); pass int64 class indices");
  if (self.numel() == 0) {
    TIDE_CHECK(num_classes > 0, "[one_hot] Can not infer total number of classes from empty "
               "tensor.; pass num_classes");
  } else {
    TIDE_CHECK(self.min().item<int64_t>() >= 0, "[one_hot] Class values must be non-negative.");
    const int64_t top = self.max().item<int64_t>();
    if (num_classes == -1) num_classes = top + 1;
    TIDE_CHECK(top < num_classes, "[one_hot] Class values must be smaller than num_classes.");
  }
  const Tensor classes = arange(num_classes, tide::device(self.device()).dtype(kInt64));
  return eq(self.unsqueeze(-1), classes).to(kInt64);
}

Tensor plain_normalize(const Tensor& self, double p, int64_t dim, double eps) {
  check_defined(self, "normalize", "input");
  return self / clamp(vector_norm(self, p, dim, /*keepdim=*/true), Scalar(eps), std::nullopt);
}

Tensor plain_cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim, double eps) {
  check_defined(x1, "cosine_similarity", "x1");
  check_defined(x2, "cosine_similarity", "x2");
  // scipy's form, as torch: x / sqrt(x * x) rather than x / (sqrt(x) * sqrt(x)).
  const Tensor w12 = (x1 * x2).sum(dim);
  const Tensor w1 = (x1 * x1).sum(dim), w2 = (x2 * x2).sum(dim);
  return w12 / sqrt(clamp(w1 * w2, Scalar(eps * eps), std::nullopt));
}

Tensor plain_pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps,
                               bool keepdim) {
  check_defined(x1, "pairwise_distance", "x1");
  check_defined(x2, "pairwise_distance", "x2");
  return vector_norm(x1 - x2 + Scalar(eps), p, -1, keepdim);
}

}  // namespace tide::detail
