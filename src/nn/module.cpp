#include "tide/nn/module.h"

#include <cxxabi.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <typeinfo>
#include <unordered_set>

#include "tide/autograd.h"
#include "tide/error.h"

namespace tide::nn {

namespace {

std::string shape_str(const std::vector<int64_t>& sizes) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < sizes.size(); ++i) os << (i ? ", " : "") << sizes[i];
  os << ']';
  return os.str();
}

std::string join_quoted(const std::vector<std::string>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", \"" : "\"") + keys[i] + "\"";
  return out;
}

}  // namespace

Module::~Module() = default;

Tensor Module::forward(const Tensor& /*input*/) {
  TIDE_CHECK(false, "[nn::Module::forward] Module [", name(),
             "] is missing the required \"forward\" function: override "
             "Tensor forward(const Tensor& input) in ",
             name(), ", or call the module's own operator() if it takes other arguments");
  return {};
}

Tensor Module::operator()(const Tensor& input) { return forward(input); }

std::string Module::name() const {
  const char* mangled = typeid(*this).name();
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string full = status == 0 && demangled ? demangled : mangled;
  std::free(demangled);
  // Drop namespaces ("tide::nn::Linear" -> "Linear"), but not inside template arguments.
  const size_t angle = full.find('<');
  const size_t colon = full.rfind("::", angle == std::string::npos ? std::string::npos : angle);
  return colon == std::string::npos ? full : full.substr(colon + 2);
}

// ---- registration

void Module::check_new_name(const std::string& name, const char* what) const {
  const std::string fn = std::string("[nn::Module::register_") + what + "] ";
  TIDE_CHECK(!name.empty(), fn, what, " name can't be empty; give the ", what,
             " a name (it is its key in state_dict)");
  TIDE_CHECK(name.find('.') == std::string::npos, fn, what, " name can't contain \".\", got \"",
             name, "\"; dots separate a child's name from its own names in state_dict");
  auto taken = [&](const auto& registry) {
    for (const auto& [key, value] : registry) {
      if (key == name) return true;
    }
    return false;
  };
  TIDE_CHECK(!taken(parameters_) && !taken(buffers_) && !taken(children_), fn, this->name(),
             " already has a parameter, buffer or child named \"", name,
             "\"; choose another name");
}

Tensor& Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  check_new_name(name, "parameter");
  if (tensor.defined()) {
    TIDE_CHECK(tensor.is_leaf(), "[nn::Module::register_parameter] parameter \"", name,
               "\" must be a leaf tensor, but it was computed by an op that recorded a graph; "
               "register tensor.detach() instead");
    TIDE_CHECK(!requires_grad || tensor.is_floating_point(),
               "[nn::Module::register_parameter] parameter \"", name,
               "\" requires grad, so it must be floating point, but it is ", tide::name(tensor.dtype()),
               "; convert it with .to(kFloat32) or pass requires_grad = false");
    tensor.requires_grad_(requires_grad);
  }
  parameters_.emplace_back(std::move(name), std::move(tensor));
  return parameters_.back().second;
}

Tensor& Module::register_buffer(std::string name, Tensor tensor) {
  check_new_name(name, "buffer");
  buffers_.emplace_back(std::move(name), std::move(tensor));
  return buffers_.back().second;
}

void Module::register_child(std::string name, std::shared_ptr<Module> module) {
  check_new_name(name, "module");
  TIDE_CHECK(module != nullptr, "[nn::Module::register_module] child \"", name,
             "\" is a null pointer; pass a module made with std::make_shared");
  TIDE_CHECK(module.get() != this, "[nn::Module::register_module] a module can't be its own child (\"",
             name, "\")");
  children_.emplace_back(std::move(name), std::move(module));
}

bool Module::has_child(const std::string& name) const {
  for (const auto& [key, child] : children_) {
    if (key == name) return true;
  }
  return false;
}

void Module::clear_registrations() {
  parameters_.clear();
  buffers_.clear();
  children_.clear();
}

// ---- traversal

template <class F>
void Module::visit_tensors(bool parameters, bool recurse, const std::string& prefix, F&& f) const {
  for (const auto& [key, tensor] : parameters ? parameters_ : buffers_) {
    if (tensor.defined()) f(prefix + key, tensor);
  }
  if (!recurse) return;
  for (const auto& [key, child] : children_) {
    child->visit_tensors(parameters, true, prefix + key + ".", f);
  }
}

std::vector<std::pair<std::string, Tensor>> Module::named_parameters(bool recurse) const {
  std::vector<std::pair<std::string, Tensor>> out;
  std::unordered_set<const TensorImpl*> seen;
  visit_tensors(true, recurse, "", [&](const std::string& key, const Tensor& t) {
    if (seen.insert(t.impl()).second) out.emplace_back(key, t);
  });
  return out;
}

