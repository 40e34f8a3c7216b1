#pragma once
// The interface the op front ends (src/ops, src/tensor) call into autograd.
//
// Note [Autograd hooks]: autograd sits above ops (DESIGN.md layers), yet torch's semantics
// need every op — a free function, a method, a view — to record itself when an operand
// requires grad. Two designs fit: autograd defines the public ops and wraps kernels-only
// front ends (a second name for every op, and a rename across src/ops that every other branch
// touching an op would conflict with), or each front end starts with one line:
//
//   if (TIDE_UNLIKELY(autograd::recording(a, b))) return autograd::traced::add(a, b, alpha);
//
// tide takes the second. recording() reads only each operand's AutogradMeta and view_base
// pointers (Note [Autograd metadata]), a view's base's AutogradMeta pointer, and only when one
// is set the thread's grad mode — the hot path stays two adjacent loads and compares per
// operand (three for a view). traced::add (autograd/traced_*.cpp) runs the very same
// front end with grad mode off (so the hook does not fire again and the forward result is
// bit-identical to an unrecorded call), then records the node with its derivative. Ops built
// from other ops (cross_entropy, stack, chunk, flatten, ...) need no hook: their parts record.
// The ops of the op table (src/ops/ops.yaml) no longer carry the line by hand: the generator
// writes it into their front ends as the op entry, detail::op_intercepted (Note [Op entry] in
// ops/op_entry.h), which reads grad mode from the same mode word as recording() below. Every
// op front end is in the table now, views, copies and fills included (a method-only op's front
// end is the generated method): none calls recording() itself.

#include <optional>
#include <tuple>
#include <vector>

#include "ops/op_entry.h"
#include "tide/autograd.h"
#include "tide/macros.h"
#include "tide/ops.h"
#include "tide/tensor.h"

