#include "autograd/engine.h"

#include <functional>
#include <iostream>
#include <optional>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "autograd/autograd_meta.h"
#include "autograd/node.h"
#include "autograd/recording.h"
#include "autograd/tensor_hooks.h"
#include "tide/anomaly_mode.h"
#include "tide/autograd.h"
#include "tide/cuda/stream_guard.h"
#include "tide/factories.h"

namespace tide::autograd {
namespace {

std::string size_str(const DimVector& s) {
  std::string out = "tide.Size([";
  for (int64_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "])";
}

/// torch's validate_outputs: a gradient must fit the forward input it is for.
Tensor validate(Tensor grad, const InputMeta& meta, const Node& node, size_t index) {
  if (!grad.defined()) return grad;
  if (grad.shape() != meta.shape) {
    TIDE_CHECK(is_expandable_to(meta.shape, grad.shape()), "[autograd] Function ", node.name(),
               " returned an invalid gradient at index ", index, " - got ", size_str(grad.shape()),
               " but expected shape compatible with ", size_str(meta.shape),
               "; this is a tide bug, please report it");
    grad = sum_to(grad, meta.shape);
  }
  if (grad.device() != meta.device) {
    // A 0-dim cpu tensor may join an op on a GPU (torch's cpu-scalar rule): its gradient,
    // summed to 0-dim on the GPU, goes back to the cpu, as torch's validate_outputs does.
    TIDE_CHECK(grad.dim() == 0, "[autograd] Function ", node.name(),
               " returned an invalid gradient at index ", index, " - expected device ",
               meta.device, " but got ", grad.device(), "; this is a tide bug, please report it");
    grad = grad.to(meta.device);
  }
  if (grad.dtype() != meta.dtype) grad = grad.to(meta.dtype);
  return grad;
}

struct NodeState {
  Tensor buffer;             // output 0's summed incoming gradient (Note [One output per node])
  std::vector<Tensor> more;  // outputs 1, 2, ... of a custom function's node
  int dependencies = 0;
  bool needed = true;   // some captured input (autograd::grad) is reachable from here
  bool execute = true;  // run apply (false for captured leaves' accumulators)
  /// autograd::grad: which inputs this node's gradient answers, and from which output slot.
  std::vector<std::pair<size_t, uint32_t>> captures;

  Tensor& slot(uint32_t output_nr) {
    if (output_nr == 0) return buffer;
    if (more.size() < output_nr) more.resize(output_nr);
    return more[output_nr - 1];
  }
  /// The gradients of all `n` outputs, moved out.
  std::vector<Tensor> take(uint32_t n) {
    std::vector<Tensor> grads(n);
    grads[0] = std::move(buffer);
    for (uint32_t i = 1; i < n && i - 1 < more.size(); ++i) grads[i] = std::move(more[i - 1]);
    return grads;
  }
};

struct LaterFirst {
  bool operator()(const Node* a, const Node* b) const {
    return a->sequence_nr() < b->sequence_nr();
  }
};

class GraphTask {
 public:
  /// Adds `grad`, produced on `producer` (null: host or cpu), to the buffer of `target`'s
  /// output `input_nr`.
  void deliver(Node* target, uint32_t input_nr, Tensor grad,
               const std::optional<cuda::Stream>& producer) {
    if (!grad.defined()) return;
    Tensor& buffer = states_[target].slot(input_nr);
    const std::optional<cuda::Stream>& consumer = target->stream;
    if (consumer) {
      if (producer && producer->device_index() == consumer->device_index()) {
        if (*producer != *consumer) consumer->wait_stream(*producer);
      } else {
        // Made on the host or another device: a copy onto this device is ordered on this
        // device's current stream (Note [Copies between devices] in tensor/copy.cpp).
        const cuda::Stream current = cuda::current_stream(consumer->device_index());
        if (current != *consumer) consumer->wait_stream(current);
      }
    }
    if (!buffer.defined()) {
      buffer = std::move(grad);
      return;
    }
    std::optional<cuda::StreamGuard> guard;
    if (consumer) guard.emplace(*consumer);
    buffer = buffer + grad;
  }

  std::unordered_map<Node*, NodeState> states_;
  std::unordered_set<cuda::Stream> streams_used_;
};

/// The final callbacks of the backward running on this thread (null outside one); a backward
/// run from inside a hook has its own list and restores the outer one when it ends.
thread_local std::vector<std::function<void()>>* current_callbacks = nullptr;

class CallbacksScope {
 public:
  explicit CallbacksScope(std::vector<std::function<void()>>* mine)
      : previous_(std::exchange(current_callbacks, mine)) {}
  ~CallbacksScope() { current_callbacks = previous_; }
  CallbacksScope(const CallbacksScope&) = delete;
  CallbacksScope& operator=(const CallbacksScope&) = delete;

 private:
  std::vector<std::function<void()>>* previous_;
};

/// The gradients that `node` passes on, given its incoming ones, after its tensors' hooks
/// (Note [Tensor hooks]); undefined ones when no gradient reached it.
std::vector<Tensor> call_node(Node* node, NodeState& st) {
  const uint32_t n = node->num_outputs();
  if (n == 1) {
    Tensor grad = std::move(st.buffer);
    if (auto hooks = node->tensor_hooks(0)) grad = hooks->run(std::move(grad));
    if (grad.defined()) return node->apply(grad);
    return std::vector<Tensor>(node->next_edges.size());
  }
  std::vector<Tensor> grads = st.take(n);
  bool any = false;
  for (uint32_t i = 0; i < n; ++i) {
    if (auto hooks = node->tensor_hooks(i)) grads[i] = hooks->run(std::move(grads[i]));
    any |= grads[i].defined();
  }
  if (any) return node->apply_outputs(std::move(grads));
  return std::vector<Tensor>(node->next_edges.size());
}

/// call_node under anomaly mode (tide/anomaly_mode.h): names the node whose backward raised or
/// returned NaN.
std::vector<Tensor> call_node_checked(Node* node, NodeState& st) {
  std::vector<Tensor> outs;
  try {
    outs = call_node(node, st);
  } catch (...) {
    std::cerr << "[autograd] anomaly mode: Error detected in " << node->name()
              << ", the backward of the forward op that made it (the error follows)\n";
    throw;
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    const Tensor& g = outs[i];
    TIDE_CHECK(!(g.defined() && g.is_floating_point() && g.isnan().any().item<bool>()),
               "[autograd] Function '", node->name(), "' returned nan values in its ", i,
               "th output. Anomaly mode found it in the backward of that forward op; look "
               "for what gives NaN there (0/0, log of a negative, inf - inf)");
  }
  return outs;
}

/// Every node reachable from `roots`, children before parents.
std::vector<Node*> post_order(const std::vector<Node*>& roots) {
  std::vector<Node*> order;
  std::unordered_set<Node*> seen;
  std::vector<std::pair<Node*, size_t>> stack;
  for (Node* r : roots) {
    if (!seen.insert(r).second) continue;
    stack.emplace_back(r, 0);
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->next_edges.size()) {
        Node* child = node->next_edges[next++].node.get();
        if (child && seen.insert(child).second) stack.emplace_back(child, 0);
        continue;
      }
      order.push_back(node);
      stack.pop_back();
    }
  }
  return order;
}

}  // namespace

