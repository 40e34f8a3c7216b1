#pragma once
// Ops as free functions, named as torch.* and torch.nn.functional.*. They run on the device of
// their operands, never on the current device; operands on two devices are an error.

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "tide/int_array_ref.h"
#include "tide/padding_mode.h"
#include "tide/tensor.h"

namespace tide {

// Every declaration between "@generated" lines comes from the op table (src/ops/ops.yaml,
// docs/op-table.md); the rest is written by hand.

// elementwise (the out variants write into a preallocated `out` of the broadcast shape and
// result dtype)
// @generated begin function-declarations elementwise (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor neg(const Tensor& self);
Tensor& neg_out(Tensor& out, const Tensor& self);
Tensor negative(const Tensor& self);
Tensor& negative_out(Tensor& out, const Tensor& self);
Tensor abs(const Tensor& self);
Tensor& abs_out(Tensor& out, const Tensor& self);
Tensor absolute(const Tensor& self);
Tensor& absolute_out(Tensor& out, const Tensor& self);
Tensor exp(const Tensor& self);
Tensor& exp_out(Tensor& out, const Tensor& self);
Tensor log(const Tensor& self);
Tensor& log_out(Tensor& out, const Tensor& self);
Tensor sqrt(const Tensor& self);
Tensor& sqrt_out(Tensor& out, const Tensor& self);
Tensor relu(const Tensor& self);
Tensor sigmoid(const Tensor& self);
Tensor& sigmoid_out(Tensor& out, const Tensor& self);
Tensor tanh(const Tensor& self);
Tensor& tanh_out(Tensor& out, const Tensor& self);
Tensor sin(const Tensor& self);
Tensor& sin_out(Tensor& out, const Tensor& self);
Tensor add(const Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor add(const Tensor& self, Scalar other, Scalar alpha = 1);
Tensor sub(const Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor subtract(const Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor sub(const Tensor& self, Scalar other, Scalar alpha = 1);
Tensor subtract(const Tensor& self, Scalar other, Scalar alpha = 1);
Tensor mul(const Tensor& self, const Tensor& other);
Tensor multiply(const Tensor& self, const Tensor& other);
Tensor mul(const Tensor& self, Scalar other);
Tensor multiply(const Tensor& self, Scalar other);
Tensor div(const Tensor& self, const Tensor& other);
Tensor divide(const Tensor& self, const Tensor& other);
Tensor true_divide(const Tensor& self, const Tensor& other);
Tensor div(const Tensor& self, Scalar other);
Tensor divide(const Tensor& self, Scalar other);
Tensor true_divide(const Tensor& self, Scalar other);
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor pow(const Tensor& self, const Tensor& exponent);
Tensor pow(const Tensor& self, Scalar exponent);
Tensor pow(Scalar self, const Tensor& exponent);
Tensor maximum(const Tensor& self, const Tensor& other);
Tensor minimum(const Tensor& self, const Tensor& other);
Tensor atan2(const Tensor& self, const Tensor& other);
Tensor& atan2_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor arctan2(const Tensor& self, const Tensor& other);
Tensor& arctan2_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor rsub(const Tensor& self, Scalar other, Scalar alpha = 1);
Tensor eq(const Tensor& self, const Tensor& other);
Tensor eq(const Tensor& self, Scalar other);
Tensor ne(const Tensor& self, const Tensor& other);
Tensor not_equal(const Tensor& self, const Tensor& other);
Tensor ne(const Tensor& self, Scalar other);
Tensor not_equal(const Tensor& self, Scalar other);
Tensor lt(const Tensor& self, const Tensor& other);
Tensor less(const Tensor& self, const Tensor& other);
Tensor lt(const Tensor& self, Scalar other);
Tensor less(const Tensor& self, Scalar other);
Tensor le(const Tensor& self, const Tensor& other);
Tensor less_equal(const Tensor& self, const Tensor& other);
Tensor le(const Tensor& self, Scalar other);
Tensor less_equal(const Tensor& self, Scalar other);
Tensor gt(const Tensor& self, const Tensor& other);
Tensor greater(const Tensor& self, const Tensor& other);
Tensor gt(const Tensor& self, Scalar other);
Tensor greater(const Tensor& self, Scalar other);
Tensor ge(const Tensor& self, const Tensor& other);
Tensor greater_equal(const Tensor& self, const Tensor& other);
Tensor ge(const Tensor& self, Scalar other);
Tensor greater_equal(const Tensor& self, Scalar other);
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, Scalar other);
Tensor where(const Tensor& condition, Scalar self, const Tensor& other);
Tensor clamp(const Tensor& self, std::optional<Scalar> min,
             std::optional<Scalar> max = std::nullopt);
Tensor clip(const Tensor& self, std::optional<Scalar> min,
            std::optional<Scalar> max = std::nullopt);
Tensor lerp(const Tensor& self, const Tensor& end, Scalar weight);
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, Scalar weight);
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, Scalar threshold);
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight);
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight);
Tensor cos(const Tensor& self);
Tensor& cos_out(Tensor& out, const Tensor& self);
Tensor tan(const Tensor& self);
Tensor& tan_out(Tensor& out, const Tensor& self);
Tensor asin(const Tensor& self);
Tensor& asin_out(Tensor& out, const Tensor& self);
Tensor arcsin(const Tensor& self);
Tensor& arcsin_out(Tensor& out, const Tensor& self);
Tensor acos(const Tensor& self);
Tensor& acos_out(Tensor& out, const Tensor& self);
Tensor arccos(const Tensor& self);
Tensor& arccos_out(Tensor& out, const Tensor& self);
Tensor atan(const Tensor& self);
Tensor& atan_out(Tensor& out, const Tensor& self);
Tensor arctan(const Tensor& self);
Tensor& arctan_out(Tensor& out, const Tensor& self);
Tensor sinh(const Tensor& self);
Tensor& sinh_out(Tensor& out, const Tensor& self);
Tensor cosh(const Tensor& self);
Tensor& cosh_out(Tensor& out, const Tensor& self);
Tensor asinh(const Tensor& self);
Tensor& asinh_out(Tensor& out, const Tensor& self);
Tensor arcsinh(const Tensor& self);
Tensor& arcsinh_out(Tensor& out, const Tensor& self);
Tensor acosh(const Tensor& self);
Tensor& acosh_out(Tensor& out, const Tensor& self);
Tensor arccosh(const Tensor& self);
Tensor& arccosh_out(Tensor& out, const Tensor& self);
Tensor atanh(const Tensor& self);
Tensor& atanh_out(Tensor& out, const Tensor& self);
Tensor arctanh(const Tensor& self);
Tensor& arctanh_out(Tensor& out, const Tensor& self);
Tensor exp2(const Tensor& self);
Tensor& exp2_out(Tensor& out, const Tensor& self);
Tensor expm1(const Tensor& self);
Tensor& expm1_out(Tensor& out, const Tensor& self);
Tensor log2(const Tensor& self);
Tensor& log2_out(Tensor& out, const Tensor& self);
Tensor log10(const Tensor& self);
Tensor& log10_out(Tensor& out, const Tensor& self);
Tensor log1p(const Tensor& self);
Tensor& log1p_out(Tensor& out, const Tensor& self);
Tensor rsqrt(const Tensor& self);
Tensor& rsqrt_out(Tensor& out, const Tensor& self);
Tensor reciprocal(const Tensor& self);
Tensor& reciprocal_out(Tensor& out, const Tensor& self);
Tensor erf(const Tensor& self);
Tensor& erf_out(Tensor& out, const Tensor& self);
Tensor erfc(const Tensor& self);
Tensor& erfc_out(Tensor& out, const Tensor& self);
Tensor erfinv(const Tensor& self);
Tensor& erfinv_out(Tensor& out, const Tensor& self);
Tensor sign(const Tensor& self);
Tensor& sign_out(Tensor& out, const Tensor& self);
Tensor sgn(const Tensor& self);
Tensor& sgn_out(Tensor& out, const Tensor& self);
Tensor floor(const Tensor& self);
Tensor& floor_out(Tensor& out, const Tensor& self);
Tensor ceil(const Tensor& self);
Tensor& ceil_out(Tensor& out, const Tensor& self);
Tensor round(const Tensor& self);
Tensor& round_out(Tensor& out, const Tensor& self);
Tensor trunc(const Tensor& self);
Tensor& trunc_out(Tensor& out, const Tensor& self);
Tensor fix(const Tensor& self);
Tensor& fix_out(Tensor& out, const Tensor& self);
Tensor frac(const Tensor& self);
Tensor& frac_out(Tensor& out, const Tensor& self);
Tensor square(const Tensor& self);
Tensor& square_out(Tensor& out, const Tensor& self);
Tensor bitwise_not(const Tensor& self);
Tensor& bitwise_not_out(Tensor& out, const Tensor& self);
Tensor fmod(const Tensor& self, const Tensor& other);
Tensor& fmod_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor fmod(const Tensor& self, Scalar other);
Tensor remainder(const Tensor& self, const Tensor& other);
Tensor& remainder_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor remainder(const Tensor& self, Scalar other);
Tensor floor_divide(const Tensor& self, const Tensor& other);
Tensor& floor_divide_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor floor_divide(const Tensor& self, Scalar other);
Tensor fmax(const Tensor& self, const Tensor& other);
Tensor& fmax_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor fmin(const Tensor& self, const Tensor& other);
Tensor& fmin_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor hypot(const Tensor& self, const Tensor& other);
Tensor& hypot_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor logaddexp(const Tensor& self, const Tensor& other);
Tensor& logaddexp_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor copysign(const Tensor& self, const Tensor& other);
Tensor& copysign_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor copysign(const Tensor& self, Scalar other);
Tensor bitwise_and(const Tensor& self, const Tensor& other);
Tensor& bitwise_and_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor bitwise_and(const Tensor& self, Scalar other);
Tensor bitwise_or(const Tensor& self, const Tensor& other);
Tensor& bitwise_or_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor bitwise_or(const Tensor& self, Scalar other);
Tensor bitwise_xor(const Tensor& self, const Tensor& other);
Tensor& bitwise_xor_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor bitwise_xor(const Tensor& self, Scalar other);
Tensor bitwise_left_shift(const Tensor& self, const Tensor& other);
Tensor& bitwise_left_shift_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor bitwise_left_shift(const Tensor& self, Scalar other);
Tensor bitwise_right_shift(const Tensor& self, const Tensor& other);
Tensor& bitwise_right_shift_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor bitwise_right_shift(const Tensor& self, Scalar other);
Tensor logical_and(const Tensor& self, const Tensor& other);
Tensor logical_or(const Tensor& self, const Tensor& other);
Tensor logical_xor(const Tensor& self, const Tensor& other);
Tensor logical_not(const Tensor& self);
Tensor isnan(const Tensor& self);
Tensor isinf(const Tensor& self);
Tensor isfinite(const Tensor& self);
Tensor nan_to_num(const Tensor& self, std::optional<double> nan = std::nullopt,
                  std::optional<double> posinf = std::nullopt,
                  std::optional<double> neginf = std::nullopt);
