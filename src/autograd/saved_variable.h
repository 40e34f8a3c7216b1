#pragma once
// SavedVariable: a tensor a backward function needs, with the version it had when saved.

#include <cstdint>

#include "tide/tensor.h"

namespace tide::autograd {

class SavedVariable {
 public:
  SavedVariable() = default;
  /// Saves t's data (an alias: no copy). `grad_fn_name` names the node that produced t (null
  /// for leaves); the error for a modified tensor names it, as torch.
  SavedVariable(const Tensor& t, const char* grad_fn_name, uint32_t output_nr);

  /// The saved data; raises torch's errors when it was modified in place since (Note
  /// [Version counters]) or freed by an earlier backward.
  Tensor unpack() const;
  void release();

 private:
  Tensor data_;  // detached alias: shares storage (so the version) but holds no graph
  uint32_t version_ = 0;
  uint32_t output_nr_ = 0;
  const char* grad_fn_name_ = nullptr;
  bool defined_ = false;
  bool released_ = false;
};

}  // namespace tide::autograd
