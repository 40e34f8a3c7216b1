#pragma once
// Replicas: copies of a module on other devices whose parameters lead back to the module's
// (torch.nn.parallel.replicate), made once and refreshed for each forward (Note [DataParallel]
// in tide/nn/data_parallel.h).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tide/nn/module.h"

namespace tide::nn::parallel {

class Replicas {
 public:
  /// One replica of `module` per device of `devices`, ready for a forward: cloned when missing,
  /// or when the module's layout (children, their types, parameter and buffer names) changed
  /// since; then given differentiable copies of the module's current parameters (non-leaf
  /// tensors whose gradients flow to the originals, Note [Replica parameters] in
  /// src/autograd/replace_tensor.h), copies of its buffers, and its training flags. The copies
  /// are recorded in the caller's grad mode: under NoGradGuard they are plain tensors.
  std::vector<Module*> refresh(const Module& module, const std::vector<int>& devices);

  /// Drops the copies the last refresh gave the replicas: the graph keeps what backward needs,
  /// and between forwards the replicas hold no device memory (as torch's, which die).
  void release();

 private:
  struct Replica {
    int device = -1;
    std::shared_ptr<Module> module;
    std::vector<Tensor> tensors;  // its parameters then buffers, parallel to the module's
    Tensor empty;                 // what release() leaves them holding
  };

  /// Every submodule's path and type, then the names of `tensors` (the module's parameters
  /// then buffers).
  static std::vector<std::string> layout_of(
      const Module& module, const std::vector<std::pair<std::string, Tensor>>& tensors);
  Replica make(const Module& module, int device, const std::vector<std::string>& names) const;

  std::vector<std::string> layout_;  // of the module the replicas were cloned from
  std::vector<Replica> replicas_;
};

}  // namespace tide::nn::parallel