Tensor clamp(const Tensor& self, const Tensor& min, const Tensor& max);
Tensor& clamp_out(Tensor& out, const Tensor& self, const Tensor& min, const Tensor& max);
Tensor clip(const Tensor& self, const Tensor& min, const Tensor& max);
Tensor& clip_out(Tensor& out, const Tensor& self, const Tensor& min, const Tensor& max);
Tensor clamp_min(const Tensor& self, const Tensor& min);
Tensor& clamp_min_out(Tensor& out, const Tensor& self, const Tensor& min);
Tensor clamp_max(const Tensor& self, const Tensor& max);
Tensor& clamp_max_out(Tensor& out, const Tensor& self, const Tensor& max);
Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, Scalar value = 1);
Tensor& addcmul_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    Scalar value = 1);
Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, Scalar value = 1);
Tensor& addcdiv_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    Scalar value = 1);
Tensor lgamma(const Tensor& self);
Tensor& lgamma_out(Tensor& out, const Tensor& self);
Tensor digamma(const Tensor& self);
Tensor& digamma_out(Tensor& out, const Tensor& self);
Tensor sinc(const Tensor& self);
Tensor& sinc_out(Tensor& out, const Tensor& self);
Tensor round(const Tensor& self, int64_t decimals);
Tensor logit(const Tensor& self, std::optional<double> eps = std::nullopt);
Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string> rounding_mode);
Tensor divide(const Tensor& self, const Tensor& other, std::optional<std::string> rounding_mode);
Tensor div(const Tensor& self, Scalar other, std::optional<std::string> rounding_mode);
Tensor divide(const Tensor& self, Scalar other, std::optional<std::string> rounding_mode);
Tensor deg2rad(const Tensor& self);
Tensor rad2deg(const Tensor& self);
Tensor float_power(const Tensor& self, const Tensor& exponent);
Tensor float_power(const Tensor& self, Scalar exponent);
Tensor ldexp(const Tensor& self, const Tensor& other);
Tensor xlogy(const Tensor& self, const Tensor& other);
Tensor& xlogy_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor logaddexp2(const Tensor& self, const Tensor& other);
Tensor& logaddexp2_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor heaviside(const Tensor& self, const Tensor& values);
Tensor& heaviside_out(Tensor& out, const Tensor& self, const Tensor& values);
Tensor gcd(const Tensor& self, const Tensor& other);
Tensor& gcd_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor lcm(const Tensor& self, const Tensor& other);
Tensor& lcm_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor nextafter(const Tensor& self, const Tensor& other);
Tensor& nextafter_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor signbit(const Tensor& self);
Tensor isposinf(const Tensor& self);
Tensor isneginf(const Tensor& self);
Tensor positive(const Tensor& self);
Tensor clamp_min(const Tensor& self, Scalar min);
Tensor clamp_max(const Tensor& self, Scalar max);
Tensor rsub(const Tensor& self, const Tensor& other, Scalar alpha = 1);
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
Tensor prod(const Tensor& self, std::optional<Dtype> dtype = std::nullopt);
Tensor prod(const Tensor& self, int64_t dim, bool keepdim = false,
            std::optional<Dtype> dtype = std::nullopt);
