#pragma once
// RemovableHandle: what registering a hook returns, to take the hook away again
// (torch.utils.hooks.RemovableHandle).

#include <functional>
#include <utility>

namespace tide {

/// Removes the hook it was made for when remove() is called; copies share that ability, a
/// second remove() does nothing, and dropping the handle leaves the hook in place (as torch).
/// Removing after the hooked object is gone is harmless.
class RemovableHandle {
 public:
  RemovableHandle() = default;
  explicit RemovableHandle(std::function<void()> remover) : remover_(std::move(remover)) {}

  void remove() {
    if (remover_) std::exchange(remover_, nullptr)();
  }

 private:
  std::function<void()> remover_;
};

}  // namespace tide
