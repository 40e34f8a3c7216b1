#include "tide/nn/module_dict.h"

namespace tide::nn {

ModuleDict::ModuleDict(
    const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules) {
  update(modules);
}

void ModuleDict::insert(std::string key, std::shared_ptr<Module> module) {
  register_module(std::move(key), std::move(module));
}

void ModuleDict::update(
    const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules) {
  for (const auto& [key, module] : modules) insert(key, module);
}

std::vector<std::string> ModuleDict::keys() const {
  std::vector<std::string> out;
  for (const auto& [key, child] : named_children()) out.push_back(key);
  return out;
}

std::vector<std::shared_ptr<Module>> ModuleDict::values() const { return children(); }

std::shared_ptr<Module> ModuleDict::ptr(const std::string& key) const {
  for (const auto& [name, child] : named_children()) {
    if (name == key) return child;
  }
  TIDE_CHECK(false, "[nn::ModuleDict] expected a key of the dict, found \"", key,
             "\"; check contains(key) first or insert it");
  return nullptr;
}

std::shared_ptr<Module> ModuleDict::clone(std::optional<Device> device) const {
  auto copy = std::make_shared<ModuleDict>();
  for (const auto& [key, child] : named_children()) copy->insert(key, child->clone(device));
  copy->set_own_training(is_training());  // the children's clones kept their own flags
  return copy;
}

void ModuleDict::clone_from(const Module& other, std::optional<Device> device) {
  *this = std::move(static_cast<ModuleDict&>(*other.clone(device)));
}

}  // namespace tide::nn