Tensor all(const Tensor& self);
Tensor all(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor any(const Tensor& self);
Tensor any(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor amax(const Tensor& self, std::vector<int64_t> dim = {}, bool keepdim = false);
Tensor amin(const Tensor& self, std::vector<int64_t> dim = {}, bool keepdim = false);
std::tuple<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt,
                                   bool keepdim = false);
Tensor var(const Tensor& self, bool unbiased = true);
Tensor var(const Tensor& self, std::vector<int64_t> dim, bool unbiased = true,
           bool keepdim = false);
Tensor var(const Tensor& self, std::vector<int64_t> dim, std::optional<int64_t> correction,
           bool keepdim = false);
Tensor std(const Tensor& self, bool unbiased = true);
Tensor std(const Tensor& self, std::vector<int64_t> dim, bool unbiased = true,
           bool keepdim = false);
Tensor std(const Tensor& self, std::vector<int64_t> dim, std::optional<int64_t> correction,
           bool keepdim = false);
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, std::vector<int64_t> dim,
                                    std::optional<int64_t> correction, bool keepdim = false);
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, std::vector<int64_t> dim,
                                    std::optional<int64_t> correction, bool keepdim = false);
Tensor linalg_vector_norm(const Tensor& self, Scalar ord = 2, std::vector<int64_t> dim = {},
                          bool keepdim = false, std::optional<Dtype> dtype = std::nullopt);