std::vector<Tensor> Module::parameters(bool recurse) const {
  std::vector<Tensor> out;
  for (auto& [key, t] : named_parameters(recurse)) out.push_back(t);
  return out;
}

std::vector<std::pair<std::string, Tensor>> Module::named_buffers(bool recurse) const {
  std::vector<std::pair<std::string, Tensor>> out;
  std::unordered_set<const TensorImpl*> seen;
  visit_tensors(false, recurse, "", [&](const std::string& key, const Tensor& t) {
    if (seen.insert(t.impl()).second) out.emplace_back(key, t);
  });
  return out;
}

std::vector<Tensor> Module::buffers(bool recurse) const {
  std::vector<Tensor> out;
  for (auto& [key, t] : named_buffers(recurse)) out.push_back(t);
  return out;
}

std::vector<std::shared_ptr<Module>> Module::children() const {
  std::vector<std::shared_ptr<Module>> out;
  for (const auto& [key, child] : children_) out.push_back(child);
  return out;
}

std::vector<std::pair<std::string, std::shared_ptr<Module>>> Module::named_children() const {
  return {children_.begin(), children_.end()};
}

// ---- moving (Note [Modules move in place])

template <class F>
void Module::apply_in_place(F&& fn) {
  NoGradGuard no_grad;  // as torch's _apply: the copies are not part of any graph
  // A tensor shared by two modules (tied weights) moves once.
  std::unordered_set<const TensorImpl*> done;
  auto move = [&](const Tensor& t) {
    if (!t.defined() || !done.insert(t.impl()).second) return;
    const Tensor moved = fn(t);
    if (!moved.is_same(t)) t.set_data(moved);
  };
  auto visit = [&](Module& m, auto&& self) -> void {
    for (auto& [key, p] : m.parameters_) {
      if (!p.defined()) continue;
      move(p);
      move(p.grad());  // the grad handle shares its TensorImpl with the slot
    }
    for (auto& [key, b] : m.buffers_) move(b);
    for (auto& [key, child] : m.children_) self(*child, self);
  };
  visit(*this, visit);
}

Module& Module::to(Device device, bool non_blocking) {
  apply_in_place([&](const Tensor& t) { return t.to(device, non_blocking); });
  return *this;
}

Module& Module::to(const char* device, bool non_blocking) {
  return to(Device(device), non_blocking);
}

namespace {

void check_module_dtype(Dtype dtype) {
  TIDE_CHECK(is_floating_point(dtype),
             "[nn::Module::to] nn.Module.to only accepts floating point dtypes, but got desired "
             "dtype=",
             tide::name(dtype),
             "; modules convert their floating-point parameters and buffers only, so pass "
             "kFloat32, kFloat64, kFloat16 or kBFloat16");
}

}  // namespace

Module& Module::to(Dtype dtype, bool non_blocking) {
  check_module_dtype(dtype);
  apply_in_place([&](const Tensor& t) {
    return t.is_floating_point() ? t.to(dtype, non_blocking) : t;
  });
  return *this;
}

Module& Module::to(Device device, Dtype dtype, bool non_blocking) {
  check_module_dtype(dtype);
  apply_in_place([&](const Tensor& t) {
    return t.is_floating_point() ? t.to(device, dtype, non_blocking) : t.to(device, non_blocking);
  });
  return *this;
}

Module& Module::cuda(int index) { return to(Device(kCUDA, index)); }

Module& Module::cuda(Device device) {
  TIDE_CHECK(device.is_cuda(), "[nn::Module::cuda] expected a cuda device, got ", device.str(),
             "; use cpu() or to(device) to move to another kind of device");
  return to(device);
}

Module& Module::cpu() { return to(Device(kCPU)); }

// ---- mode and gradients

Module& Module::train(bool on) {
  training_ = on;
  for (auto& [key, child] : children_) child->train(on);
  return *this;
}

Module& Module::eval() { return train(false); }

void Module::zero_grad(bool set_to_none) {
  for (const Tensor& p : parameters()) {
    Tensor& grad = p.mutable_grad();
    if (!grad.defined()) continue;
    if (set_to_none) {
      grad = Tensor();
    } else {
      // As torch: a gradient that is part of a graph (create_graph) is detached first.
      if (grad.grad_fn()) grad = grad.detach();
      grad.zero_();
    }
  }
}

// ---- saved state

std::map<std::string, Tensor> Module::state_dict() const {
  std::map<std::string, Tensor> out;
  auto add = [&](const std::string& key, const Tensor& t) { out.emplace(key, t.detach()); };
  visit_tensors(true, true, "", add);
  visit_tensors(false, true, "", add);
  return out;
}

