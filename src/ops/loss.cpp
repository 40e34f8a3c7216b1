// Losses: nll_loss and cross_entropy (torch.nn.functional), with class weights, the three
// reductions and ignore_index.

#include "autograd/hooks.h"
#include "kernels/stubs.h"
#include "kernels/cpu/loss_kernels.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "ops/torch_names.h"
#include "tide/ops.h"

namespace tide {
namespace {

/// The shape checks nll_loss and cross_entropy share, in torch's order and wording.
void check_loss_shapes(const Tensor& input, const Tensor& target, const char* where) {
  TIDE_CHECK(input.dim() == 1 || input.dim() == 2, "[", where,
             "] input tensor should be 1D or 2D, but got ", input.dim(), "D input of shape ",
             detail::shape_str(input.shape()),
             "; pass (N, C) scores for a batch or (C,) for one sample");
  TIDE_CHECK(target.dim() <= 1, "[", where,
             "] 0D or 1D target tensor expected, multi-target not supported (target has shape ",
             detail::shape_str(target.shape()), ")");
  if (input.dim() == 1) {
    TIDE_CHECK(target.dim() == 0, "[", where, "] a 1D input of shape ",
               detail::shape_str(input.shape()),
               " is one sample and needs a 0-dim target (one class index), but target has shape ",
               detail::shape_str(target.shape()));
  } else {
    TIDE_CHECK(target.dim() == 1 && target.shape()[0] == input.shape()[0], "[", where,
               "] Expected input batch_size (", input.shape()[0], ") to match target batch_size (",
               target.dim() == 1 ? target.shape()[0] : 0,
               "); a 2D input (N, C) needs a 1D target of N class indices, but target has shape ",
               detail::shape_str(target.shape()));
  }
}

void check_target_dtype(const Tensor& target, const char* where) {
  TIDE_CHECK(target.dtype() == kInt64 || target.dtype() == kUInt8, "[", where,
             "] expected scalar type Long but found ", detail::torch_type_name(target.dtype()),
             " for target; pass class indices as int64 (target.to(tide::kInt64))");
}

}  // namespace

Tensor nll_loss(const Tensor& input, const Tensor& target, const Tensor& weight,
                Reduction reduction, int64_t ignore_index) {
  if (TIDE_UNLIKELY(autograd::recording(input, weight)))
    return autograd::traced::nll_loss(input, target, weight, reduction, ignore_index);
  detail::check_defined(input, "nll_loss", "input");
  detail::check_defined(target, "nll_loss", "target");
  const Device device = detail::same_device(
      {{"self", &input}, {"target", &target}, {"weight", &weight}}, "nll_loss");
  check_loss_shapes(input, target, "nll_loss");
  check_target_dtype(target, "nll_loss");
  TIDE_CHECK(input.is_floating_point(), "[nll_loss] \"nll_loss_out_frame\" not implemented for '",
             detail::torch_type_name(input.dtype()),
             "'; nll_loss expects floating point log-probabilities (e.g. from log_softmax)");
  const int64_t classes = input.shape()[input.dim() - 1];
  if (weight.defined()) {
    TIDE_CHECK(weight.dim() == 1 && weight.numel() == classes,
               "[nll_loss] weight tensor should be defined either for all ", classes,
               " classes or no classes but got weight tensor of shape: ",
               detail::shape_str(weight.shape()));
    TIDE_CHECK(weight.dtype() == input.dtype(), "[nll_loss] expected scalar type ",
               detail::torch_type_name(input.dtype()), " but found ",
               detail::torch_type_name(weight.dtype()),
               " for weight; weight must have the input's dtype (weight.to(input.dtype()))");
  }
  const Tensor x = (input.dim() == 1 ? input.unsqueeze(0) : input).contiguous();
  const Tensor t = (target.dim() == 0 ? target.unsqueeze(0) : target).contiguous();
  const Tensor w = weight.defined() ? weight.contiguous() : Tensor();
  const kernels::LossReduction r = reduction == Reduction::None  ? kernels::LossReduction::None
                                   : reduction == Reduction::Sum ? kernels::LossReduction::Sum
                                                                 : kernels::LossReduction::Mean;
  Tensor out = detail::make_empty(reduction == Reduction::None ? target.shape() : DimVector{},
                                  input.dtype(), device);
  detail::run_kernel(device, "nll_loss", kernels::nll_loss_stub, out, x, t, w, r, ignore_index);
  return out;
}

Tensor cross_entropy(const Tensor& input, const Tensor& target, const Tensor& weight,
                     Reduction reduction, int64_t ignore_index) {
  detail::check_defined(input, "cross_entropy", "input");
  detail::check_defined(target, "cross_entropy", "target");
  detail::same_device({{"self", &input}, {"target", &target}, {"weight", &weight}},
                      "cross_entropy");
  TIDE_CHECK(!target.is_floating_point(), "[cross_entropy] expected scalar type Long but found ",
             detail::torch_type_name(target.dtype()),
             " for target; class-probability (floating) targets are not supported yet, pass "
             "class indices as int64");
  check_loss_shapes(input, target, "cross_entropy");
  // torch: the class dim is 1, or 0 for an unbatched (C,) input.
  const int64_t class_dim = input.dim() == 1 ? 0 : 1;
  return nll_loss(log_softmax(input, class_dim), target, weight, reduction, ignore_index);
}

}  // namespace tide