std::vector<Tensor> run_backward(const std::vector<Tensor>& outputs,
                                 const std::vector<Tensor>& grad_outputs,
                                 const BackwardOptions& options, const std::vector<Tensor>* inputs,
                                 const char* where) {
  const bool accumulate = options.accumulate_into_inputs;
  TIDE_INTERNAL_ASSERT(!accumulate || inputs);
  TIDE_CHECK(grad_outputs.empty() || grad_outputs.size() == outputs.size(), "[", where,
             "] grad_outputs should be a sequence of length ", outputs.size(),
             " (one per output) "
             "but got ",
             grad_outputs.size());
  AutoGradMode grad_mode(options.create_graph);  // Note [create_graph]
  GraphTask task;
  std::vector<std::function<void()>> callbacks;
  CallbacksScope callbacks_scope(&callbacks);

  // Roots: the outputs' edges and their gradients (torch's _make_grads).
  std::vector<Node*> root_nodes;
  std::vector<std::pair<Edge, Tensor>> roots;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& out = outputs[i];
    TIDE_CHECK(out.defined(), "[", where, "] output ", i, " is an undefined tensor");
    TIDE_CHECK(out.requires_grad(), "[", where, "] element ", i,
               " of tensors does not require grad and does not have a grad_fn; call "
               "requires_grad_() on the leaves before the forward ops, and do not run them under "
               "NoGradGuard");
    Tensor g = i < grad_outputs.size() ? grad_outputs[i] : Tensor();
    if (!g.defined()) {
      TIDE_CHECK(out.numel() == 1, "[", where,
                 "] grad can be implicitly created only for scalar outputs; the output has shape ",
                 size_str(out.shape()), ": pass a gradient of that shape (backward(gradient))");
      g = ones_like(out);
    } else {
      TIDE_CHECK(g.shape() == out.shape(), "[", where, "] Mismatch in shape: grad_output[", i,
                 "] has a shape of ", size_str(g.shape()), " and output[", i, "] has a shape of ",
                 size_str(out.shape()), ".");
      TIDE_CHECK(g.device() == out.device(), "[", where, "] invalid gradient at index ", i,
                 " - expected device ", out.device(), " but got ", g.device(),
                 "; move the gradient to the output's device (gradient.to(output.device()))");
      if (g.dtype() != out.dtype()) g = g.to(out.dtype());
    }
    Edge e = gradient_edge(out);
    // A view that requires grad only through its leaf base has no edge until the base is
    // written (Note [Views and in-place ops]); torch raises the same.
    TIDE_CHECK(e.valid(), "[", where, "] element ", i,
               " of tensors does not require grad and does not have a grad_fn: it is a view made "
               "before requires_grad_() on its base; take the view again after requires_grad_()");
    root_nodes.push_back(e.node.get());
    roots.emplace_back(std::move(e), std::move(g));
  }

  // autograd::grad: the nodes whose incoming gradient answers each input.
  std::vector<Tensor> results;
  std::vector<std::shared_ptr<Node>> keep_alive;  // accumulators made for unused leaves
  std::unordered_map<Node*, std::vector<std::pair<size_t, uint32_t>>> captures;
  if (inputs) {
    results.resize(inputs->size());
    for (size_t i = 0; i < inputs->size(); ++i) {
      const Tensor& in = (*inputs)[i];
      TIDE_CHECK(in.defined() && in.requires_grad(), "[", where,
                 "] One of the differentiated Tensors does not require grad (input ", i, ")");
      Edge e = gradient_edge(in);
      keep_alive.push_back(e.node);
      captures[e.node.get()].emplace_back(i, e.input_nr);
    }
  }

  // Which nodes run, and how many gradients each waits for.
  const std::vector<Node*> order = post_order(root_nodes);
  for (Node* n : order) {  // children first
    NodeState& st = task.states_[n];
    auto c = captures.find(n);
    if (c != captures.end()) st.captures = c->second;
    if (!inputs) continue;
    bool child_needed = false;
    for (const Edge& e : n->next_edges)
      child_needed |= e.valid() && task.states_[e.node.get()].needed;
    st.needed = child_needed || !st.captures.empty();
    // backward(inputs=) runs the nodes of its inputs: the leaves' accumulators, and the
    // non-leaves' grad_fns for their hooks (retain_grad keeps the gradient), as torch.
    st.execute = child_needed || (accumulate && !st.captures.empty());
  }
  if (inputs && !options.allow_unused) {
    for (auto& [node, idx] : captures) {
      TIDE_CHECK(task.states_.count(node), "[", where,
                 "] One of the differentiated Tensors appears to not have been used in the graph "
                 "(input ",
                 idx.front().first,
                 "). Set allow_unused=True if this is the desired behavior, or pass only inputs "
                 "the outputs depend on");
    }
  }
  for (Node* n : order) {
    NodeState& st = task.states_[n];
    if (!st.needed || !st.execute) continue;
    for (const Edge& e : n->next_edges) {
      if (e.valid() && task.states_[e.node.get()].needed) ++task.states_[e.node.get()].dependencies;
    }
  }

  const bool anomaly = AnomalyMode::is_enabled();
  std::priority_queue<Node*, std::vector<Node*>, LaterFirst> ready;
  for (auto& [edge, g] : roots) {
    std::optional<cuda::Stream> caller;
    if (g.is_cuda()) caller = cuda::current_stream(g.device().index());
    task.deliver(edge.node.get(), edge.input_nr, std::move(g), caller);
  }
  {
    std::unordered_set<Node*> queued;
    for (Node* r : root_nodes) {
      if (task.states_[r].needed && task.states_[r].dependencies == 0 && queued.insert(r).second)
        ready.push(r);
    }
  }

  std::vector<Node*> executed;
  while (!ready.empty()) {
    Node* node = ready.top();
    ready.pop();
    NodeState& st = task.states_[node];
    // Captured before the tensors' hooks run (Note [Tensor hooks]).
    for (auto [i, output_nr] : st.captures) results[i] = st.slot(output_nr);
    // A captured gradient was made ready on this node's stream (several are summed there) even
    // when the node does not run: the caller waits for it too (torch's leaf streams).
    if (!st.captures.empty() && node->stream) task.streams_used_.insert(*node->stream);
    if (!st.execute) continue;

    std::optional<cuda::StreamGuard> guard;
    if (node->stream) {
      guard.emplace(*node->stream);
      task.streams_used_.insert(*node->stream);
    }
    std::vector<Tensor> outs = anomaly ? call_node_checked(node, st) : call_node(node, st);
    executed.push_back(node);
    TIDE_INTERNAL_ASSERT(outs.size() == node->next_edges.size());
    for (size_t i = 0; i < outs.size(); ++i) {
      const Edge& e = node->next_edges[i];
      if (!e.valid()) continue;
      NodeState& next = task.states_[e.node.get()];
      if (!next.needed) continue;
      task.deliver(e.node.get(), e.input_nr,
                   validate(std::move(outs[i]), node->input_meta[i], *node, i), node->stream);
      if (--next.dependencies == 0) ready.push(e.node.get());
    }
  }
  if (!options.retain_graph) {
    for (Node* n : executed) n->release_variables();
  }
  // Note [Backward streams]: the caller's current streams wait for every stream used.
  for (const cuda::Stream& s : task.streams_used_) {
    const cuda::Stream current = cuda::current_stream(s.device_index());
    if (current != s) current.wait_stream(s);
  }
  // By index: a callback may queue another, which runs after it.
  for (size_t i = 0; i < callbacks.size(); ++i) {
    std::function<void()> callback = std::move(callbacks[i]);
    callback();
  }
  if (accumulate) return {};
  return results;
}