void Module::load_state_dict(const std::map<std::string, Tensor>& state_dict, bool strict) {
  // Every (key, destination) this module expects, in order; a tied tensor under each name.
  std::vector<std::pair<std::string, Tensor>> expected;
  auto add = [&](const std::string& key, const Tensor& t) { expected.emplace_back(key, t); };
  visit_tensors(true, true, "", add);
  visit_tensors(false, true, "", add);

  std::vector<std::string> missing, unexpected, mismatches;
  std::set<std::string> expected_keys;
  for (const auto& [key, dst] : expected) {
    expected_keys.insert(key);
    auto it = state_dict.find(key);
    if (it == state_dict.end()) {
      missing.push_back(key);
      continue;
    }
    const Tensor& src = it->second;
    if (!src.defined()) {
      mismatches.push_back("undefined tensor for " + key +
                           ": the checkpoint holds no value, the shape in current model is " +
                           shape_str(dst.sizes()) + ".");
    } else if (src.sizes() != dst.sizes()) {
      mismatches.push_back("size mismatch for " + key + ": copying a param with shape " +
                           shape_str(src.sizes()) +
                           " from checkpoint, the shape in current model is " +
                           shape_str(dst.sizes()) + ".");
    }
  }
  for (const auto& [key, t] : state_dict) {
    if (!expected_keys.count(key)) unexpected.push_back(key);
  }

  std::vector<std::string> errors;
  if (strict && !missing.empty()) {
    errors.push_back("Missing key(s) in state_dict: " + join_quoted(missing) + ". ");
  }
  if (strict && !unexpected.empty()) {
    errors.push_back("Unexpected key(s) in state_dict: " + join_quoted(unexpected) + ". ");
  }
  errors.insert(errors.end(), mismatches.begin(), mismatches.end());
  if (!errors.empty()) {
    std::string message = "[nn::Module::load_state_dict] Error(s) in loading state_dict for " +
                          name() + ":";
    for (const std::string& e : errors) message += "\n\t" + e;
    message += "\nNothing was loaded. Load a state_dict saved from a module of the same "
               "architecture";
    if (strict && (!missing.empty() || !unexpected.empty())) {
      message += ", or pass strict = false to skip missing and unexpected keys";
    }
    throw Error(message);
  }

  NoGradGuard no_grad;
  for (const auto& [key, dst] : expected) {
    auto it = state_dict.find(key);
    if (it != state_dict.end() && !it->second.is_same(dst)) dst.copy_(it->second);
  }
}

// ---- cloning

std::shared_ptr<Module> Module::clone(std::optional<Device> /*device*/) const {
  TIDE_CHECK(false, "[nn::Module::clone] clone() has not been implemented for ", name(),
             ". Derive it from nn::Cloneable<", name(),
             "> instead of nn::Module (registering its parameters, buffers and children in "
             "reset()), or override clone()");
  return nullptr;
}

void Module::clone_from(const Module& other, std::optional<Device> device) {
  (void)other.clone(device);  // throws for a module that cannot clone; say which
  TIDE_CHECK(false, "[nn::Module::clone] ", name(),
             " can clone itself but cannot be cloned as a child: derive it from nn::Cloneable<",
             name(), ">");
}

void Module::copy_state_from(const Module& original, std::optional<Device> device) {
  NoGradGuard no_grad;
  auto same_names = [](const auto& a, const auto& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].first != b[i].first) return false;
    }
    return true;
  };
  TIDE_CHECK(same_names(parameters_, original.parameters_) &&
                 same_names(buffers_, original.buffers_) &&
                 same_names(children_, original.children_),
             "[nn::Cloneable::clone] ", name(),
             "::reset() registered other parameters, buffers or children than the module "
             "holds; reset() must register everything the module has, with the same names");
  auto copy_tensors = [&](auto& mine, const auto& theirs, const char* what) {
    for (size_t i = 0; i < mine.size(); ++i) {
      Tensor& dst = mine[i].second;
      const Tensor& src = theirs[i].second;
      if (!src.defined()) {
        dst = Tensor();
        continue;
      }
      TIDE_CHECK(dst.defined() && !dst.is_same(src), "[nn::Cloneable::clone] ", name(),
                 "::reset() must register a new tensor for ", what, " \"", mine[i].first,
                 "\"; it registered ", dst.defined() ? "the original's own tensor" : "none");
      dst.set_data(device && src.device() != *device ? src.to(*device, false, true) : src.clone());
      if (dst.is_floating_point()) dst.requires_grad_(src.requires_grad());
    }
  };
  copy_tensors(parameters_, original.parameters_, "parameter");
  copy_tensors(buffers_, original.buffers_, "buffer");
  for (size_t i = 0; i < children_.size(); ++i) {
    TIDE_CHECK(children_[i].second != original.children_[i].second, "[nn::Cloneable::clone] ",
               name(), "::reset() must register a new module for child \"", children_[i].first,
               "\"; it registered the original's own child");
    children_[i].second->clone_from(*original.children_[i].second, device);
  }
  training_ = original.training_;
}

}  // namespace tide::nn
