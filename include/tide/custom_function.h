#pragma once
// Custom autograd functions: an op whose forward and backward are user code, as libtorch's
// torch::autograd::Function<T> and AutogradContext (torch/csrc/autograd/custom_function.h).
//
//   struct MulConstant : tide::autograd::Function<MulConstant> {
//     static Tensor forward(AutogradContext* ctx, Tensor x, double k) {
//       ctx->saved_data["k"] = k;
//       return x * k;
//     }
//     static std::vector<Tensor> backward(AutogradContext* ctx, std::vector<Tensor> grads) {
//       return {grads[0] * ctx->saved_data["k"].to_double(), Tensor()};  // one per argument
//     }
//   };
//   Tensor y = MulConstant::apply(x, 2.0);
//
// forward runs with grad mode off and returns a Tensor or a std::vector<Tensor>; when an
// argument requires grad (and grad mode is on) its outputs get one node whose backward calls
// T::backward with one gradient per output and takes back one per forward argument (undefined
// for arguments that are not tensors or need none). Python's torch.autograd.Function
// (python/tide/autograd/function.py) records the same node.

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "tide/ivalue.h"
#include "tide/tensor.h"

namespace tide::autograd {

class SavedVariable;

/// What a custom function's forward leaves for its backward (torch's AutogradContext).
class AutogradContext {
 public:
  AutogradContext();
  ~AutogradContext();
  AutogradContext(const AutogradContext&) = delete;
  AutogradContext& operator=(const AutogradContext&) = delete;

  /// Values other than tensors that backward needs (torch's saved_data).
  std::map<std::string, IValue> saved_data;

  /// Saves tensors (inputs or outputs of forward; undefined ones allowed) for backward, which
  /// reads them with get_saved_variables; an in-place change after forward makes that raise.
  void save_for_backward(std::vector<Tensor> to_save);
  /// The saved tensors; raises once a backward without retain_graph has freed them.
  std::vector<Tensor> get_saved_variables() const;
  /// These outputs of forward get no gradient history; backward receives zeros (or undefined
  /// gradients, see set_materialize_grads) for them.
  void mark_non_differentiable(const std::vector<Tensor>& outputs);
  /// true (the default): backward receives zeros for outputs no gradient reached; false:
  /// undefined tensors.
  void set_materialize_grads(bool value);
  /// Whether forward argument `index` is a tensor whose gradient is needed.
  bool needs_input_grad(size_t index) const;

 private:
  friend struct FunctionRecorder;
  std::vector<Tensor> to_save_;
  std::vector<SavedVariable> saved_;  // to_save_, once forward returned
  std::vector<const void*> non_differentiable_;  // TensorImpl addresses
  std::vector<bool> needs_input_grad_;
  bool materialize_grads_ = true;
  bool saved_ready_ = false;
};

/// A custom function's backward, given its context and one gradient per output.
using CustomBackward =
    std::function<std::vector<Tensor>(AutogradContext* ctx, std::vector<Tensor> grads)>;

namespace detail {

/// Runs `forward` with grad mode off and records its outputs (undefined for an output that is
/// not a tensor) as those of one custom-function node named `name` whose backward is
/// `backward`; `args` has one entry per forward argument (nullopt: not a tensor).
std::vector<Tensor> apply_function(const std::string& name,
                                   const std::shared_ptr<AutogradContext>& ctx,
                                   const std::vector<std::optional<Tensor>>& args,
                                   const std::function<std::vector<Tensor>()>& forward,
                                   CustomBackward backward);

/// "<T's name>Backward", as torch names a Python Function's node.
std::string function_node_name(const std::type_info& type);

inline std::optional<Tensor> as_input(const Tensor& t) { return t; }
template <class A>
std::optional<Tensor> as_input(const A&) {
  return std::nullopt;
}

inline std::vector<Tensor> as_outputs(Tensor t) { return {std::move(t)}; }
inline std::vector<Tensor> as_outputs(std::vector<Tensor> ts) { return ts; }

}  // namespace detail

/// The base of a custom function T, which defines static forward(AutogradContext*, args...)
/// and backward(AutogradContext*, std::vector<Tensor>) (see the top of this header).
template <class T>
struct Function {
  template <class... Args>
  static auto apply(Args&&... args) {
    using Out = decltype(T::forward(std::declval<AutogradContext*>(), std::forward<Args>(args)...));
    static_assert(std::is_same_v<Out, Tensor> || std::is_same_v<Out, std::vector<Tensor>>,
                  "forward must return a Tensor or a std::vector<Tensor>");
    auto ctx = std::make_shared<AutogradContext>();
    const std::vector<std::optional<Tensor>> inputs{detail::as_input(args)...};
    std::vector<Tensor> outputs = detail::apply_function(
        detail::function_node_name(typeid(T)), ctx, inputs,
        [&] { return detail::as_outputs(T::forward(ctx.get(), std::forward<Args>(args)...)); },
        [](AutogradContext* c, std::vector<Tensor> grads) {
          return T::backward(c, std::move(grads));
        });
    if constexpr (std::is_same_v<Out, Tensor>) {
      return outputs[0];
    } else {
      return outputs;
    }
  }
};

}  // namespace tide::autograd