void queue_callback(std::function<void()> callback) {
  TIDE_CHECK(current_callbacks != nullptr, "[autograd::queue_callback] Final callbacks can only "
             "be installed during backward pass; call it from a hook that backward runs");
  current_callbacks->push_back(std::move(callback));
}

std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                         const std::vector<Tensor>& grad_outputs, std::optional<bool> retain_graph,
                         bool allow_unused, bool create_graph) {
  BackwardOptions options;
  options.retain_graph = retain_graph.value_or(create_graph);  // torch's default
  options.allow_unused = allow_unused;
  options.create_graph = create_graph;
  return run_backward(outputs, grad_outputs, options, &inputs, "autograd::grad");
}

void backward(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors,
              std::optional<bool> retain_graph, const std::vector<Tensor>& inputs,
              bool create_graph) {
  BackwardOptions options;
  options.retain_graph = retain_graph.value_or(create_graph);  // torch's default
  options.create_graph = create_graph;
  if (inputs.empty()) {
    run_backward(tensors, grad_tensors, options, nullptr, "autograd::backward");
    return;
  }
  // torch's backward(inputs=): an input the outputs do not reach keeps its grad(); a non-leaf
  // input keeps its gradient as with retain_grad.
  for (const Tensor& t : inputs) {
    if (t.defined() && t.requires_grad() && !t.is_leaf()) retain_grad(t);
  }
  options.allow_unused = true;
  options.accumulate_into_inputs = true;
  run_backward(tensors, grad_tensors, options, &inputs, "autograd::backward");
}

}  // namespace tide::autograd
