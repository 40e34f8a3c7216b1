#include "tide/optim/sgd.h"

#include "optim/sgd_step.h"
#include "optim/state_placement.h"
#include "tide/autograd.h"
#include "tide/factories.h"

namespace tide::optim {

SGD::SGD(std::vector<Tensor> params, SGDOptions options)
    : Optimizer(std::move(params), "optim::SGD"), options_(options) {
  options_.validate();
  momentum_buffers_.resize(params_.size());
}

void SGD::step() {
  NoGradGuard no_grad;
  const bool momentum = options_.momentum() != 0;
  for (size_t i = 0; i < params_.size(); ++i) {
    Tensor& p = params_[i];
    const Tensor grad = p.grad();
    if (!grad.defined()) continue;
    Tensor& buffer = momentum_buffers_[i];
    const bool first = momentum && !buffer.defined();
    // The first step writes a fresh buffer (torch clones the gradient); kept only once the
    // step was accepted, so a rejected step leaves no uninitialized buffer behind.
    Tensor fresh = first ? empty(p.sizes(), p.options()) : Tensor();  // contiguous, as state must be
    if (!first) detail::follow_parameter(buffer, p);
    detail::sgd_step_(p, grad, first ? fresh : buffer, options_, first);
    if (first) buffer = fresh;
    p.storage().bump_version();
  }
}

}  // namespace tide::optim
