#include "tide/optim/optimizer.h"

#include <algorithm>
#include <cstddef>

#include "tide/autograd.h"
#include "tide/error.h"

namespace tide::optim {

Optimizer::Optimizer(std::vector<Tensor> params, const char* where) {
  add_params(std::move(params), where);
}

void Optimizer::add_params(std::vector<Tensor> params, const char* where) {
  TIDE_CHECK(!params.empty(), "[", where, "] optimizer got an empty parameter list; pass the "
             "tensors to update, e.g. model.parameters()");
  for (size_t i = 0; i < params.size(); ++i) {
    const Tensor& p = params[i];
    TIDE_CHECK(p.defined(), "[", where, "] parameter ", i, " is an undefined Tensor; pass "
               "defined tensors (model.parameters())");
    TIDE_CHECK(p.is_floating_point(), "[", where, "] parameter ", i, " has dtype ",
               name(p.dtype()), "; an optimizer updates floating point tensors only");
    TIDE_CHECK(p.is_leaf(), "[", where, "] can't optimize a non-leaf Tensor (parameter ", i,
               " was computed by an op); optimize the leaf it came from, or detach() it and "
               "call requires_grad_()");
    for (const Tensor& q : params_) {
      TIDE_CHECK(!q.is_same(p), "[", where, "] some parameters appear in more than one "
                 "parameter group (parameter ", i, " of the new group); give each once");
    }
  }
  for (Tensor& p : params) params_.push_back(std::move(p));
  group_ends_.push_back(params_.size());
}

void Optimizer::remove_last_group() {
  TIDE_INTERNAL_ASSERT(group_ends_.size() > 1);  // the constructor's group stays
  group_ends_.pop_back();
  params_.erase(params_.begin() + static_cast<std::ptrdiff_t>(group_ends_.back()), params_.end());
}

void Optimizer::check_group(size_t g, const char* where) const {
  TIDE_CHECK(g < group_ends_.size(), "[", where, "] expected a param group index below ",
             group_ends_.size(), ", found ", g, "; add_param_group appends groups");
}

std::vector<Tensor> Optimizer::param_group(size_t g) const {
  check_group(g, "optim::Optimizer::param_group");
  const size_t begin = g == 0 ? 0 : group_ends_[g - 1];
  return {params_.begin() + static_cast<std::ptrdiff_t>(begin),
          params_.begin() + static_cast<std::ptrdiff_t>(group_ends_[g])};
}

size_t Optimizer::group_of(size_t index) const {
  TIDE_CHECK(index < params_.size(), "[optim::Optimizer::group_of] expected a parameter index "
             "below ", params_.size(), ", found ", index);
  return static_cast<size_t>(std::upper_bound(group_ends_.begin(), group_ends_.end(), index) -
                             group_ends_.begin());
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