/// The matrix norm over two dims: ord 1, -1, inf or -inf (Note [Matrix norms]).
Tensor linalg_matrix_norm(const Tensor& self, Scalar ord, std::vector<int64_t> dim = {-2, -1},
                          bool keepdim = false, std::optional<Dtype> dtype = std::nullopt);
Tensor linalg_matrix_norm(const Tensor& self, const std::string& ord = "fro",
                          std::vector<int64_t> dim = {-2, -1}, bool keepdim = false,
                          std::optional<Dtype> dtype = std::nullopt);
/// A vector norm over one dim (over every element when ord and dim are None), a matrix norm over two (Note [Matrix norms]).
Tensor linalg_norm(const Tensor& self, std::optional<Scalar> ord = std::nullopt,
                   std::optional<std::vector<int64_t>> dim = std::nullopt, bool keepdim = false,
                   std::optional<Dtype> dtype = std::nullopt);
Tensor linalg_norm(const Tensor& self, const std::string& ord,
                   std::optional<std::vector<int64_t>> dim = std::nullopt, bool keepdim = false,
                   std::optional<Dtype> dtype = std::nullopt);
Tensor norm(const Tensor& self, Scalar p = 2);
Tensor norm(const Tensor& self, std::optional<Scalar> p, std::vector<int64_t> dim,
            bool keepdim = false);
