#include "tide/optim/optimizer.h"

#include "tide/autograd.h"
#include "tide/error.h"

namespace tide::optim {

Optimizer::Optimizer(std::vector<Tensor> params, const char* where) : params_(std::move(params)) {
  TIDE_CHECK(!params_.empty(), "[", where, "] optimizer got an empty parameter list; pass the "
             "tensors to update, e.g. model.parameters()");
  for (size_t i = 0; i < params_.size(); ++i) {
    const Tensor& p = params_[i];
    TIDE_CHECK(p.defined(), "[", where, "] parameter ", i, " is an undefined Tensor; pass "
               "defined tensors (model.parameters())");
    TIDE_CHECK(p.is_floating_point(), "[", where, "] parameter ", i, " has dtype ",
               name(p.dtype()), "; an optimizer updates floating point tensors only");
    TIDE_CHECK(p.is_leaf(), "[", where, "] can't optimize a non-leaf Tensor (parameter ", i,
               " was computed by an op); optimize the leaf it came from, or detach() it and "
               "call requires_grad_()");
  }
}

void Optimizer::zero_grad(bool set_to_none) {
  NoGradGuard no_grad;
  for (Tensor& p : params_) {
    Tensor& grad = p.mutable_grad();
    if (!grad.defined()) continue;
    if (set_to_none) {
      grad = Tensor();
    } else {
      grad.zero_();
    }
  }
}

}  // namespace tide::optim
