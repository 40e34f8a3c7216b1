#pragma once
// HookList: the registered hooks of one tensor, in order, each removable through the
// RemovableHandle that add returned (the base of TensorHooks and PostAccumulateGradHooks).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "tide/removable_handle.h"

namespace tide::autograd {

/// Owned through a shared_ptr (the tensor's metadata or its node); a handle holds it weakly,
/// so removing a hook after the tensor died does nothing.
template <class Hook>
class HookList : public std::enable_shared_from_this<HookList<Hook>> {
 public:
  RemovableHandle add(Hook hook) {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t id = next_id_++;
    hooks_.emplace_back(id, std::move(hook));
    std::weak_ptr<HookList> weak = this->weak_from_this();
    return RemovableHandle([weak, id] {
      if (auto self = weak.lock()) self->remove(id);
    });
  }

 protected:
  /// The hooks now, copied: a hook may add or remove hooks (from the next run on).
  std::vector<Hook> snapshot() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Hook> out;
    out.reserve(hooks_.size());
    for (const auto& entry : hooks_) out.push_back(entry.second);
    return out;
  }

  mutable std::mutex mutex_;  // registration may race with a backward on another thread

 private:
  void remove(uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::erase_if(hooks_, [id](const auto& entry) { return entry.first == id; });
  }

  uint64_t next_id_ = 0;
  std::vector<std::pair<uint64_t, Hook>> hooks_;
};

}  // namespace tide::autograd
