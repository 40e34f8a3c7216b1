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

/// An input of a node: the node and which of its inputs (always 0: every tide node has one
/// forward output, Note [One output per node] below).
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
// each) or have one differentiable output (max with dim: the values), so a node receives
// exactly one gradient, the engine's input buffer per node is one tensor, and an undefined
// incoming gradient means the node's outputs are undefined too.
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

  std::vector<Edge> next_edges;
  std::vector<InputMeta> input_meta;  // parallel to next_edges
  /// The stream the forward op ran on (cuda outputs only): the node runs there too.
  std::optional<cuda::Stream> stream;

 protected:
  void set_sequence_nr(uint64_t nr) { sequence_nr_ = nr; }

 private:
  const char* name_;
  uint64_t sequence_nr_;
};

/// Deletes a node and, iteratively, the chain of nodes only it kept alive: a graph of 10^5 ops
/// would overflow the stack if each node's destructor destroyed the next (torch's deleteNode).
/// Nodes are made with it as their shared_ptr deleter.
void delete_node(Node* node);

/// The edge through which a gradient for `t` flows: its grad_fn, or its leaf accumulator;
/// invalid when t does not require grad, or requires it only as a view of a leaf that does.
Edge gradient_edge(const Tensor& t);

}  // namespace tide::autograd
