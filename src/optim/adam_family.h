#pragma once
// What Adam and AdamW share: their checks, their step over every parameter, and their state
// in torch's layout. The two differ only in how weight decay applies
// (kernels::AdamHyper::decoupled_weight_decay).

#include <functional>
#include <tuple>
#include <vector>

#include "kernels/optim_functors.h"
#include "tide/optim/adam.h"
#include "tide/optim/optimizer.h"
#include "tide/tensor.h"

namespace tide::optim::detail {

/// torch's checks and wording for Adam's and AdamW's options, naming `where`.
void validate_adam_options(double lr, const std::tuple<double, double>& betas, double eps,
                           double weight_decay, const char* where);

/// The kernel's hyperparameters (step left at 1) from Adam's or AdamW's options.
template <class Options>
kernels::AdamHyper adam_hyper(const Options& o, bool decoupled_weight_decay) {
  return kernels::AdamHyper{o.lr(),           std::get<0>(o.betas()), std::get<1>(o.betas()),
                            o.eps(),          o.weight_decay(),       o.amsgrad(),
                            o.maximize(),     1,                      decoupled_weight_decay};
}

/// One fused step of one parameter (`hyper.step` is this update's number), after the checks.
void adam_hyper_step_(Tensor& param, const Tensor& grad, Tensor& exp_avg, Tensor& exp_avg_sq,
                      Tensor& max_exp_avg_sq, const kernels::AdamHyper& hyper,
                      const char* where);

/// Adam::step and AdamW::step: every parameter with a gradient, all or nothing (Note
/// [Optimizer steps are all or nothing]), parameter i with hyper_of(i) (its group's).
void adam_family_step(std::vector<Tensor>& params, std::vector<AdamParamState>& state,
                      const std::function<kernels::AdamHyper(size_t)>& hyper_of,
                      const char* where);

/// The state in torch's layout, and back (Note [Optimizer state in torch's layout]).
ParamState adam_param_state(const AdamParamState& s);
AdamParamState adam_loaded_state(const ParamState& state, const Tensor& param, const char* where);

}  // namespace tide::optim::detail