Tensor logsumexp(const Tensor& self, std::vector<int64_t> dim, bool keepdim = false);
Tensor count_nonzero(const Tensor& self, std::vector<int64_t> dim = {});
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<Dtype> dtype = std::nullopt);
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<Dtype> dtype = std::nullopt);
std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim);
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim);
/// The values along dim in order and their positions; stable (equal values keep their order), NaN largest.
std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim = -1, bool descending = false);
Tensor argsort(const Tensor& self, int64_t dim = -1, bool descending = false);
std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim = -1,
                                bool largest = true, bool sorted = true);
std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim = -1,
                                    bool keepdim = false);
Tensor median(const Tensor& self);
std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim = -1, bool keepdim = false);
Tensor isclose(const Tensor& self, const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
               bool equal_nan = false);
bool allclose(const Tensor& self, const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
              bool equal_nan = false);
bool equal(const Tensor& self, const Tensor& other);
/// torch's _unique2 over the flattened input: (values, inverse, counts), the last two empty unless asked for.
std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& self, bool sorted = true,
                                          bool return_inverse = false, bool return_counts = false);
Tensor bincount(const Tensor& self, const Tensor& weights = {}, int64_t minlength = 0);
Tensor histc(const Tensor& self, int64_t bins = 100, Scalar min = 0, Scalar max = 0);
// @generated end function-declarations reductions

// linear algebra
// @generated begin function-declarations linalg (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, Scalar beta = 1,
             Scalar alpha = 1);
/// The inner product of two 1-D tensors of one dtype.
Tensor dot(const Tensor& self, const Tensor& tensor);
/// dot (tide has no complex dtypes, so nothing is conjugated).
Tensor vdot(const Tensor& self, const Tensor& other);
/// The product of an (n, m) matrix and an (m,) vector.
Tensor mv(const Tensor& self, const Tensor& vec);
/// out[i][j] = self[i] * vec2[j] for 1-D self and vec2.
Tensor outer(const Tensor& self, const Tensor& vec2);
/// outer's older name.
Tensor ger(const Tensor& self, const Tensor& vec2);
/// Sums over the last dim of both (a scalar operand multiplies).
Tensor inner(const Tensor& self, const Tensor& other);
/// beta self + alpha mat @ vec.
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, Scalar beta = 1,
             Scalar alpha = 1);
