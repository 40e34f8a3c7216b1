#pragma once
// nn::ModuleDict (torch.nn.ModuleDict, libtorch's torch::nn::ModuleDict): child modules by
// string key, in insertion order, registered so parameters(), to() and state_dict() see them
// ("key.weight"). It has no forward: the owner picks the children it runs.
//   nn::ModuleDict heads({{"cls", std::make_shared<nn::Linear>(64, 10)},
//                         {"box", std::make_shared<nn::Linear>(64, 4)}});

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tide/error.h"
#include "tide/nn/module.h"

namespace tide::nn {

class ModuleDict : public Module {
 public:
  ModuleDict() = default;
  explicit ModuleDict(
      const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules);

  /// Adds `module` under `key`; a key already present (or not a valid name) throws.
  void insert(std::string key, std::shared_ptr<Module> module);
  /// Inserts each (key, module) in order.
  void update(const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules);
  size_t size() const { return child_count(); }
  bool is_empty() const { return size() == 0; }
  bool contains(const std::string& key) const { return has_child(key); }
  /// The keys in insertion order.
  std::vector<std::string> keys() const;
  std::vector<std::shared_ptr<Module>> values() const;
  /// The child under `key`; a missing key throws.
  Module& operator[](const std::string& key) const { return *ptr(key); }
  std::shared_ptr<Module> ptr(const std::string& key) const;
  /// The child under `key` as its own type T; a wrong type throws.
  template <class T>
  T& at(const std::string& key) const {
    auto* typed = dynamic_cast<T*>(ptr(key).get());
    TIDE_CHECK(typed != nullptr, "[nn::ModuleDict::at] child \"", key, "\" is a ",
               ptr(key)->name(), ", not the type asked for; ask for that type");
    return *typed;
  }

  /// A ModuleDict of clones of the children, under the same keys.
  std::shared_ptr<Module> clone(std::optional<Device> device = {}) const override;

 protected:
  void clone_from(const Module& other, std::optional<Device> device) override;
};

}  // namespace tide::nn
