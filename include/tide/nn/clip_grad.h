#pragma once
// nn::utils (torch.nn.utils, as libtorch's torch::nn::utils): gradient clipping, and all
// parameters as one flat vector and back.

#include <vector>

#include "tide/tensor.h"

namespace tide::nn::utils {

/// Scales the gradients of `parameters` in place so that their total norm_type-norm (the norm
/// of the per-gradient norms; infinity: the largest magnitude) is at most max_norm: each by
/// min(1, max_norm / (total + 1e-6)). Returns the total norm before clipping (0 without
/// gradients). error_if_nonfinite: a nan or infinite total throws instead of scaling.
double clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm,
                       double norm_type = 2.0, bool error_if_nonfinite = false);
double clip_grad_norm_(const Tensor& parameter, double max_norm, double norm_type = 2.0,
                       bool error_if_nonfinite = false);

/// Clamps every gradient of `parameters` into [-clip_value, clip_value] in place.
void clip_grad_value_(const std::vector<Tensor>& parameters, double clip_value);

/// The parameters flattened and concatenated (all on one device).
Tensor parameters_to_vector(const std::vector<Tensor>& parameters);
/// Makes each parameter view its slice of vec, in order (torch's param.data = vec[...]).
void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters);

}  // namespace tide::nn::utils
