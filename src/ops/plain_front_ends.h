#pragma once
// The hand-written front ends of the op table's `plan: explicit` ops: detail::plain_<op>, with
// the op's own parameters, called by its generated front end once the op entry has passed
// (Note [Op entry] in ops/op_entry.h). Each checks, allocates and runs its kernels as any front
// end (Note [Op structure]); the op's recording, and later modes, stay in the generated shell.

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "tide/dtype.h"
#include "tide/int_array_ref.h"
#include "tide/ops.h"  // Reduction
#include "tide/padding_mode.h"
#include "tide/scalar.h"
#include "tide/tensor.h"

namespace tide::detail {

// @generated begin plain-declarations (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor plain_where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor plain_where(const Tensor& condition, const Tensor& self, Scalar other);
Tensor plain_where(const Tensor& condition, Scalar self, const Tensor& other);
Tensor plain_clamp(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max);
Tensor& plain_clamp_(Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max);
Tensor plain_logical_not(const Tensor& self);
Tensor& plain_logical_not_(Tensor& self);
Tensor plain_isnan(const Tensor& self);
Tensor plain_isinf(const Tensor& self);
Tensor plain_isfinite(const Tensor& self);
Tensor plain_nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                        std::optional<double> neginf);
Tensor& plain_nan_to_num_(Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf);
Tensor plain_round(const Tensor& self, int64_t decimals);
Tensor& plain_round_(Tensor& self, int64_t decimals);
Tensor plain_logit(const Tensor& self, std::optional<double> eps);
Tensor& plain_logit_(Tensor& self, std::optional<double> eps);
Tensor plain_div(const Tensor& self, const Tensor& other, std::optional<std::string> rounding_mode);
Tensor& plain_div_(Tensor& self, const Tensor& other, std::optional<std::string> rounding_mode);
Tensor plain_div(const Tensor& self, Scalar other, std::optional<std::string> rounding_mode);
Tensor& plain_div_(Tensor& self, Scalar other, std::optional<std::string> rounding_mode);
Tensor plain_deg2rad(const Tensor& self);
Tensor& plain_deg2rad_(Tensor& self);
Tensor plain_rad2deg(const Tensor& self);
Tensor& plain_rad2deg_(Tensor& self);
Tensor plain_float_power(const Tensor& self, const Tensor& exponent);
Tensor& plain_float_power_(Tensor& self, const Tensor& exponent);
Tensor plain_float_power(const Tensor& self, Scalar exponent);
Tensor& plain_float_power_(Tensor& self, Scalar exponent);
Tensor plain_ldexp(const Tensor& self, const Tensor& other);
Tensor& plain_ldexp_(Tensor& self, const Tensor& other);
Tensor plain_signbit(const Tensor& self);
Tensor plain_isposinf(const Tensor& self);
Tensor plain_isneginf(const Tensor& self);
Tensor plain_positive(const Tensor& self);
Tensor plain_clamp_min(const Tensor& self, Scalar min);
Tensor& plain_clamp_min_(Tensor& self, Scalar min);
Tensor plain_clamp_max(const Tensor& self, Scalar max);
Tensor& plain_clamp_max_(Tensor& self, Scalar max);
Tensor plain_sum(const Tensor& self, std::optional<Dtype> dtype);
Tensor plain_sum(const Tensor& self, int64_t dim, bool keepdim, std::optional<Dtype> dtype);
Tensor plain_sum(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim,
                 std::optional<Dtype> dtype);
Tensor plain_mean(const Tensor& self, std::optional<Dtype> dtype);
Tensor plain_mean(const Tensor& self, int64_t dim, bool keepdim, std::optional<Dtype> dtype);
Tensor plain_mean(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim,
                  std::optional<Dtype> dtype);
Tensor plain_max(const Tensor& self);
std::tuple<Tensor, Tensor> plain_max(const Tensor& self, int64_t dim, bool keepdim);
Tensor plain_min(const Tensor& self);
std::tuple<Tensor, Tensor> plain_min(const Tensor& self, int64_t dim, bool keepdim);
Tensor plain_argmax(const Tensor& self);
Tensor plain_argmax(const Tensor& self, int64_t dim, bool keepdim);
Tensor plain_argmin(const Tensor& self);
Tensor plain_argmin(const Tensor& self, int64_t dim, bool keepdim);
Tensor& plain_sum_out(Tensor& out, const Tensor& self);
Tensor plain_prod(const Tensor& self, std::optional<Dtype> dtype);
Tensor plain_prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<Dtype> dtype);
Tensor plain_all(const Tensor& self);
Tensor plain_all(const Tensor& self, int64_t dim, bool keepdim);
Tensor plain_any(const Tensor& self);
Tensor plain_any(const Tensor& self, int64_t dim, bool keepdim);
Tensor plain_amax(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim);
Tensor plain_amin(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim);
std::tuple<Tensor, Tensor> plain_aminmax(const Tensor& self, std::optional<int64_t> dim,
                                         bool keepdim);