/// beta self + alpha outer(vec1, vec2).
Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, Scalar beta = 1,
            Scalar alpha = 1);
/// beta self + alpha bmm(batch1, batch2).
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, Scalar beta = 1,
               Scalar alpha = 1);
/// beta self + alpha (the sum over the batch of bmm(batch1, batch2)).
Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, Scalar beta = 1,
              Scalar alpha = 1);
/// Einstein summation: operands contracted pairwise through bmm after permutes and reshapes (Note [einsum through bmm]).
Tensor einsum(const std::string& equation, const std::vector<Tensor>& tensors);
/// Sums self's dims_a against other's dims_b through one mm.
Tensor tensordot(const Tensor& self, const Tensor& other, std::vector<int64_t> dims_a,
                 std::vector<int64_t> dims_b);
/// The Kronecker product.
Tensor kron(const Tensor& self, const Tensor& other);
/// The 3-vector cross product along dim (None: the first dim of size 3, torch's deprecated default).
Tensor cross(const Tensor& self, const Tensor& other, std::optional<int64_t> dim = std::nullopt);
/// torch.linalg.cross: the cross product along dim, operands broadcast.
Tensor linalg_cross(const Tensor& self, const Tensor& other, int64_t dim = -1);
/// The sum of a 2-D tensor's main diagonal.
Tensor trace(const Tensor& self);
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
/// self with the order of the elements along each of dims reversed (a copy, as torch).
Tensor flip(const Tensor& self, std::vector<int64_t> dims);
/// flip(self, {1}).
Tensor fliplr(const Tensor& self);
/// flip(self, {0}).
Tensor flipud(const Tensor& self);
/// self rotated by shifts along dims (no dims: the flattened tensor, reshaped back).
Tensor roll(const Tensor& self, std::vector<int64_t> shifts, std::vector<int64_t> dims = {});
/// self turned k times by 90 degrees, from dims[0] towards dims[1].
Tensor rot90(const Tensor& self, int64_t k = 1, std::vector<int64_t> dims = {0, 1});
/// repeat with dims padded by leading ones to self's rank.
Tensor tile(const Tensor& self, std::vector<int64_t> dims);
/// Each element (or slice along dim) repeated `repeats` times in place; no dim: of the flattened tensor.
Tensor repeat_interleave(const Tensor& self, int64_t repeats,
                         std::optional<int64_t> dim = std::nullopt,
                         std::optional<int64_t> output_size = std::nullopt);
Tensor repeat_interleave(const Tensor& self, const Tensor& repeats,
                         std::optional<int64_t> dim = std::nullopt,
                         std::optional<int64_t> output_size = std::nullopt);
/// i repeated repeats[i] times, for each i (waits for the device to read repeats).
Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size = std::nullopt);
/// A view with the dims in source moved to destination, the others in their order.
Tensor movedim(const Tensor& self, std::vector<int64_t> source, std::vector<int64_t> destination);
Tensor movedim(const Tensor& self, int64_t source, int64_t destination);
/// movedim (numpy's name).
Tensor moveaxis(const Tensor& self, std::vector<int64_t> source, std::vector<int64_t> destination);
Tensor moveaxis(const Tensor& self, int64_t source, int64_t destination);
/// transpose (numpy's name).
Tensor swapaxes(const Tensor& self, int64_t axis0, int64_t axis1);
/// transpose.
Tensor swapdims(const Tensor& self, int64_t dim0, int64_t dim1);
/// self with dim split into sizes (one of them may be -1).
Tensor unflatten(const Tensor& self, int64_t dim, std::vector<int64_t> sizes);
/// The slices of self along dim, as views without that dim.
std::vector<Tensor> unbind(const Tensor& self, int64_t dim = 0);
/// self split into `sections` near-equal views along dim (the first size % sections one longer).
std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim = 0);
/// self split along dim before each of indices.
std::vector<Tensor> tensor_split(const Tensor& self, std::vector<int64_t> indices, int64_t dim = 0);
/// split(self, split_sizes, dim).
std::vector<Tensor> split_with_sizes(const Tensor& self, std::vector<int64_t> split_sizes,
                                     int64_t dim = 0);
