// Custom functions (tide/custom_function.h): AutogradContext and the node whose backward calls
// user code.

#include "tide/custom_function.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <set>

#include "autograd/autograd_meta.h"
#include "autograd/node.h"
#include "autograd/recording.h"
#include "autograd/saved_variable.h"
#include "tide/autograd.h"
#include "tide/cuda/stream.h"
#include "tide/factories.h"

namespace tide::autograd {

AutogradContext::AutogradContext() = default;
AutogradContext::~AutogradContext() = default;

void AutogradContext::save_for_backward(std::vector<Tensor> to_save) {
  to_save_ = std::move(to_save);
}

std::vector<Tensor> AutogradContext::get_saved_variables() const {
  std::vector<Tensor> out;
  if (!saved_ready_) return to_save_;  // read during forward itself
  out.reserve(saved_.size());
  for (const SavedVariable& v : saved_) out.push_back(v.unpack());
  return out;
}

void AutogradContext::mark_non_differentiable(const std::vector<Tensor>& outputs) {
  for (const Tensor& t : outputs) {
    if (t.defined()) non_differentiable_.push_back(t.impl());
  }
}

void AutogradContext::set_materialize_grads(bool value) { materialize_grads_ = value; }

bool AutogradContext::needs_input_grad(size_t index) const {
  return index < needs_input_grad_.size() && needs_input_grad_[index];
}

namespace {

std::string size_list(const DimVector& s) {
  std::string out = "[";
  for (int64_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

/// A node's name lives as long as the program: one copy per function type.
const char* intern(const std::string& name) {
  static std::mutex mutex;
  static std::set<std::string> names;
  std::lock_guard<std::mutex> lock(mutex);
  return names.insert(name).first->c_str();
}

/// The node of one custom-function call: one forward output per output of forward, one edge per
/// forward argument (invalid for arguments that are not tensors or need no gradient).
class CustomFunctionNode final : public Node {
 public:
  CustomFunctionNode(const char* name, std::shared_ptr<AutogradContext> ctx,
                     CustomBackward backward, std::vector<bool> is_tensor_arg)
      : Node(name),
        ctx_(std::move(ctx)),
        backward_(std::move(backward)),
        is_tensor_arg_(std::move(is_tensor_arg)) {}

  uint32_t num_outputs() const override { return static_cast<uint32_t>(outputs.size()); }
  std::vector<Tensor> apply(const Tensor& grad) override { return apply_outputs({grad}); }
  std::vector<Tensor> apply_outputs(std::vector<Tensor> grads) override;
  void release_variables() override;

  /// Shape, dtype and device of each output, for materialized zero gradients (nullopt: the
  /// output is not a tensor).
  std::vector<std::optional<InputMeta>> outputs;

 private:
  void check_gradient(size_t i, const Tensor& g) const;

  std::shared_ptr<AutogradContext> ctx_;
  CustomBackward backward_;
  std::vector<bool> is_tensor_arg_;
};

}  // namespace

/// What apply_function needs of AutogradContext's private state.
struct FunctionRecorder {
  static void begin(AutogradContext& ctx, std::vector<bool> needs) {
    ctx.needs_input_grad_ = std::move(needs);
  }
  static bool is_non_differentiable(const AutogradContext& ctx, const Tensor& t) {
    return std::find(ctx.non_differentiable_.begin(), ctx.non_differentiable_.end(), t.impl()) !=
           ctx.non_differentiable_.end();
  }
  static bool materialize(const AutogradContext& ctx) { return ctx.materialize_grads_; }
  /// Turns the tensors save_for_backward got into SavedVariables once the outputs are known:
  /// an output is saved as this node's (raw: forward's own tensors; wrapped: what apply returns).
  static void seal(AutogradContext& ctx, const std::vector<Tensor>& raw,
                   const std::vector<Tensor>& wrapped, Node* node) {
    ctx.saved_.clear();
    for (const Tensor& t : ctx.to_save_) {
      size_t j = 0;
      while (j < raw.size() && !(t.defined() && raw[j].defined() && raw[j].impl() == t.impl())) ++j;
      const AutogradMeta* out_meta = j < raw.size() ? meta_of(wrapped[j]) : nullptr;
      if (node && out_meta && out_meta->grad_fn.get() == node) {
        // Held weakly: the node holds this context (Note [Saved outputs and double backward]).
        ctx.saved_.emplace_back(wrapped[j], node->weak_from_this(), node->name(),
                                static_cast<uint32_t>(j));
        continue;
      }
      const AutogradMeta* meta = meta_of(t);
      const bool has_fn = meta && meta->grad_fn;
      ctx.saved_.emplace_back(t, has_fn ? meta->grad_fn->name() : nullptr,
                              has_fn ? meta->output_nr : 0);
    }
    ctx.to_save_.clear();
    ctx.saved_ready_ = true;
  }
  static void release(AutogradContext& ctx) {
    for (SavedVariable& v : ctx.saved_) v.release();
  }
};

namespace {

void CustomFunctionNode::release_variables() { FunctionRecorder::release(*ctx_); }

void CustomFunctionNode::check_gradient(size_t i, const Tensor& g) const {
  const InputMeta& meta = input_meta[i];
  TIDE_CHECK(is_expandable_to(meta.shape, g.shape()), "[autograd] Function ", name(),
             " returned an invalid gradient at index ", i, " - got ", size_list(g.shape()),
             " but expected shape compatible with ", size_list(meta.shape),
             "; return a gradient shaped like forward's argument ", i);
  TIDE_CHECK(g.device() == meta.device || g.dim() == 0, "[autograd] Function ", name(),
             " returned an invalid gradient at index ", i, " - expected device ", meta.device,
             " but got ", g.device(), "; move the gradient to the argument's device");
}

std::vector<Tensor> CustomFunctionNode::apply_outputs(std::vector<Tensor> grads) {
  if (FunctionRecorder::materialize(*ctx_)) {
    for (size_t i = 0; i < grads.size(); ++i) {
      if (grads[i].defined() || !outputs[i]) continue;
      const InputMeta& m = *outputs[i];
      grads[i] = zeros(m.shape.vec(), tide::device(m.device).dtype(m.dtype));
    }
  }
  std::vector<Tensor> result = backward_(ctx_.get(), std::move(grads));
  const size_t expected = next_edges.size();
  // Extra trailing undefined gradients are allowed (torch).
  while (result.size() > expected && !result.back().defined()) result.pop_back();
  TIDE_CHECK(result.size() == expected, "[autograd] function ", name(),
             " returned an incorrect number of gradients (expected ", expected, ", got ",
             result.size(), "); return one per argument of forward (undefined, None in Python, "
             "for those that need none)");
  for (size_t i = 0; i < expected; ++i) {
    if (!result[i].defined()) continue;
    TIDE_CHECK(is_tensor_arg_[i], "[autograd] function ", name(),
               " returned a gradient different than None at position ", i + 1,
               ", but the corresponding forward input was not a Variable; return None there");
    if (!next_edges[i].valid()) {
      result[i] = Tensor();  // an argument that needs no gradient: dropped, as torch
      continue;
    }
    check_gradient(i, result[i]);
  }
  return result;
}

}  // namespace

namespace detail {

std::string function_node_name(const std::type_info& type) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  std::string name = status == 0 && demangled ? demangled : type.name();
  std::free(demangled);
  return name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1) + "Backward";
}

std::vector<Tensor> apply_function(const std::string& name,
                                   const std::shared_ptr<AutogradContext>& ctx,
                                   const std::vector<std::optional<Tensor>>& args,
                                   const std::function<std::vector<Tensor>()>& forward,
                                   CustomBackward backward) {
  const bool grad_mode = GradMode::is_enabled();
  std::vector<bool> needs, is_tensor;
  bool any = false;
  for (const std::optional<Tensor>& a : args) {
    is_tensor.push_back(a.has_value());
    const bool need = grad_mode && a && a->defined() && a->requires_grad();
    needs.push_back(need);
    any |= need;
  }
  FunctionRecorder::begin(*ctx, needs);
  std::vector<Tensor> raw;
  {
    AutoGradMode off(false);  // forward's own ops record nothing: this node stands for them
    raw = forward();
  }
  if (!any) {
    FunctionRecorder::seal(*ctx, raw, raw, nullptr);
    return raw;
  }

  auto node = std::shared_ptr<CustomFunctionNode>(
      new CustomFunctionNode(intern(name), ctx, std::move(backward), std::move(is_tensor)),
      delete_node);
  for (size_t i = 0; i < args.size(); ++i) {
    if (!needs[i]) {
      node->next_edges.emplace_back();
      node->input_meta.emplace_back();
      continue;
    }
    const Tensor& a = *args[i];
    node->next_edges.push_back(gradient_edge(a));
    node->input_meta.push_back(InputMeta{a.shape(), a.dtype(), a.device()});
  }
  std::vector<Tensor> wrapped = raw;
  for (size_t i = 0; i < raw.size(); ++i) {
    Tensor& out = wrapped[i];
    if (!out.defined()) {
      node->outputs.emplace_back();
      continue;
    }
    node->outputs.push_back(InputMeta{out.shape(), out.dtype(), out.device()});
    if (FunctionRecorder::is_non_differentiable(*ctx, out) || !out.is_floating_point()) continue;
    // An argument returned as it is gets a new tensor over the same data, with this history
    // (the argument keeps its own, as torch).
    const bool is_argument = std::any_of(args.begin(), args.end(), [&](const auto& a) {
      return a && a->defined() && a->impl() == out.impl();
    });
    if (is_argument) {
      out = Tensor(out.storage(), out.dtype(), out.shape(), out.stride_vector(),
                   out.storage_offset());
    }
    AutogradMeta& meta = materialize_meta(out);
    meta.grad_fn = node;
    meta.output_nr = static_cast<uint32_t>(i);
    if (out.impl()->view_base) out.impl()->view_version = out.storage().version();
    if (out.is_cuda() && !node->stream) node->stream = cuda::current_stream(out.device().index());
  }
  FunctionRecorder::seal(*ctx, raw, wrapped, node.get());
  return wrapped;
}

}  // namespace detail
}  // namespace tide::autograd
