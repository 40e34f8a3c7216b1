#pragma once
// SavedVariable: a tensor a backward function needs, with the version it had when saved.
//
// Note [Saved outputs and double backward]: a derivative formula reads its saved tensors with
// ordinary ops, so under create_graph (grad mode on during backward, autograd/engine.cpp) what
// it computes records a graph only if the saved tensors keep their autograd identity. As torch's
// SavedVariable:
//  - a leaf that requires grad is saved as the tensor itself (a second handle: no copy and no
//    new TensorImpl), so what the formula computes from it reaches its accumulator.
//  - any other tensor is saved as a detached alias of its data (its own TensorImpl: replacing
//    the original later, Note [Replica parameters] in autograd/replace_tensor.h, or giving it a
//    new history does not change what backward reads), plus the grad_fn it had. An input's is
//    held strongly (the node holds it through its next_edges anyway). The forward op's own
//    output's is held weakly: output -> grad_fn -> node -> saved output would be a strong cycle,
//    and the graph would never be freed (torch saves outputs the same way).
//  - unpack() gives back the alias as it is when grad mode is off (a plain backward: no
//    allocation), and under create_graph a fresh alias with the saved grad_fn re-attached.
// All share the storage, so the version check (Note [Version counters]) is the same for all.

#include <cstdint>
#include <memory>

#include "tide/tensor.h"

namespace tide::autograd {

class Node;

class SavedVariable {
 public:
  SavedVariable() = default;
  /// Saves an input t with its history (no copy of the data). `grad_fn_name` names the node that
  /// produced t (null for leaves); the error for a modified tensor names it, as torch.
  SavedVariable(const Tensor& t, const char* grad_fn_name, uint32_t output_nr);
  /// Saves t, output `output_nr` of `grad_fn` (the node saving it, named `grad_fn_name`): data
  /// detached, grad_fn weakly held (Note [Saved outputs and double backward]).
  SavedVariable(const Tensor& t, std::weak_ptr<Node> grad_fn, const char* grad_fn_name,
                uint32_t output_nr);

  /// The saved tensor; raises torch's errors when it was modified in place since (Note
  /// [Version counters]) or freed by an earlier backward. An output comes back with its grad_fn
  /// when grad mode is on.
  Tensor unpack() const;
  void release();

 private:
  Tensor data_;  // a leaf that requires grad itself, else a detached alias
  std::shared_ptr<Node> input_grad_fn_;  // re-attached by unpack under grad mode
  std::weak_ptr<Node> output_grad_fn_;   // the same for the node's own output: weakly
  uint32_t version_ = 0;
  uint32_t output_nr_ = 0;
  const char* grad_fn_name_ = nullptr;
  bool defined_ = false;
  bool is_output_ = false;
  bool released_ = false;
};

}  // namespace tide::autograd
