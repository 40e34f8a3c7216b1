#pragma once
// Node: one backward function of the graph; Edge: where its output gradients go.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "tide/cuda/stream.h"
#include "tide/device.h"
#include "tide/dim_vector.h"
#include "tide/dtype.h"
#include "tide/tensor.h"

namespace tide::autograd {

class Node;
class TensorHooks;

/// An input of a node: the node and which of its inputs (its forward output input_nr: 0 but
/// for custom functions, Note [One output per node] below).
struct Edge {
  std::shared_ptr<Node> node;
  uint32_t input_nr = 0;
  bool valid() const { return node != nullptr; }
};

/// Shape, dtype and device of the forward input an edge leads to: the engine checks each
/// computed gradient against it, sums broadcast dims away and casts the dtype, as torch's
/// validate_outputs.
struct InputMeta {
  DimVector shape;
  Dtype dtype = kFloat32;
  Device device{kCPU, -1};
};

// Note [One output per node]: torch's nodes may have several forward outputs (split, max with
// dim). tide's multi-output ops are compositions (chunk and split are narrows, one SliceBackward
// each) or have one differentiable output (max with dim: the values), so an op's node receives
// exactly one gradient (apply), and an undefined incoming gradient means the node's outputs are
// undefined too. Only a custom function (autograd/custom_function_node.h) has several outputs:
// it overrides num_outputs and apply_outputs, which get one gradient per output (undefined for
// those no gradient reached), and the engine keeps one buffer per output for it.
class Node : public std::enable_shared_from_this<Node> {
 public:
  explicit Node(const char* name);
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  /// torch's node name, e.g. "ExpBackward0".
  const char* name() const { return name_; }
  /// Creation order: the engine runs later nodes first (torch's sequence_nr).
  uint64_t sequence_nr() const { return sequence_nr_; }

  /// The gradients for next_edges (same order) given the gradient of the forward output.
  virtual std::vector<Tensor> apply(const Tensor& grad) = 0;
  /// Frees saved tensors after a backward without retain_graph.
  virtual void release_variables() {}

  /// How many forward outputs (gradients in) the node has (Note [One output per node]).
  virtual uint32_t num_outputs() const { return 1; }
  /// The gradients for next_edges given one per forward output, some defined; the engine calls
  /// it for nodes with several outputs.
  virtual std::vector<Tensor> apply_outputs(std::vector<Tensor> grads) { return apply(grads[0]); }

  /// The hooks of the tensor that is forward output `output_nr` (Note [Tensor hooks]); null
  /// when none was registered. `create` makes the list.
  virtual std::shared_ptr<TensorHooks> tensor_hooks(uint32_t output_nr, bool create = false);

  std::vector<Edge> next_edges;
  std::vector<InputMeta> input_meta;  // parallel to next_edges
  /// The stream the forward op ran on (cuda outputs only): the node runs there too.
  std::optional<cuda::Stream> stream;

 protected:
  void set_sequence_nr(uint64_t nr) { sequence_nr_ = nr; }

 private:
  const char* name_;
  uint64_t sequence_nr_;
  std::vector<std::shared_ptr<TensorHooks>> hooks_;  // by output_nr; empty for most nodes
};

/// Deletes a node and, iteratively, the chain of nodes only it kept alive: a graph of 10^5 ops
/// would overflow the stack if each node's destructor destroyed the next (torch's deleteNode).
/// Nodes are made with it as their shared_ptr deleter.
void delete_node(Node* node);

/// The edge through which a gradient for `t` flows: its grad_fn, or its leaf accumulator;
/// invalid when t does not require grad, or requires it only as a view of a leaf that does.
Edge gradient_edge(const Tensor& t);

}  // namespace tide::autograd