Tensor plain_var(const Tensor& self, bool unbiased);
Tensor plain_var(const Tensor& self, const std::vector<int64_t>& dim, bool unbiased, bool keepdim);
Tensor plain_var(const Tensor& self, const std::vector<int64_t>& dim,
                 std::optional<int64_t> correction, bool keepdim);
Tensor plain_std(const Tensor& self, bool unbiased);
Tensor plain_std(const Tensor& self, const std::vector<int64_t>& dim, bool unbiased, bool keepdim);
Tensor plain_std(const Tensor& self, const std::vector<int64_t>& dim,
                 std::optional<int64_t> correction, bool keepdim);
std::tuple<Tensor, Tensor> plain_var_mean(const Tensor& self, const std::vector<int64_t>& dim,
                                          std::optional<int64_t> correction, bool keepdim);
std::tuple<Tensor, Tensor> plain_std_mean(const Tensor& self, const std::vector<int64_t>& dim,
                                          std::optional<int64_t> correction, bool keepdim);
Tensor plain_linalg_vector_norm(const Tensor& self, Scalar ord, const std::vector<int64_t>& dim,
                                bool keepdim, std::optional<Dtype> dtype);
Tensor plain_linalg_matrix_norm(const Tensor& self, Scalar ord, const std::vector<int64_t>& dim,
                                bool keepdim, std::optional<Dtype> dtype);
Tensor plain_linalg_matrix_norm(const Tensor& self, const std::string& ord,
                                const std::vector<int64_t>& dim, bool keepdim,
                                std::optional<Dtype> dtype);
Tensor plain_linalg_norm(const Tensor& self, std::optional<Scalar> ord,
                         std::optional<std::vector<int64_t>> dim, bool keepdim,
                         std::optional<Dtype> dtype);
Tensor plain_linalg_norm(const Tensor& self, const std::string& ord,
                         std::optional<std::vector<int64_t>> dim, bool keepdim,
                         std::optional<Dtype> dtype);
Tensor plain_norm(const Tensor& self, Scalar p);
Tensor plain_norm(const Tensor& self, std::optional<Scalar> p, const std::vector<int64_t>& dim,
                  bool keepdim);
Tensor plain_logsumexp(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim);
Tensor plain_count_nonzero(const Tensor& self, const std::vector<int64_t>& dim);
Tensor plain_cumsum(const Tensor& self, int64_t dim, std::optional<Dtype> dtype);
Tensor plain_cumprod(const Tensor& self, int64_t dim, std::optional<Dtype> dtype);
std::tuple<Tensor, Tensor> plain_cummax(const Tensor& self, int64_t dim);
std::tuple<Tensor, Tensor> plain_cummin(const Tensor& self, int64_t dim);
std::tuple<Tensor, Tensor> plain_sort(const Tensor& self, int64_t dim, bool descending);
Tensor plain_argsort(const Tensor& self, int64_t dim, bool descending);
std::tuple<Tensor, Tensor> plain_topk(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                      bool sorted);
std::tuple<Tensor, Tensor> plain_kthvalue(const Tensor& self, int64_t k, int64_t dim, bool keepdim);
Tensor plain_median(const Tensor& self);
std::tuple<Tensor, Tensor> plain_median(const Tensor& self, int64_t dim, bool keepdim);
std::tuple<Tensor, Tensor> plain_mode(const Tensor& self, int64_t dim, bool keepdim);
Tensor plain_isclose(const Tensor& self, const Tensor& other, double rtol, double atol,
                     bool equal_nan);
bool plain_allclose(const Tensor& self, const Tensor& other, double rtol, double atol,
                    bool equal_nan);
bool plain_equal(const Tensor& self, const Tensor& other);
std::tuple<Tensor, Tensor, Tensor> plain_unique(const Tensor& self, bool sorted,
                                                bool return_inverse, bool return_counts);