namespace tide::autograd {

/// Whether autograd must look at `t` (Note [Op entry]).
inline bool has_meta(const Tensor& t) { return detail::has_autograd_meta(t); }

/// Whether an op with these operands must go through autograd (see the Note above).
template <class... T>
inline bool recording(const T&... operands) {
  return (has_meta(operands) || ...) && (detail::op_mode_word & detail::kGradRecordingMode) != 0;
}

namespace traced {

// The op table's differentiable ops, by family (their derivatives: traced_*.cpp).
// @generated begin traced-declarations elementwise (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor neg(const Tensor& self);
Tensor& neg_(Tensor& self);
Tensor abs(const Tensor& self);
Tensor& abs_(Tensor& self);
Tensor exp(const Tensor& self);
Tensor& exp_(Tensor& self);
Tensor log(const Tensor& self);
Tensor& log_(Tensor& self);
Tensor sqrt(const Tensor& self);
Tensor& sqrt_(Tensor& self);
Tensor relu(const Tensor& self);
Tensor& relu_(Tensor& self);
Tensor sigmoid(const Tensor& self);
Tensor& sigmoid_(Tensor& self);
Tensor tanh(const Tensor& self);
Tensor& tanh_(Tensor& self);
Tensor sin(const Tensor& self);
Tensor& sin_(Tensor& self);
Tensor add(const Tensor& self, const Tensor& other, Scalar alpha);
Tensor add(const Tensor& self, Scalar other, Scalar alpha);
Tensor sub(const Tensor& self, const Tensor& other, Scalar alpha);
Tensor sub(const Tensor& self, Scalar other, Scalar alpha);
Tensor mul(const Tensor& self, const Tensor& other);
Tensor mul(const Tensor& self, Scalar other);
Tensor div(const Tensor& self, const Tensor& other);
Tensor div(const Tensor& self, Scalar other);
Tensor pow(const Tensor& self, const Tensor& exponent);
Tensor pow(const Tensor& self, Scalar exponent);
Tensor pow(Scalar self, const Tensor& exponent);
Tensor maximum(const Tensor& self, const Tensor& other);
Tensor minimum(const Tensor& self, const Tensor& other);
Tensor atan2(const Tensor& self, const Tensor& other);
Tensor& atan2_(Tensor& self, const Tensor& other);
Tensor rsub(const Tensor& self, Scalar other, Scalar alpha);
Tensor rdiv(const Tensor& self, Scalar other);
Tensor& add_(Tensor& self, const Tensor& other, Scalar alpha);
Tensor& add_(Tensor& self, Scalar other, Scalar alpha);
Tensor& sub_(Tensor& self, const Tensor& other, Scalar alpha);
Tensor& sub_(Tensor& self, Scalar other, Scalar alpha);
Tensor& mul_(Tensor& self, const Tensor& other);
Tensor& mul_(Tensor& self, Scalar other);
Tensor& div_(Tensor& self, const Tensor& other);
Tensor& div_(Tensor& self, Scalar other);
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, Scalar other);
Tensor where(const Tensor& condition, Scalar self, const Tensor& other);
Tensor clamp(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max);
Tensor& clamp_(Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max);
Tensor lerp(const Tensor& self, const Tensor& end, Scalar weight);
Tensor& lerp_(Tensor& self, const Tensor& end, Scalar weight);
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, Scalar threshold);
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight);
Tensor& lerp_(Tensor& self, const Tensor& end, const Tensor& weight);
Tensor cos(const Tensor& self);
Tensor& cos_(Tensor& self);
Tensor tan(const Tensor& self);
Tensor& tan_(Tensor& self);
Tensor asin(const Tensor& self);
Tensor& asin_(Tensor& self);
Tensor acos(const Tensor& self);
Tensor& acos_(Tensor& self);
Tensor atan(const Tensor& self);
Tensor& atan_(Tensor& self);
Tensor sinh(const Tensor& self);
Tensor& sinh_(Tensor& self);
Tensor cosh(const Tensor& self);
Tensor& cosh_(Tensor& self);
Tensor asinh(const Tensor& self);
Tensor& asinh_(Tensor& self);
Tensor acosh(const Tensor& self);
Tensor& acosh_(Tensor& self);
Tensor atanh(const Tensor& self);
Tensor& atanh_(Tensor& self);
Tensor exp2(const Tensor& self);
Tensor& exp2_(Tensor& self);
Tensor expm1(const Tensor& self);
Tensor& expm1_(Tensor& self);
Tensor log2(const Tensor& self);
Tensor& log2_(Tensor& self);
Tensor log10(const Tensor& self);
Tensor& log10_(Tensor& self);
Tensor log1p(const Tensor& self);
Tensor& log1p_(Tensor& self);
Tensor rsqrt(const Tensor& self);
Tensor& rsqrt_(Tensor& self);
Tensor reciprocal(const Tensor& self);
Tensor& reciprocal_(Tensor& self);
Tensor erf(const Tensor& self);
Tensor& erf_(Tensor& self);
Tensor erfc(const Tensor& self);
Tensor& erfc_(Tensor& self);
Tensor erfinv(const Tensor& self);
Tensor& erfinv_(Tensor& self);
Tensor sign(const Tensor& self);
Tensor& sign_(Tensor& self);
Tensor sgn(const Tensor& self);
Tensor& sgn_(Tensor& self);
Tensor floor(const Tensor& self);
Tensor& floor_(Tensor& self);
Tensor ceil(const Tensor& self);
Tensor& ceil_(Tensor& self);
Tensor round(const Tensor& self);
Tensor& round_(Tensor& self);
Tensor trunc(const Tensor& self);
Tensor& trunc_(Tensor& self);
Tensor frac(const Tensor& self);
Tensor& frac_(Tensor& self);
Tensor square(const Tensor& self);
Tensor& square_(Tensor& self);
Tensor fmod(const Tensor& self, const Tensor& other);
Tensor& fmod_(Tensor& self, const Tensor& other);
Tensor fmod(const Tensor& self, Scalar other);
Tensor& fmod_(Tensor& self, Scalar other);
Tensor remainder(const Tensor& self, const Tensor& other);
Tensor& remainder_(Tensor& self, const Tensor& other);
Tensor remainder(const Tensor& self, Scalar other);
Tensor& remainder_(Tensor& self, Scalar other);
Tensor fmax(const Tensor& self, const Tensor& other);
Tensor fmin(const Tensor& self, const Tensor& other);
Tensor hypot(const Tensor& self, const Tensor& other);
Tensor& hypot_(Tensor& self, const Tensor& other);
Tensor logaddexp(const Tensor& self, const Tensor& other);
Tensor copysign(const Tensor& self, const Tensor& other);
Tensor& copysign_(Tensor& self, const Tensor& other);
Tensor copysign(const Tensor& self, Scalar other);
Tensor& copysign_(Tensor& self, Scalar other);
Tensor clamp(const Tensor& self, const Tensor& min, const Tensor& max);
Tensor& clamp_(Tensor& self, const Tensor& min, const Tensor& max);
Tensor clamp_min(const Tensor& self, const Tensor& min);
Tensor& clamp_min_(Tensor& self, const Tensor& min);
Tensor clamp_max(const Tensor& self, const Tensor& max);
Tensor& clamp_max_(Tensor& self, const Tensor& max);
Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, Scalar value);
Tensor& addcmul_(Tensor& self, const Tensor& tensor1, const Tensor& tensor2, Scalar value);
Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, Scalar value);
Tensor& addcdiv_(Tensor& self, const Tensor& tensor1, const Tensor& tensor2, Scalar value);
Tensor lgamma(const Tensor& self);
Tensor& lgamma_(Tensor& self);
Tensor digamma(const Tensor& self);
Tensor& digamma_(Tensor& self);
Tensor sinc(const Tensor& self);
Tensor& sinc_(Tensor& self);
Tensor xlogy(const Tensor& self, const Tensor& other);
Tensor& xlogy_(Tensor& self, const Tensor& other);
Tensor logaddexp2(const Tensor& self, const Tensor& other);
Tensor rsub(const Tensor& self, const Tensor& other, Scalar alpha);
Tensor& pow_(Tensor& self, const Tensor& exponent);
Tensor& pow_(Tensor& self, Scalar exponent);
// @generated end traced-declarations elementwise
// @generated begin traced-declarations reductions (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor sum(const Tensor& self, std::optional<Dtype> dtype);
Tensor sum(const Tensor& self, std::vector<int64_t> dims, bool keepdim, std::optional<Dtype> dtype);
Tensor mean(const Tensor& self, std::optional<Dtype> dtype);
Tensor mean(const Tensor& self, std::vector<int64_t> dims, bool keepdim,
            std::optional<Dtype> dtype);
