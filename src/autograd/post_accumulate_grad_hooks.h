#pragma once
// The post-accumulate-grad hooks of one leaf (Tensor::register_post_accumulate_grad_hook).

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "tide/removable_handle.h"
#include "tide/tensor.h"

namespace tide::autograd {

/// Held by the leaf's AutogradMeta through a shared_ptr; a RemovableHandle holds it weakly,
/// so removing a hook after the leaf died does nothing.
class PostAccumulateGradHooks : public std::enable_shared_from_this<PostAccumulateGradHooks> {
 public:
  using Hook = std::function<void(Tensor&)>;

  RemovableHandle add(Hook hook);
  /// Calls every hook with `leaf`, in registration order. The list is copied first, so a hook
  /// may add or remove hooks (the change applies from the next accumulation).
  void run(Tensor& leaf) const;

 private:
  void remove(uint64_t id);

  mutable std::mutex mutex_;  // registration may race with a backward on another thread
  uint64_t next_id_ = 0;
  std::vector<std::pair<uint64_t, Hook>> hooks_;
};

}  // namespace tide::autograd