Tensor plain_bincount(const Tensor& self, const Tensor& weights, int64_t minlength);
Tensor plain_histc(const Tensor& self, int64_t bins, Scalar min, Scalar max);
Tensor plain_matmul(const Tensor& self, const Tensor& other);
Tensor plain_mm(const Tensor& self, const Tensor& mat2);
Tensor plain_bmm(const Tensor& self, const Tensor& mat2);
Tensor plain_addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, Scalar beta,
                   Scalar alpha);
Tensor plain_dot(const Tensor& self, const Tensor& tensor);
Tensor plain_vdot(const Tensor& self, const Tensor& other);
Tensor plain_mv(const Tensor& self, const Tensor& vec);
Tensor plain_outer(const Tensor& self, const Tensor& vec2);
Tensor plain_ger(const Tensor& self, const Tensor& vec2);
Tensor plain_inner(const Tensor& self, const Tensor& other);
Tensor plain_addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, Scalar beta,
                   Scalar alpha);
Tensor plain_addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, Scalar beta,
                  Scalar alpha);
Tensor plain_baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, Scalar beta,
                     Scalar alpha);
Tensor plain_addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, Scalar beta,
                    Scalar alpha);
Tensor plain_einsum(const std::string& equation, const std::vector<Tensor>& tensors);
Tensor plain_tensordot(const Tensor& self, const Tensor& other, const std::vector<int64_t>& dims_a,
                       const std::vector<int64_t>& dims_b);
Tensor plain_kron(const Tensor& self, const Tensor& other);
Tensor plain_cross(const Tensor& self, const Tensor& other, std::optional<int64_t> dim);
Tensor plain_linalg_cross(const Tensor& self, const Tensor& other, int64_t dim);
Tensor plain_trace(const Tensor& self);
Tensor plain_cat(const std::vector<Tensor>& tensors, int64_t dim);
Tensor plain_stack(const std::vector<Tensor>& tensors, int64_t dim);
std::vector<Tensor> plain_chunk(const Tensor& self, int64_t chunks, int64_t dim);
std::vector<Tensor> plain_split(const Tensor& self, int64_t split_size, int64_t dim);
std::vector<Tensor> plain_split(const Tensor& self, const std::vector<int64_t>& split_sizes,
                                int64_t dim);
Tensor plain_index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor plain_flip(const Tensor& self, const std::vector<int64_t>& dims);
Tensor plain_fliplr(const Tensor& self);
Tensor plain_flipud(const Tensor& self);
Tensor plain_roll(const Tensor& self, const std::vector<int64_t>& shifts,
                  const std::vector<int64_t>& dims);
Tensor plain_rot90(const Tensor& self, int64_t k, const std::vector<int64_t>& dims);
Tensor plain_tile(const Tensor& self, const std::vector<int64_t>& dims);
Tensor plain_repeat(const Tensor& self, const std::vector<int64_t>& repeats);
Tensor plain_repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim,
                               std::optional<int64_t> output_size);
Tensor plain_repeat_interleave(const Tensor& self, const Tensor& repeats,
                               std::optional<int64_t> dim, std::optional<int64_t> output_size);
Tensor plain_repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size);
Tensor plain_movedim(const Tensor& self, const std::vector<int64_t>& source,
                     const std::vector<int64_t>& destination);
Tensor plain_movedim(const Tensor& self, int64_t source, int64_t destination);
Tensor plain_moveaxis(const Tensor& self, const std::vector<int64_t>& source,
                      const std::vector<int64_t>& destination);
