#pragma once
// Ops as free functions, named as torch.* and torch.nn.functional.*. They run on the device of
// their operands, never on the current device; operands on two devices are an error.

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "tide/tensor.h"

namespace tide {

// Every declaration between "@generated" lines comes from the op table (src/ops/ops.yaml,
// docs/op-table.md); the rest is written by hand.

// elementwise (the out variants write into a preallocated `out` of the broadcast shape and
// result dtype)
// @generated begin function-declarations elementwise (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor neg(const Tensor& self);
Tensor abs(const Tensor& self);
Tensor exp(const Tensor& self);
Tensor log(const Tensor& self);
Tensor sqrt(const Tensor& self);
Tensor relu(const Tensor& self);
Tensor sigmoid(const Tensor& self);
Tensor tanh(const Tensor& self);
Tensor add(const Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor add(const Tensor& self, Scalar other, Scalar alpha = 1);
Tensor sub(const Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor sub(const Tensor& self, Scalar other, Scalar alpha = 1);
Tensor mul(const Tensor& self, const Tensor& other);
Tensor mul(const Tensor& self, Scalar other);
Tensor div(const Tensor& self, const Tensor& other);
Tensor div(const Tensor& self, Scalar other);
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor pow(const Tensor& self, const Tensor& exponent);
Tensor pow(const Tensor& self, Scalar exponent);
Tensor pow(Scalar self, const Tensor& exponent);
Tensor maximum(const Tensor& self, const Tensor& other);
Tensor minimum(const Tensor& self, const Tensor& other);
Tensor eq(const Tensor& self, const Tensor& other);
Tensor eq(const Tensor& self, Scalar other);
Tensor ne(const Tensor& self, const Tensor& other);
Tensor ne(const Tensor& self, Scalar other);
Tensor lt(const Tensor& self, const Tensor& other);
Tensor lt(const Tensor& self, Scalar other);
Tensor le(const Tensor& self, const Tensor& other);
Tensor le(const Tensor& self, Scalar other);
Tensor gt(const Tensor& self, const Tensor& other);
Tensor gt(const Tensor& self, Scalar other);
Tensor ge(const Tensor& self, const Tensor& other);
Tensor ge(const Tensor& self, Scalar other);
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, Scalar other);
Tensor where(const Tensor& condition, Scalar self, const Tensor& other);
Tensor clamp(const Tensor& self, std::optional<Scalar> min,
             std::optional<Scalar> max = std::nullopt);
// @generated end function-declarations elementwise

// reductions
// @generated begin function-declarations reductions (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor sum(const Tensor& self, std::optional<Dtype> dtype = std::nullopt);
Tensor sum(const Tensor& self, int64_t dim, bool keepdim = false,
           std::optional<Dtype> dtype = std::nullopt);
Tensor sum(const Tensor& self, std::vector<int64_t> dims, bool keepdim = false,
           std::optional<Dtype> dtype = std::nullopt);
Tensor mean(const Tensor& self, std::optional<Dtype> dtype = std::nullopt);
Tensor mean(const Tensor& self, int64_t dim, bool keepdim = false,
            std::optional<Dtype> dtype = std::nullopt);
Tensor mean(const Tensor& self, std::vector<int64_t> dims, bool keepdim = false,
            std::optional<Dtype> dtype = std::nullopt);
Tensor max(const Tensor& self);
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor min(const Tensor& self);
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor argmax(const Tensor& self);
Tensor argmax(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor argmin(const Tensor& self);
Tensor argmin(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor& sum_out(Tensor& out, const Tensor& self);
// @generated end function-declarations reductions

// linear algebra
// @generated begin function-declarations linalg (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, Scalar beta = 1,
             Scalar alpha = 1);
// @generated end function-declarations linalg
/// Whether float32 matrix products on GPUs may use TF32 tensor cores, as torch: "highest"
/// (never, the default), "high" or "medium" (they may; tide treats "medium" as "high"). cpu
/// products ignore it. Any other value throws tide::Error and leaves the setting unchanged.
void set_float32_matmul_precision(const std::string& precision);
/// The current setting: "highest", "high" or "medium".
std::string get_float32_matmul_precision();

// shape
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0);
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim = 0);
std::vector<Tensor> chunk(const Tensor& a, int64_t chunks, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& a, int64_t split_size, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& a, std::vector<int64_t> split_sizes, int64_t dim = 0);
Tensor index_select(const Tensor& a, int64_t dim, const Tensor& index);

// nn.functional
/// input @ weight.t() + bias (bias may be undefined): nn::Linear's computation. Shapes are
/// checked by the matrix product it calls (nn::Linear checks them first, in its own words).
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});
// @generated begin function-declarations nn (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor softmax(const Tensor& self, int64_t dim);
Tensor log_softmax(const Tensor& self, int64_t dim);
// @generated end function-declarations nn
enum class Reduction { None, Mean, Sum };
// @generated begin function-declarations losses (scripts/gen_ops.py from src/ops/ops.yaml)
/// self (N, C) or (C,) log-probabilities; target (N,) or () class indices (int64).
Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                Reduction reduction = Reduction::Mean, int64_t ignore_index = -100);
/// self (N, C, ...) or (C,) logits; target class indices (int64, shape without the class
/// dim) or class probabilities (floating, self's shape). log_softmax then nll_loss, or the
/// weighted sum of -p log q for probabilities; label_smoothing mixes in the uniform target.
Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                     Reduction reduction = Reduction::Mean, int64_t ignore_index = -100,
                     double label_smoothing = 0.0);
