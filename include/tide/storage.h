#pragma once
// Storage: the refcounted memory behind one or more tensors (views share it).

#include <cstddef>
#include <memory>

#include "tide/allocator.h"

namespace tide {

struct StorageImpl {
  explicit StorageImpl(DataPtr d, bool is_pinned = false) : data(std::move(d)), pinned(is_pinned) {}
  DataPtr data;
  bool pinned;
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

 private:
  std::shared_ptr<StorageImpl> impl_;
};

}  // namespace tide