Tensor plain_moveaxis(const Tensor& self, int64_t source, int64_t destination);
Tensor plain_swapaxes(const Tensor& self, int64_t axis0, int64_t axis1);
Tensor plain_swapdims(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor plain_unflatten(const Tensor& self, int64_t dim, const std::vector<int64_t>& sizes);
std::vector<Tensor> plain_unbind(const Tensor& self, int64_t dim);
std::vector<Tensor> plain_tensor_split(const Tensor& self, int64_t sections, int64_t dim);
std::vector<Tensor> plain_tensor_split(const Tensor& self, const std::vector<int64_t>& indices,
                                       int64_t dim);
std::vector<Tensor> plain_split_with_sizes(const Tensor& self,
                                           const std::vector<int64_t>& split_sizes, int64_t dim);
Tensor plain_broadcast_to(const Tensor& self, const std::vector<int64_t>& size);
std::vector<Tensor> plain_broadcast_tensors(const std::vector<Tensor>& tensors);
Tensor plain_ravel(const Tensor& self);
Tensor plain_atleast_1d(const Tensor& self);
Tensor plain_atleast_2d(const Tensor& self);
Tensor plain_atleast_3d(const Tensor& self);
Tensor plain_hstack(const std::vector<Tensor>& tensors);
Tensor plain_vstack(const std::vector<Tensor>& tensors);
Tensor plain_row_stack(const std::vector<Tensor>& tensors);
Tensor plain_dstack(const std::vector<Tensor>& tensors);
Tensor plain_column_stack(const std::vector<Tensor>& tensors);
std::vector<Tensor> plain_meshgrid(const std::vector<Tensor>& tensors, const std::string& indexing);
Tensor plain_tril(const Tensor& self, int64_t diagonal);
Tensor plain_triu(const Tensor& self, int64_t diagonal);
Tensor& plain_tril_(Tensor& self, int64_t diagonal);
Tensor& plain_triu_(Tensor& self, int64_t diagonal);
Tensor plain_diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2);
Tensor plain_diag_embed(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2);
Tensor plain_diag(const Tensor& self, int64_t diagonal);
Tensor plain_diagflat(const Tensor& self, int64_t offset);
Tensor plain_view(const Tensor& self, const std::vector<int64_t>& sizes);
Tensor plain_view(const Tensor& self, Dtype dtype);
Tensor plain_reshape(const Tensor& self, const std::vector<int64_t>& sizes);
Tensor plain_flatten(const Tensor& self, int64_t start_dim, int64_t end_dim);
Tensor plain_transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor plain_t(const Tensor& self);
Tensor plain_permute(const Tensor& self, const std::vector<int64_t>& dims);
Tensor plain_narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
Tensor plain_select(const Tensor& self, int64_t dim, int64_t index);
Tensor plain_unsqueeze(const Tensor& self, int64_t dim);
Tensor plain_squeeze(const Tensor& self);
Tensor plain_squeeze(const Tensor& self, int64_t dim);
Tensor plain_expand(const Tensor& self, const std::vector<int64_t>& sizes);
Tensor plain_expand_as(const Tensor& self, const Tensor& other);
Tensor plain_contiguous(const Tensor& self, MemoryFormat memory_format);
Tensor plain_slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                   std::optional<int64_t> stop, int64_t step);
Tensor plain_to(const Tensor& self, const TensorOptions& options, bool non_blocking, bool copy);
Tensor& plain_copy_(Tensor& self, const Tensor& src, bool non_blocking);
Tensor plain_pin_memory(const Tensor& self);
Tensor plain_clone(const Tensor& self, std::optional<MemoryFormat> memory_format);
Tensor& plain_fill_(Tensor& self, Scalar value);
Tensor& plain_fill_(Tensor& self, const Tensor& value);
Tensor& plain_zero_(Tensor& self);
Tensor& plain_normal_(Tensor& self, double mean, double std);
Tensor& plain_uniform_(Tensor& self, double from, double to);
Tensor plain_linear(const Tensor& input, const Tensor& weight, const Tensor& bias);
Tensor plain_dropout(const Tensor& input, double p, bool training);
Tensor plain_softmax(const Tensor& self, int64_t dim);
Tensor plain_log_softmax(const Tensor& self, int64_t dim);
Tensor plain_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups);
Tensor plain_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                    IntArrayRef stride, PaddingMode padding, IntArrayRef dilation, int64_t groups);
Tensor plain_conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups);
Tensor plain_max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode);
std::tuple<Tensor, Tensor> plain_max_pool2d_with_indices(const Tensor& self,
                                                         IntArrayRef kernel_size,
                                                         IntArrayRef stride, IntArrayRef padding,
                                                         IntArrayRef dilation, bool ceil_mode);
Tensor plain_avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                        IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                        std::optional<int64_t> divisor_override);
Tensor plain_adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size);
Tensor plain_batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        const Tensor& running_mean, const Tensor& running_var, bool training,
                        double momentum, double eps, bool cudnn_enabled);
Tensor plain_nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight,
                      Reduction reduction, int64_t ignore_index);
Tensor plain_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight,
                           Reduction reduction, int64_t ignore_index, double label_smoothing);
