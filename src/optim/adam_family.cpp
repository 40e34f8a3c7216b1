#include "optim/adam_family.h"

#include <utility>

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "optim/grouped_optimizer_impl.h"
#include "optim/param_state.h"
#include "optim/state_placement.h"
#include "optim/step_checks.h"
#include "optim/step_loop.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/optim/adamw.h"

namespace tide::optim::detail {

// torch's checks and wording (torch/optim/adam.py and adamw.py, libtorch's constructors),
// written so that NaN fails them as it fails torch's `not 0.0 <= lr`.
void validate_adam_options(double lr, const std::tuple<double, double>& betas, double eps,
                           double weight_decay, const char* where) {
  TIDE_CHECK(lr >= 0, "[", where, "] Invalid learning rate: ", lr, "; expected lr >= 0");
  TIDE_CHECK(eps >= 0, "[", where, "] Invalid epsilon value: ", eps,
             "; expected eps >= 0 (it keeps the denominator away from 0, 1e-8 by default)");
  const auto [beta1, beta2] = betas;
  TIDE_CHECK(beta1 >= 0 && beta1 < 1, "[", where, "] Invalid beta parameter at index 0: ", beta1,
             "; expected 0 <= beta1 < 1 (0.9 by default)");
  TIDE_CHECK(beta2 >= 0 && beta2 < 1, "[", where, "] Invalid beta parameter at index 1: ", beta2,
             "; expected 0 <= beta2 < 1 (0.999 by default)");
  TIDE_CHECK(weight_decay >= 0, "[", where, "] Invalid weight_decay value: ", weight_decay,
             "; expected weight_decay >= 0 (0 turns weight decay off)");
}

void adam_hyper_step_(Tensor& param, const Tensor& grad, Tensor& exp_avg, Tensor& exp_avg_sq,
                      Tensor& max_exp_avg_sq, const kernels::AdamHyper& hyper,
                      const char* where) {
  TIDE_CHECK(hyper.step >= 1, "[", where, "] expected step >= 1 (the number of this update of "
             "the parameter, 1 on its first), found ", hyper.step,
             "; increment the parameter's step count before the update, as torch does");
  check_parameter(param, where);
  check_like_parameter(grad, param, where, "grad");
  check_state(exp_avg, param, where, "exp_avg");
  check_state(exp_avg_sq, param, where, "exp_avg_sq");
  if (hyper.amsgrad) check_state(max_exp_avg_sq, param, where, "max_exp_avg_sq");
  if (param.numel() == 0) return;

  const Tensor g = contiguous_operand(grad);
  const Tensor v_max = hyper.amsgrad ? max_exp_avg_sq : Tensor();
  update_contiguous(param, [&](const Tensor& p) {
    tide::detail::run_kernel(p.device(), "adam_step", kernels::adam_stub, p, g, exp_avg,
                             exp_avg_sq, v_max, hyper);
  });
}

template <class Options>
AdamFamily<Options>::AdamFamily(std::vector<Tensor> params, Options options, const char* name,
                                bool decoupled_weight_decay)
    : GroupedOptimizer<Options, AdamParamState>(std::move(params), options, name),
      step_name_(member_name(name, "step")), decoupled_weight_decay_(decoupled_weight_decay) {}

template <class Options>
void AdamFamily<Options>::step() {
  this->validate_options();
  std::vector<kernels::AdamHyper> hyper;  // by group
  hyper.reserve(this->options_.size());
  for (const Options& o : this->options_) hyper.push_back(adam_hyper(o, decoupled_weight_decay_));
  const char* where = step_name_.c_str();
  step_all_or_nothing(
      this->params_, this->state_, where,
      [&](size_t i, const Tensor& p, AdamParamState& s) {
        if (s.step == 0) {
          s.exp_avg = zeros(p.sizes(), p.options());  // contiguous, as state must be
          s.exp_avg_sq = zeros(p.sizes(), p.options());
        }
        // amsgrad may be switched on between steps: its running maximum starts from zeros.
        if (hyper[this->group_of(i)].amsgrad && !s.max_exp_avg_sq.defined()) {
          s.max_exp_avg_sq = zeros(p.sizes(), p.options());
        }
        for (Tensor* t : {&s.exp_avg, &s.exp_avg_sq, &s.max_exp_avg_sq}) follow_parameter(*t, p);
      },
      [&](size_t i, Tensor& p, const Tensor& grad, AdamParamState& s) {
        kernels::AdamHyper h = hyper[this->group_of(i)];
        h.step = s.step + 1;
        adam_hyper_step_(p, grad, s.exp_avg, s.exp_avg_sq, s.max_exp_avg_sq, h, where);
        ++s.step;
      });
}

template <class Options>
ParamState AdamFamily<Options>::to_torch_layout(const AdamParamState& s) const {
  if (s.step == 0) return {};
  ParamState out{{"step", step_tensor(s.step)}, {"exp_avg", s.exp_avg}, {"exp_avg_sq", s.exp_avg_sq}};
  if (s.max_exp_avg_sq.defined()) out.emplace_back("max_exp_avg_sq", s.max_exp_avg_sq);
  return out;
}

template <class Options>
AdamParamState AdamFamily<Options>::from_torch_layout(const ParamState& state,
                                                      const Tensor& param,
                                                      const char* where) const {
  const LoadedState loaded(state, {"step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"}, where);
  AdamParamState s;
  if (loaded.empty()) return s;
  s.step = loaded.step();
  s.exp_avg = loaded.tensor("exp_avg", param);
  s.exp_avg_sq = loaded.tensor("exp_avg_sq", param);
  s.max_exp_avg_sq = loaded.tensor("max_exp_avg_sq", param, /*optional=*/true);
  TIDE_CHECK(s.exp_avg.defined() && s.exp_avg_sq.defined(), "[", where,
             "] expected tensors for 'exp_avg' and 'exp_avg_sq', found None");
  return s;
}

template class AdamFamily<AdamOptions>;
template class AdamFamily<AdamWOptions>;

}  // namespace tide::optim::detail