/// expand (numpy's name).
Tensor broadcast_to(const Tensor& self, std::vector<int64_t> size);
/// The tensors expanded to their common broadcast shape.
std::vector<Tensor> broadcast_tensors(const std::vector<Tensor>& tensors);
/// reshape(-1): a view where self's strides allow it.
Tensor ravel(const Tensor& self);
/// self, a 0-dim one as shape (1,).
Tensor atleast_1d(const Tensor& self);
/// self with leading dims of size 1 up to 2 dims.
Tensor atleast_2d(const Tensor& self);
/// self as at least 3 dims, numpy's placement: (n) -> (1, n, 1), (m, n) -> (m, n, 1).
Tensor atleast_3d(const Tensor& self);
/// cat along dim 1 (dim 0 for 1-D tensors).
Tensor hstack(const std::vector<Tensor>& tensors);
/// cat of atleast_2d(tensors) along dim 0.
Tensor vstack(const std::vector<Tensor>& tensors);
/// vstack.
Tensor row_stack(const std::vector<Tensor>& tensors);
/// cat of atleast_3d(tensors) along dim 2.
Tensor dstack(const std::vector<Tensor>& tensors);
/// hstack with 0-D and 1-D tensors as columns.
Tensor column_stack(const std::vector<Tensor>& tensors);
/// The coordinate grids of 0-D and 1-D tensors, as expanded views: "ij" (matrix indexing) or "xy" (the first two swapped).
std::vector<Tensor> meshgrid(const std::vector<Tensor>& tensors,
                             const std::string& indexing = "ij");
/// self with the elements above the diagonal-th diagonal of its last two dims zeroed.
Tensor tril(const Tensor& self, int64_t diagonal = 0);
/// self with the elements below the diagonal-th diagonal of its last two dims zeroed.
Tensor triu(const Tensor& self, int64_t diagonal = 0);
/// The offset-th diagonal of dims dim1 and dim2, as a new last dim (a copy in tide, a view in torch).
Tensor diagonal(const Tensor& self, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1);
/// Tensors whose (dim1, dim2) offset-th diagonals are self's last dim, zero elsewhere.
Tensor diag_embed(const Tensor& self, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1);
/// 1-D self: the square matrix with self on its diagonal-th diagonal; 2-D: that diagonal.
Tensor diag(const Tensor& self, int64_t diagonal = 0);
/// diag of the flattened self.
Tensor diagflat(const Tensor& self, int64_t offset = 0);
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

// convolution, pooling and normalization (NCHW; kernels/conv_geometry.h says how sizes follow)
// @generated begin function-declarations convolution (scripts/gen_ops.py from src/ops/ops.yaml)
/// torch.nn.functional.conv2d: input (N, C, H, W) or (C, H, W), weight (O, C/groups, kH, kW).
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
              IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
              int64_t groups = 1);
/// conv2d with padding "same" (output size = input size; stride 1 only) or "valid" (none).
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              PaddingMode padding, IntArrayRef dilation = 1, int64_t groups = 1);
/// torch.nn.functional.conv1d: input (N, C, L) or (C, L), weight (O, C/groups, k); runs as
/// conv2d over a height of 1.
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
              IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
              int64_t groups = 1);
// @generated end function-declarations convolution
// @generated begin function-declarations pooling (scripts/gen_ops.py from src/ops/ops.yaml)
/// torch.nn.functional.max_pool2d; stride {} means kernel_size, as torch's.
Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = 0, IntArrayRef dilation = 1, bool ceil_mode = false);
/// max_pool2d and the flat index (h * W + w) of each maximum in its input plane
/// (return_indices=True).
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride = {}, IntArrayRef padding = 0,
                                                   IntArrayRef dilation = 1,
                                                   bool ceil_mode = false);
