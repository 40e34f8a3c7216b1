// Optimizer::state_dict and load_state_dict (Note [Optimizer state_dict] in
// tide/optim/optimizer.h), and the param group reader each optimizer's hyperparameters use.

#include <string>
#include <utility>
#include <vector>

#include "optim/hyperparameters.h"
#include "optim/param_state.h"
#include "tide/error.h"
#include "tide/optim/optimizer.h"

namespace tide::optim {
namespace detail {

const IValue* GroupReader::find(const char* key) const {
  for (const auto& [k, v] : group_.to_dict().items) {
    if (k.is_string() && k.to_string() == key) return &v;
  }
  return nullptr;
}

const IValue& GroupReader::get(const char* key) const {
  const IValue* v = find(key);
  TIDE_CHECK(v != nullptr, "[", where_, "] expected the param group to have '", key,
             "', found none; load a state_dict written by the same kind of optimizer");
  return *v;
}

double GroupReader::number(const char* key) const {
  const IValue& v = get(key);
  TIDE_CHECK(v.is_int() || v.is_double(), "[", where_, "] expected '", key, "' to be a number, "
             "found ", kind_name(v.kind()));
  return v.is_int() ? static_cast<double>(v.to_int()) : v.to_double();
}

bool GroupReader::flag(const char* key) const {
  const IValue& v = get(key);
  TIDE_CHECK(v.is_bool(), "[", where_, "] expected '", key, "' to be True or False, found ",
             kind_name(v.kind()));
  return v.to_bool();
}

std::pair<double, double> GroupReader::pair(const char* key) const {
  const IValue& v = get(key);
  TIDE_CHECK((v.is_tuple() || v.is_list()) && v.to_list().size() == 2, "[", where_,
             "] expected '", key, "' to be a pair of numbers, found ", kind_name(v.kind()));
  const IValue::List& items = v.to_list();
  for (const IValue& x : items) {
    TIDE_CHECK(x.is_int() || x.is_double(), "[", where_, "] expected '", key,
               "' to hold numbers, found ", kind_name(x.kind()));
  }
  auto as_double = [](const IValue& x) {
    return x.is_int() ? static_cast<double>(x.to_int()) : x.to_double();
  };
  return {as_double(items[0]), as_double(items[1])};
}

void GroupReader::unsupported_switch(const char* key) const {
  const IValue* v = find(key);
  TIDE_CHECK(v == nullptr || v->is_none() || (v->is_bool() && !v->to_bool()), "[", where_, "] '",
             key, "' is set in the loaded param group, and tide's optimizers do not have it; "
             "save the state_dict with it False");
}

}  // namespace detail

namespace {

constexpr const char* kWhere = "optim::Optimizer::load_state_dict";

IValue group_dict(std::vector<std::pair<std::string, IValue>> entries) {
  std::vector<std::pair<IValue, IValue>> items;
  for (auto& [key, value] : entries) items.emplace_back(key, std::move(value));
  return IValue::dict(std::move(items));
}

}  // namespace

IValue Optimizer::state_dict() const {
  std::vector<std::pair<IValue, IValue>> state;
  for (size_t i = 0; i < params_.size(); ++i) {
    const ParamState ps = param_state(i);
    if (ps.empty()) continue;  // torch keeps no entry for a parameter not stepped yet
    std::vector<std::pair<IValue, IValue>> entries;
    for (const auto& [name, t] : ps) {
      IValue value = t.defined() ? IValue(t) : IValue();  // undefined: torch's None
      if (name == "step" && step_is_int()) value = IValue(t.cpu().to(kInt64).item<int64_t>());
      entries.emplace_back(name, std::move(value));
    }
    state.emplace_back(static_cast<int64_t>(i), IValue::dict(std::move(entries)));
  }
  IValue::List groups;
  size_t next = 0;  // parameters are numbered across the groups in order (torch's)
  for (size_t g = 0; g < num_param_groups(); ++g) {
    std::vector<std::pair<std::string, IValue>> group = hyperparameters(g);
    IValue::List indices;
    for (size_t k = 0; k < param_group(g).size(); ++k) {
      indices.emplace_back(static_cast<int64_t>(next++));
    }
    group.emplace_back("params", IValue(std::move(indices)));
    groups.push_back(group_dict(std::move(group)));
  }
  return IValue::dict({{"state", IValue::dict(std::move(state))},
                       {"param_groups", IValue(std::move(groups))}});
}

void Optimizer::load_state_dict(const IValue& sd) {
  TIDE_CHECK(sd.is_dict(), "[", kWhere, "] expected a dict with 'state' and 'param_groups', "
             "found ", kind_name(sd.kind()));
  const IValue& groups = sd.at("param_groups");
  TIDE_CHECK(groups.is_list(), "[", kWhere, "] expected 'param_groups' to be a list, found ",
             kind_name(groups.kind()));
  const IValue::List& saved_groups = groups.to_list();
  TIDE_CHECK(saved_groups.size() == num_param_groups(), "[", kWhere, "] loaded state dict has ",
             saved_groups.size(), " parameter groups, and this optimizer ", num_param_groups(),
             "; load it into an optimizer with the same groups");
  // The saved indices of each group, in order: position k across the groups is parameter k.
  std::vector<int64_t> saved;
  for (size_t g = 0; g < saved_groups.size(); ++g) {
    TIDE_CHECK(saved_groups[g].is_dict(), "[", kWhere, "] expected param group ", g,
               " to be a dict, found ", kind_name(saved_groups[g].kind()));
    const IValue& indices = saved_groups[g].at("params");
    const size_t size = indices.is_list() ? indices.to_list().size() : 0;
    TIDE_CHECK(indices.is_list() && size == param_group(g).size(), "[", kWhere,
               "] loaded state dict has a group of ", size, " parameters (group ", g,
               "), and this optimizer's has ", param_group(g).size(),
               "; load it into an optimizer of the same parameters");
    for (const IValue& i : indices.to_list()) saved.push_back(i.to_int());
  }
  const IValue& state = sd.at("state");
  TIDE_CHECK(state.is_dict(), "[", kWhere, "] expected 'state' to be a dict, found ",
             kind_name(state.kind()));
  std::vector<ParamState> loaded(params_.size());
  for (const auto& [key, value] : state.to_dict().items) {
    size_t at = saved.size();
    for (size_t j = 0; j < saved.size(); ++j) {
      if (key.is_int() && saved[j] == key.to_int()) at = j;
    }
    TIDE_CHECK(at < saved.size(), "[", kWhere, "] 'state' has an entry for parameter ",
               key.is_int() ? std::to_string(key.to_int()) : kind_name(key.kind()),
               ", which no param group lists");
    TIDE_CHECK(value.is_dict(), "[", kWhere, "] expected parameter ", key.to_int(),
               "'s state to be a dict, found ", kind_name(value.kind()));
    for (const auto& [name, v] : value.to_dict().items) {
      TIDE_CHECK(name.is_string(), "[", kWhere, "] expected state names to be strings");
      Tensor t;
      if (v.is_tensor()) {
        t = v.to_tensor();
      } else if (v.is_int() || v.is_double()) {  // RMSprop's int step
        t = detail::step_tensor(v.is_int() ? v.to_int() : static_cast<int64_t>(v.to_double()));
      } else {
        TIDE_CHECK(v.is_none(), "[", kWhere, "] expected state entry '", name.to_string(),
                   "' to be a tensor, a number or None, found ", kind_name(v.kind()));
      }
      loaded[at].emplace_back(name.to_string(), std::move(t));
    }
  }
  // All or nothing: the old hyperparameters and states come back if any part fails.
  std::vector<ParamState> before(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) before[i] = param_state(i);
  std::vector<IValue> old_groups;
  for (size_t g = 0; g < num_param_groups(); ++g) {
    old_groups.push_back(group_dict(hyperparameters(g)));
  }
  try {
    for (size_t g = 0; g < num_param_groups(); ++g) load_hyperparameters(g, saved_groups[g]);
    for (size_t i = 0; i < params_.size(); ++i) load_param_state(i, loaded[i]);
  } catch (...) {
    for (size_t g = 0; g < num_param_groups(); ++g) load_hyperparameters(g, old_groups[g]);
    for (size_t i = 0; i < params_.size(); ++i) load_param_state(i, before[i]);
    throw;
  }
}

}  // namespace tide::optim