Tensor max(const Tensor& self);
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim);
Tensor min(const Tensor& self);
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim);
Tensor prod(const Tensor& self, std::optional<Dtype> dtype);
Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<Dtype> dtype);
Tensor amax(const Tensor& self, std::vector<int64_t> dim, bool keepdim);
Tensor amin(const Tensor& self, std::vector<int64_t> dim, bool keepdim);
Tensor linalg_vector_norm(const Tensor& self, Scalar ord, std::vector<int64_t> dim, bool keepdim,
                          std::optional<Dtype> dtype);
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<Dtype> dtype);
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<Dtype> dtype);
std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim);
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim);
std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending);
std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                bool sorted);
std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim, bool keepdim);
Tensor median(const Tensor& self);
std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim);
std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim, bool keepdim);
// @generated end traced-declarations reductions
// @generated begin traced-declarations linalg (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, Scalar beta, Scalar alpha);
// @generated end traced-declarations linalg
// @generated begin traced-declarations nn (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor softmax(const Tensor& self, int64_t dim);
Tensor log_softmax(const Tensor& self, int64_t dim);
// @generated end traced-declarations nn
// @generated begin traced-declarations convolution (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups);
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              PaddingMode padding, IntArrayRef dilation, int64_t groups);
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups);
// @generated end traced-declarations convolution
// @generated begin traced-declarations pooling (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode);
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode);
Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override);
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size);
// @generated end traced-declarations pooling
// @generated begin traced-declarations normalization (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  const Tensor& running_mean, const Tensor& running_var, bool training,
                  double momentum, double eps, bool cudnn_enabled);
// @generated end traced-declarations normalization
// @generated begin traced-declarations shape (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim);
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
// @generated end traced-declarations shape
// @generated begin traced-declarations views (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor view(const Tensor& self, std::vector<int64_t> sizes);
Tensor reshape(const Tensor& self, std::vector<int64_t> sizes);
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor permute(const Tensor& self, std::vector<int64_t> dims);
Tensor select(const Tensor& self, int64_t dim, int64_t index);
Tensor unsqueeze(const Tensor& self, int64_t dim);
Tensor squeeze(const Tensor& self);
Tensor squeeze(const Tensor& self, int64_t dim);
Tensor expand(const Tensor& self, std::vector<int64_t> sizes);
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> stop, int64_t step);
// @generated end traced-declarations views
// @generated begin traced-declarations copies (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor to(const Tensor& self, const TensorOptions& options, bool non_blocking, bool copy);
Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking);
Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format);
// @generated end traced-declarations copies
// @generated begin traced-declarations fills (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor& fill_(Tensor& self, Scalar value);
Tensor& fill_(Tensor& self, const Tensor& value);
Tensor& normal_(Tensor& self, double mean, double std);
Tensor& uniform_(Tensor& self, double from, double to);
// @generated end traced-declarations fills

/// out= variants: torch refuses them when an operand requires grad.
void check_out_variant(const char* op);

// nn.functional
// @generated begin traced-declarations losses (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight, Reduction reduction,
                int64_t ignore_index);
// @generated end traced-declarations losses
// @generated begin traced-declarations activations (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor gelu_erf(const Tensor& self);
// @generated end traced-declarations activations
// @generated begin traced-declarations indexing (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor take(const Tensor& self, const Tensor& index);
Tensor& put_(Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);
// @generated end traced-declarations indexing

}  // namespace traced
}  // namespace tide::autograd