/// torch.nn.functional.avg_pool2d.
Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = 0, bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
/// torch.nn.functional.adaptive_avg_pool2d: output i averages rows
/// [floor(i*H/out), ceil((i+1)*H/out)), and likewise for columns.
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size);
// @generated end function-declarations pooling
// @generated begin function-declarations normalization (scripts/gen_ops.py from src/ops/ops.yaml)
/// torch.batch_norm, in ATen's argument order (F.batch_norm's is input, running_mean,
/// running_var, weight, bias, training, momentum, eps). Training normalizes by the batch's
/// statistics and updates the running ones (when defined) in place, unrecorded by autograd.
Tensor batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  const Tensor& running_mean, const Tensor& running_var, bool training,
                  double momentum, double eps, bool cudnn_enabled = true);
// @generated end function-declarations normalization

// ---- indexing: advanced indices and masks (Note [Advanced indexing])
// @generated begin function-declarations indexing (scripts/gen_ops.py from src/ops/ops.yaml)
/// The coordinates of self's non-zero elements, one row each, in row-major order (waits for the device: Note [Data-dependent shapes]).
Tensor nonzero(const Tensor& self);
/// nonzero(condition) as one index tensor per dimension (torch.where(condition)).
std::vector<Tensor> where(const Tensor& condition);
/// Where each of self's values would be inserted into the innermost rows of sorted_sequence to keep them sorted (right/side="right": after equal entries), by binary search (Note [searchsorted]).
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32 = false,
                    bool right = false, std::optional<std::string> side = std::nullopt,
                    const Tensor& sorter = {});
Tensor searchsorted(const Tensor& sorted_sequence, Scalar self, bool out_int32 = false,
                    bool right = false, std::optional<std::string> side = std::nullopt,
                    const Tensor& sorter = {});
/// The bucket of each of self's values among the sorted 1-D boundaries: searchsorted(boundaries, self).
Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32 = false,
                 bool right = false);
Tensor bucketize(Scalar self, const Tensor& boundaries, bool out_int32 = false, bool right = false);
/// self's elements at flat (row-major) positions `index` (negative ones count from the end), in index's shape.
Tensor take(const Tensor& self, const Tensor& index);
/// A copy of self with source written (accumulate: added) at flat positions `index`.
Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false);
/// Advanced indexing, Python's self[indices] with one (int64, int32 or bool) tensor or None per dim.
Tensor index(const Tensor& self, const std::vector<Tensor>& indices);
/// A copy of self with values written (accumulate: added) where self[indices] reads.
Tensor index_put(const Tensor& self, const std::vector<Tensor>& indices, const Tensor& values,
                 bool accumulate = false);
/// The 1-D tensor of self's elements where the (broadcast) bool mask is true.
Tensor masked_select(const Tensor& self, const Tensor& mask);
/// self with value where the bool mask (broadcast) is true.
Tensor masked_fill(const Tensor& self, const Tensor& mask, Scalar value);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);
/// A copy of self with source's leading elements written, in order, where the mask is true.
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source);
/// out[i][j] = self[index[i][j]][j] for dim 0 (and so on): index has self's rank, int64 entries in [0, self.size(dim)).
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);
/// A copy of self with self[index[i][j]][j] = src[i][j] for dim 0 (and so on): gather's inverse.
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, Scalar value);
/// scatter that adds: repeated indices accumulate.
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
/// scatter that reduces (reduce: sum, prod, mean, amax or amin) what lands on each place, self's value included unless include_self is false (Note [scatter_reduce]).
Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                      const std::string& reduce, bool include_self = true);
/// A copy of self with alpha * source's slices added at positions index along dim (repeats accumulate).
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 Scalar alpha = 1);
/// A copy of self with source's slices written at positions index along dim.
Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
/// A copy of self with value at positions index along dim.
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, Scalar value);
// @generated end function-declarations indexing

}  // namespace tide
