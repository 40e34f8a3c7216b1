#include "tide/nn/clip_grad.h"

#include <cmath>
#include <string>

#include "tide/autograd.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::nn::utils {
namespace {

/// torch.norm(t, p) of the flattened t, for every p that clip_grad_norm_ allows.
Tensor vector_norm(const Tensor& t, double p) {
  const Tensor flat = t.reshape({-1});
  if (std::isinf(p)) return p > 0 ? flat.abs().max() : flat.abs().min();
  if (p == 0) return flat.ne(0).to(t.dtype()).sum();
  if (p == 1) return flat.abs().sum();
  return flat.abs().pow(p).sum().pow(1.0 / p);
}

std::vector<Tensor> grads_of(const std::vector<Tensor>& parameters) {
  std::vector<Tensor> grads;
  for (const Tensor& p : parameters) {
    if (p.grad().defined()) grads.push_back(p.grad());
  }
  return grads;
}

/// torch's _check_param_device: -1 for the cpu, the cuda index otherwise, the same for all.
int64_t common_device(const Tensor& param, std::optional<int64_t> previous) {
  const int64_t here = param.device().is_cuda() ? param.device().index() : -1;
  TIDE_CHECK(!previous || *previous == here,
             "[nn::utils::parameters_to_vector] expected every parameter on one device, found "
             "two parameters on different devices; move the module to one device first");
  return here;
}

}  // namespace

double clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm, double norm_type,
                       bool error_if_nonfinite) {
  NoGradGuard no_grad;
  const std::vector<Tensor> grads = grads_of(parameters);
  if (grads.empty()) return 0.0;
  const Device device = grads[0].device();
  std::vector<Tensor> norms;
  norms.reserve(grads.size());
  for (const Tensor& g : grads) norms.push_back(vector_norm(g, norm_type).to(device));
  const Tensor total = vector_norm(stack(norms), norm_type);
  const double value = total.item<double>();
  TIDE_CHECK(!error_if_nonfinite || std::isfinite(value),
             "[nn::utils::clip_grad_norm_] The total norm of order ", norm_type,
             " for gradients from `parameters` is non-finite, so it cannot be clipped. To "
             "disable this error and scale the gradients by the non-finite norm anyway, set "
             "`error_if_nonfinite=False`");
  // As torch: the coefficient stays a tensor on the device (no host value steers the scaling).
  const Tensor coef = (total + 1e-6).reciprocal().mul(max_norm).clamp(std::nullopt, 1.0);
  for (Tensor g : grads) g.mul_(coef.to(g.device()));
  return value;
}

double clip_grad_norm_(const Tensor& parameter, double max_norm, double norm_type,
                       bool error_if_nonfinite) {
  return clip_grad_norm_(std::vector<Tensor>{parameter}, max_norm, norm_type,
                         error_if_nonfinite);
}

void clip_grad_value_(const std::vector<Tensor>& parameters, double clip_value) {
  NoGradGuard no_grad;
  for (const Tensor& g : grads_of(parameters)) g.copy_(g.clamp(-clip_value, clip_value));
}

Tensor parameters_to_vector(const std::vector<Tensor>& parameters) {
  std::optional<int64_t> device;
  std::vector<Tensor> flat;
  flat.reserve(parameters.size());
  for (const Tensor& p : parameters) {
    device = common_device(p, device);
    flat.push_back(p.view({-1}));
  }
  return cat(flat);
}

void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters) {
  std::optional<int64_t> device;
  int64_t pointer = 0;
  for (const Tensor& p : parameters) {
    device = common_device(p, device);
    const int64_t n = p.numel();
    TIDE_CHECK(pointer + n <= vec.numel(), "[nn::utils::vector_to_parameters] expected a vector "
               "of at least ", pointer + n, " elements, found ", vec.numel(),
               "; pass parameters_to_vector's result for the same parameters");
    p.set_data(vec.detach().narrow(0, pointer, n).view(p.sizes()));
    pointer += n;
  }
}

}  // namespace tide::nn::utils
