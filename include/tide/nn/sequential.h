#pragma once
// nn::Sequential: children named "0", "1", ... applied in order (torch.nn.Sequential).
//   nn::Sequential net(nn::Linear(784, 256), nn::ReLU(), nn::Linear(256, 10));

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "tide/error.h"
#include "tide/nn/module.h"

namespace tide::nn {

class Sequential;

namespace detail {
template <class T>
struct is_module_ptr : std::false_type {};
template <class T>
struct is_module_ptr<std::shared_ptr<T>> : std::is_base_of<Module, T> {};

/// A Sequential element: a module value (moved or copied into a new shared_ptr) or a
/// std::shared_ptr to a module (shared, as Python would).
template <class M>
concept SequentialItem =
    std::is_base_of_v<Module, std::decay_t<M>> || is_module_ptr<std::decay_t<M>>::value;
}  // namespace detail

class Sequential : public Module {
 public:
  Sequential() = default;
  /// One child per argument, in order. A single Sequential argument copies it (copy
  /// constructor); to nest one Sequential in another, pass a std::shared_ptr.
  template <class... M>
    requires(sizeof...(M) > 0 && (detail::SequentialItem<M> && ...) &&
             !(sizeof...(M) == 1 && (std::is_same_v<std::decay_t<M>, Sequential> && ...)))
  explicit Sequential(M&&... modules) {
    (push_back(to_shared(std::forward<M>(modules))), ...);
  }

  /// Appends `module` as child std::to_string(size()).
  void push_back(std::shared_ptr<Module> module);
  template <class M>
    requires std::is_base_of_v<Module, std::decay_t<M>>
  void push_back(M&& module) {
    push_back(to_shared(std::forward<M>(module)));
  }
  size_t size() const { return child_count(); }
  bool is_empty() const { return size() == 0; }
  /// The child at `index`; an index out of range throws.
  Module& operator[](size_t index) const { return *ptr(index); }
  std::shared_ptr<Module> ptr(size_t index) const;
  /// The child at `index` as its own type T; a wrong type throws.
  template <class T>
  T& at(size_t index) const {
    auto* typed = dynamic_cast<T*>(ptr(index).get());
    TIDE_CHECK(typed != nullptr, "[nn::Sequential::at] child ", index, " is a ",
               ptr(index)->name(), ", not the type asked for; ask for that type");
    return *typed;
  }

  /// Applies every child in order.
  Tensor forward(const Tensor& input) override;
  /// A Sequential of clones of the children.
  std::shared_ptr<Module> clone(std::optional<Device> device = {}) const override;

 protected:
  void clone_from(const Module& other, std::optional<Device> device) override;

 private:
  template <class M>
  static std::shared_ptr<Module> to_shared(M&& module) {
    if constexpr (detail::is_module_ptr<std::decay_t<M>>::value) {
      return std::forward<M>(module);
    } else {
      return std::make_shared<std::decay_t<M>>(std::forward<M>(module));
    }
  }
};

}  // namespace tide::nn
