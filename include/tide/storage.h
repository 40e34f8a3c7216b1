#pragma once
// Storage: the refcounted memory behind one or more tensors (views share it).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "tide/allocator.h"

namespace tide {

struct StorageImpl {
  explicit StorageImpl(DataPtr d, bool is_pinned = false) : data(std::move(d)), pinned(is_pinned) {}
  DataPtr data;
  bool pinned;
  /// Bumped by every in-place write; views share it through the storage, so autograd can
  /// tell that a tensor it saved was modified (Note [Version counters] in src/autograd).
  std::atomic<uint32_t> version{0};
};

class Storage {
 public:
  Storage() = default;
  explicit Storage(std::shared_ptr<StorageImpl> impl) : impl_(std::move(impl)) {}
  /// nbytes of memory from `allocator`.
  static Storage allocate(size_t nbytes, Allocator* allocator, bool pinned = false);

  bool defined() const { return impl_ != nullptr; }
  void* data() const { return impl_->data.get(); }
  size_t nbytes() const { return impl_->data.nbytes(); }
  Device device() const { return impl_->data.device(); }
  bool pinned() const { return impl_->pinned; }
  const DataPtr& data_ptr() const { return impl_->data; }
  long use_count() const { return impl_.use_count(); }
  bool is_alias_of(const Storage& o) const { return impl_ == o.impl_; }
  uint32_t version() const { return impl_->version.load(std::memory_order_relaxed); }
  /// Moves the storage to other memory holding the same bytes (torch's set_data_ptr), for
  /// every tensor that shares it: share_memory_() uses it. Not safe while another thread
  /// reads or writes the storage, as torch's share_memory_.
  void set_data_ptr(DataPtr data) const { impl_->data = std::move(data); }
  /// Marks an in-place write (one relaxed increment).
  void bump_version() const { impl_->version.fetch_add(1, std::memory_order_relaxed); }

 private:
  std::shared_ptr<StorageImpl> impl_;
};

}  // namespace tide