/// (self - target)^2, broadcast as torch does, reduced by `reduction`.
Tensor mse_loss(const Tensor& self, const Tensor& target, Reduction reduction = Reduction::Mean);
/// |self - target|, reduced by `reduction`.
Tensor l1_loss(const Tensor& self, const Tensor& target, Reduction reduction = Reduction::Mean);
/// 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = self - target); beta 0 is l1_loss.
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target,
                      Reduction reduction = Reduction::Mean, double beta = 1.0);
/// 0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta) (d = self - target).
Tensor huber_loss(const Tensor& self, const Tensor& target, Reduction reduction = Reduction::Mean,
                  double delta = 1.0);
/// -w (t log p + (1 - t) log(1 - p)), each log clamped to >= -100 as torch; p in [0, 1].
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                            Reduction reduction = Reduction::Mean);
/// binary_cross_entropy(sigmoid(self), target), computed stably; pos_weight scales t log p.
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const Tensor& weight = {}, const Tensor& pos_weight = {},
                                        Reduction reduction = Reduction::Mean);
/// target (log target - self) pointwise (self: log-probabilities); Mean averages every element.
Tensor kl_div(const Tensor& self, const Tensor& target, Reduction reduction = Reduction::Mean,
              bool log_target = false);
/// max(0, -target (input1 - input2) + margin).
Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                           double margin = 0.0, Reduction reduction = Reduction::Mean);
/// 1 - cos(input1, input2) where target is 1, max(0, cos - margin) where it is -1.
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                             double margin = 0.0, Reduction reduction = Reduction::Mean);
// @generated end function-declarations losses
// @generated begin function-declarations activations (scripts/gen_ops.py from src/ops/ops.yaml)
/// x Phi(x) (approximate "none", through erf) or its tanh approximation ("tanh").
Tensor gelu(const Tensor& self, const std::string& approximate = "none");
/// x sigmoid(x).
Tensor silu(const Tensor& self);
/// x tanh(softplus(x)).
Tensor mish(const Tensor& self);
/// log(1 + exp(beta x)) / beta, or x where beta x > threshold.
Tensor softplus(const Tensor& self, double beta = 1.0, double threshold = 20.0);
/// x where x > 0, else negative_slope x.
Tensor leaky_relu(const Tensor& self, double negative_slope = 0.01);
/// scale x where x > 0, else scale alpha (exp(input_scale x) - 1).
Tensor elu(const Tensor& self, double alpha = 1.0, double scale = 1.0, double input_scale = 1.0);
/// x clamped to [min_val, max_val].
Tensor hardtanh(const Tensor& self, double min_val = -1.0, double max_val = 1.0);
/// x where x > 0, else weight x; weight has 1 or C (= self.size(1)) elements.
Tensor prelu(const Tensor& self, const Tensor& weight);
// @generated end function-declarations activations
// @generated begin function-declarations layers (scripts/gen_ops.py from src/ops/ops.yaml)
/// Normalizes over the last len(normalized_shape) dims (biased variance), then weight and bias.
Tensor layer_norm(const Tensor& self, std::vector<int64_t> normalized_shape,
                  const Tensor& weight = {}, const Tensor& bias = {}, double eps = 1e-05);
/// self (N, C, ...): normalizes each of num_groups channel groups, then per-channel weight, bias.
Tensor group_norm(const Tensor& self, int64_t num_groups, const Tensor& weight = {},
                  const Tensor& bias = {}, double eps = 1e-05);
/// weight's rows at indices (shape indices.shape + (D,)); padding_idx's row gets no gradient (-1: none).
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1);
/// int64 indices to int64 one-hot rows of num_classes (-1: max + 1) in a new last dim.
Tensor one_hot(const Tensor& self, int64_t num_classes = -1);
/// self / max(norm_p(self, dim), eps).
Tensor normalize(const Tensor& self, double p = 2.0, int64_t dim = 1, double eps = 1e-12);
/// sum(x1 x2, dim) / sqrt(max(|x1|^2 |x2|^2, eps^2)), broadcast.
Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim = 1, double eps = 1e-08);
/// norm_p(x1 - x2 + eps) over the last dim.
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p = 2.0, double eps = 1e-06,
                         bool keepdim = false);
// @generated end function-declarations layers
/// In training, zeroes each element with probability p (a Philox mask from the input's
/// device) and scales the others by 1/(1-p); otherwise returns the input. p in [0, 1].
Tensor dropout(const Tensor& input, double p = 0.5, bool training = true);

}  // namespace tide