Tensor plain_mse_loss(const Tensor& self, const Tensor& target, Reduction reduction);
Tensor plain_l1_loss(const Tensor& self, const Tensor& target, Reduction reduction);
Tensor plain_smooth_l1_loss(const Tensor& self, const Tensor& target, Reduction reduction,
                            double beta);
Tensor plain_huber_loss(const Tensor& self, const Tensor& target, Reduction reduction,
                        double delta);
Tensor plain_binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight,
                                  Reduction reduction);
Tensor plain_binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                              const Tensor& weight, const Tensor& pos_weight,
                                              Reduction reduction);
Tensor plain_kl_div(const Tensor& self, const Tensor& target, Reduction reduction, bool log_target);
Tensor plain_margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                                 double margin, Reduction reduction);
Tensor plain_cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                                   double margin, Reduction reduction);
Tensor plain_gelu(const Tensor& self, const std::string& approximate);
Tensor plain_silu(const Tensor& self);
Tensor plain_mish(const Tensor& self);
Tensor plain_softplus(const Tensor& self, double beta, double threshold);
Tensor plain_leaky_relu(const Tensor& self, double negative_slope);
Tensor plain_elu(const Tensor& self, double alpha, double scale, double input_scale);
Tensor plain_hardtanh(const Tensor& self, double min_val, double max_val);
Tensor plain_prelu(const Tensor& self, const Tensor& weight);
Tensor plain_layer_norm(const Tensor& self, const std::vector<int64_t>& normalized_shape,
                        const Tensor& weight, const Tensor& bias, double eps);
Tensor plain_group_norm(const Tensor& self, int64_t num_groups, const Tensor& weight,
                        const Tensor& bias, double eps);
Tensor plain_embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx);
Tensor plain_one_hot(const Tensor& self, int64_t num_classes);
Tensor plain_normalize(const Tensor& self, double p, int64_t dim, double eps);
Tensor plain_cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim, double eps);
Tensor plain_pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps,
                               bool keepdim);
Tensor plain_nonzero(const Tensor& self);
std::vector<Tensor> plain_where(const Tensor& condition);
Tensor plain_searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32,
                          bool right, std::optional<std::string> side, const Tensor& sorter);
Tensor plain_searchsorted(const Tensor& sorted_sequence, Scalar self, bool out_int32, bool right,
                          std::optional<std::string> side, const Tensor& sorter);
Tensor plain_bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right);
Tensor plain_bucketize(Scalar self, const Tensor& boundaries, bool out_int32, bool right);
Tensor plain_take(const Tensor& self, const Tensor& index);
Tensor& plain_put_(Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);
Tensor plain_put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);
Tensor plain_index(const Tensor& self, const std::vector<Tensor>& indices);
Tensor& plain_index_put_(Tensor& self, const std::vector<Tensor>& indices, const Tensor& values,
                         bool accumulate);
Tensor plain_index_put(const Tensor& self, const std::vector<Tensor>& indices, const Tensor& values,
                       bool accumulate);
Tensor plain_masked_select(const Tensor& self, const Tensor& mask);
Tensor plain_masked_fill(const Tensor& self, const Tensor& mask, Scalar value);
Tensor plain_masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);
Tensor& plain_masked_fill_(Tensor& self, const Tensor& mask, Scalar value);
Tensor& plain_masked_fill_(Tensor& self, const Tensor& mask, const Tensor& value);
Tensor& plain_masked_scatter_(Tensor& self, const Tensor& mask, const Tensor& source);
Tensor plain_masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source);
Tensor plain_gather(const Tensor& self, int64_t dim, const Tensor& index);
Tensor plain_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor plain_scatter(const Tensor& self, int64_t dim, const Tensor& index, Scalar value);
Tensor& plain_scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor& plain_scatter_(Tensor& self, int64_t dim, const Tensor& index, Scalar value);
Tensor plain_scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor& plain_scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor plain_scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                            const std::string& reduce, bool include_self);
Tensor& plain_scatter_reduce_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                              const std::string& reduce, bool include_self);
Tensor plain_index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                       Scalar alpha);
Tensor& plain_index_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                         Scalar alpha);
Tensor plain_index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
Tensor& plain_index_copy_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
Tensor plain_index_fill(const Tensor& self, int64_t dim, const Tensor& index, Scalar value);
Tensor& plain_index_fill_(Tensor& self, int64_t dim, const Tensor& index, Scalar value);
// @generated end plain-declarations

}  // namespace tide::detail
