#pragma once
// What Adam and AdamW share besides detail::AdamFamily (tide/optim/adam.h): their checks,
// their kernel's hyperparameters, one parameter's fused step and how their options read from
// a param group.

#include <tuple>
#include <vector>

#include "kernels/optim_functors.h"
#include "optim/hyperparameters.h"
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

/// Adam's or AdamW's options read from a param group of torch's layout, checked.
template <class Options>
Options adam_options_from(const GroupReader& g) {
  const auto [b1, b2] = g.pair("betas");
  Options o(g.number("lr"));
  o.betas({b1, b2}).eps(g.number("eps")).weight_decay(g.number("weight_decay"))
      .amsgrad(g.flag("amsgrad")).maximize(g.flag("maximize"));
  o.validate();
  return o;
}

/// One fused step of one parameter (`hyper.step` is this update's number), after the checks.
void adam_hyper_step_(Tensor& param, const Tensor& grad, Tensor& exp_avg, Tensor& exp_avg_sq,
                      Tensor& max_exp_avg_sq, const kernels::AdamHyper& hyper,
                      const char* where);

}  // namespace tide::optim::detail
