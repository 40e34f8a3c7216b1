#pragma once
// nn::Module: a tree of modules, each holding parameters, buffers and children by name, in
// the order they were registered (torch.nn.Module). Moving a module (to, cuda, cpu) changes
// its tensors in place through Tensor::set_data, so every handle to a parameter — a member
// like Linear::weight, an optimizer's list — sees the new device (Note [Modules move in place]).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tide/device.h"
#include "tide/dtype.h"
#include "tide/tensor.h"

namespace tide::nn {

// Note [Modules move in place]
// torch's Module._apply assigns `param.data = fn(param)` (and `param.grad.data = fn(grad)`),
// so a parameter stays the same object while its storage moves; an optimizer built before
// model.cuda() keeps working. tide does the same with Tensor::set_data, for parameters,
// their gradients and buffers alike (torch replaces buffers in its dict; in C++ a member
// handle such as CrossEntropyLoss::weight could not follow a replacement, so buffers move in
// place too). Tensors a constructor receives from the caller (CrossEntropyLoss's weight) are
// registered as a new handle on the same storage, so moving the module leaves the caller's
// tensor where it was, as in torch.

class Module {
 public:
  Module() = default;
  virtual ~Module();
  /// Copies share the parameters, buffers and children (a Python reference, not a deep copy);
  /// clone() makes a deep copy.
  Module(const Module&) = default;
  Module(Module&&) = default;
  Module& operator=(const Module&) = default;
  Module& operator=(Module&&) = default;

  /// The computation of a one-input module; the base class has none and throws.
  virtual Tensor forward(const Tensor& input);
  /// Calls forward.
  Tensor operator()(const Tensor& input);

  /// The class name, without namespaces ("Linear", "Sequential", a subclass's own name).
  std::string name() const;

  // ---- moving, in place (Note [Modules move in place]); each returns *this
  /// Moves every parameter, gradient and buffer to `device`.
  Module& to(Device device, bool non_blocking = false);
  /// `module.to("cuda:0")`, as for tensors.
  Module& to(const char* device, bool non_blocking = false);
  /// Casts every floating-point parameter, gradient and buffer to `dtype` (a floating dtype).
  Module& to(Dtype dtype, bool non_blocking = false);
  Module& to(Device device, Dtype dtype, bool non_blocking = false);
  /// To cuda device `index` (-1: the current device).
  Module& cuda(int index = -1);
  Module& cuda(Device device);
  Module& cpu();

  // ---- mode
  /// Sets training mode on this module and every descendant.
  Module& train(bool on = true);
  Module& eval();
  bool is_training() const { return training_; }

  // ---- gradients
  /// Drops every parameter's gradient (set_to_none) or zeroes it in place.
  void zero_grad(bool set_to_none = true);

  // ---- what the module holds (registration order; descendants after the module's own)
  std::vector<Tensor> parameters(bool recurse = true) const;
  /// Dotted names as torch: "weight", "0.weight", "fc1.bias". A tensor registered twice is
  /// listed once, under its first name.
  std::vector<std::pair<std::string, Tensor>> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  std::vector<std::pair<std::string, Tensor>> named_buffers(bool recurse = true) const;
  /// The direct children.
  std::vector<std::shared_ptr<Module>> children() const;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> named_children() const;

  // ---- saved state
  /// Every parameter and buffer by dotted name, detached (sharing storage with the module).
  std::map<std::string, Tensor> state_dict() const;
  /// Copies values into the existing tensors (across devices and dtypes, without recording
  /// a graph). strict: the keys must match exactly. Shapes must match in either mode. On any
  /// error nothing is copied and one tide::Error lists every problem, in torch's wording.
  void load_state_dict(const std::map<std::string, Tensor>& state_dict, bool strict = true);

  /// A deep copy (new parameters, buffers and children with the same values and flags), on
  /// `device` when given. Modules derived from nn::Cloneable<T> have it; others throw.
  virtual std::shared_ptr<Module> clone(std::optional<Device> device = {}) const;

 protected:
  /// Registers `tensor` (a leaf, or undefined for "no parameter") as the parameter `name`
  /// and sets its requires_grad. Returns the registered handle.
  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  /// Registers `tensor` as the buffer `name` (state that moves with the module but is not
  /// trained); an undefined tensor registers nothing.
  Tensor& register_buffer(std::string name, Tensor tensor);
  /// Registers `module` as the child `name`.
  template <class M>
  std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> module) {
    register_child(std::move(name), module);
    return module;
  }

  /// For clone: makes this module (a fresh copy) take a deep copy of `other`, which has the
  /// same type. The base class cannot and throws; Cloneable and Sequential can.
  virtual void clone_from(const Module& other, std::optional<Device> device);
  /// For Cloneable::clone: forget every registration (a copy shares the original's).
  void clear_registrations();
  /// For Cloneable::clone: after reset() re-registered fresh tensors and children, copy the
  /// original's values (onto `device`), flags and children into them.
  void copy_state_from(const Module& original, std::optional<Device> device);
  /// Whether this module holds a child named `name`.
  bool has_child(const std::string& name) const;
  /// The child at registration position `index` (no bounds check: callers check).
  const std::shared_ptr<Module>& child_at(size_t index) const { return children_[index].second; }
  size_t child_count() const { return children_.size(); }
  /// Sets this module's own training flag, not its descendants'.
  void set_own_training(bool on) { training_ = on; }

 private:
  template <class T>
  using Registry = std::deque<std::pair<std::string, T>>;  // deque: references stay valid

  void register_child(std::string name, std::shared_ptr<Module> module);
  void check_new_name(const std::string& name, const char* what) const;
  /// Visits (dotted name, tensor) of every parameter (or buffer) of the tree, in order.
  template <class F>
  void visit_tensors(bool parameters, bool recurse, const std::string& prefix, F&& f) const;
  /// Replaces every parameter's, gradient's and buffer's data with fn(data), in place.
  template <class F>
  void apply_in_place(F&& fn);

  Registry<Tensor> parameters_;
  Registry<Tensor> buffers_;
  Registry<std::shared_ptr<Module>> children_;
  bool training_ = true;
};

/// A module that can deep-copy itself (libtorch's nn::Cloneable). Derive `class Net : public
/// nn::Cloneable<Net>` and register every parameter, buffer and child in `reset()` (call it
/// from the constructor); clone() copy-constructs the module, runs reset() on the copy to
/// make fresh tensors and children, then copies the original's values into them.
template <class Derived>
class Cloneable : public Module {
 public:
  /// (Re)registers the module's parameters, buffers and children with fresh tensors.
  virtual void reset() = 0;

  std::shared_ptr<Module> clone(std::optional<Device> device = {}) const override {
    auto copy = std::make_shared<Derived>(static_cast<const Derived&>(*this));
    copy->clear_registrations();
    copy->reset();
    copy->copy_state_from(*this, device);
    return copy;
  }

 protected:
  void clone_from(const Module& other, std::optional<Device> device) override {
    auto fresh = std::static_pointer_cast<Derived>(other.clone(device));
    static_cast<Derived&>(*this) = std::move(*fresh);
  }
};

}  // namespace tide::nn
