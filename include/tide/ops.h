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
// @generated begin function-declarations shape (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0);
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim = 0);
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& self, std::vector<int64_t> split_sizes, int64_t dim = 0);
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
// @generated end function-declarations shape

// nn.functional
// @generated begin function-declarations nn (scripts/gen_ops.py from src/ops/ops.yaml)
/// input @ weight.t() + bias (bias may be undefined): nn::Linear's computation. Shapes are
/// checked by the matrix product it calls (nn::Linear checks them first, in its own words).
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});
/// In training, zeroes each element with probability p (a Philox mask from the input's
/// device) and scales the others by 1/(1-p); otherwise returns the input. p in [0, 1].
Tensor dropout(const Tensor& input, double p = 0.5, bool training = true);
Tensor softmax(const Tensor& self, int64_t dim);
Tensor log_softmax(const Tensor& self, int64_t dim);
// @generated end function-declarations nn
enum class Reduction { None, Mean, Sum };
/// input (N, C) or (C,) log-probabilities; target (N,) or () class indices (int64).
Tensor nll_loss(const Tensor& input, const Tensor& target, const Tensor& weight = {},
                Reduction reduction = Reduction::Mean, int64_t ignore_index = -100);
Tensor cross_entropy(const Tensor& input, const Tensor& target, const Tensor& weight = {},
                     Reduction reduction = Reduction::Mean, int64_t ignore_index = -100);
/// (input - target)^2, broadcast as torch does, reduced by `reduction` (a composition of
/// sub, mul and sum/mean, so autograd differentiates it).
Tensor mse_loss(const Tensor& input, const Tensor& target, Reduction reduction = Reduction::Mean);

}  // namespace tide
