#include "optim/param_state.h"

#include <cmath>
#include <set>

#include "tensor/tensor_internal.h"
#include "tide/error.h"
#include "tide/factories.h"

namespace tide::optim::detail {

Tensor step_tensor(int64_t step) {
  return scalar_tensor(static_cast<double>(step), TensorOptions(kFloat32));
}

void check_param_index(size_t index, size_t count, const char* where) {
  TIDE_CHECK(index < count, "[", where, "] expected a parameter index below ", count,
             ", found ", index, "; indices count the optimizer's parameters in the order given");
}

LoadedState::LoadedState(const ParamState& state, std::initializer_list<const char*> known,
                         const char* where)
    : state_(state), where_(where) {
  std::set<std::string> seen;
  for (const auto& [name, value] : state_) {
    bool ok = false;
    for (const char* k : known) ok = ok || name == k;
    if (!ok) {
      std::string names;
      for (const char* k : known) names += std::string(names.empty() ? "" : ", ") + k;
      TIDE_CHECK(false, "[", where_, "] expected state entries among ", names, ", found '", name,
                 "'; load a state_dict written by the same kind of optimizer");
    }
    TIDE_CHECK(seen.insert(name).second, "[", where_, "] expected each state entry once, found '",
               name, "' twice");
  }
}

const Tensor* LoadedState::find(const char* name) const {
  for (const auto& [n, value] : state_) {
    if (n == name) return &value;
  }
  return nullptr;
}

int64_t LoadedState::step() const {
  const Tensor* t = find("step");
  TIDE_CHECK(t != nullptr && t->defined() && t->numel() == 1, "[", where_,
             "] expected a 'step' entry holding the step count, found ",
             t == nullptr ? "none" : "an undefined or non-scalar tensor",
             "; a stepped parameter's state has one (torch.tensor(float(steps)))");
  const double value = t->cpu().to(kFloat64).item<double>();
  TIDE_CHECK(value >= 0 && value == std::floor(value), "[", where_,
             "] expected a whole, non-negative step count, found ", value);
  return static_cast<int64_t>(value);
}

Tensor LoadedState::tensor(const char* name, const Tensor& param, bool optional) const {
  const Tensor* t = find(name);
  if (t == nullptr) {
    TIDE_CHECK(optional, "[", where_, "] expected a '", name, "' entry in the parameter's "
               "state, found none; load a state_dict written by the same optimizer with the "
               "same options");
    return Tensor();
  }
  if (!t->defined()) return Tensor();
  TIDE_CHECK(t->shape() == param.shape(), "[", where_, "] expected '", name,
             "' of the parameter's shape ", tide::detail::shape_str(param.shape()), ", found ",
             tide::detail::shape_str(t->shape()),
             "; the state_dict belongs to another model or parameter order");
  // Always a copy of its own (torch's load_state_dict deep-copies): training on must not
  // write into the caller's tensors.
  return t->detach().to(param.device(), param.dtype(), false, /*copy=*/true).contiguous();
}

}  // namespace tide::optim::detail
