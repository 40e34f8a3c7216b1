#include "tensor/sanitizer_access.h"

namespace tide::detail {

void LaunchAccesses::add(const Tensor& t, bool write) {
  if (!t.defined() || t.numel() == 0) return;
  const Storage& storage = t.storage();
  if (!storage.defined() || storage.data() == nullptr) return;
  // Pageable host memory: copies to or from it synchronize or stage it (Note [Copies between
  // devices]), so no stream touches it after the call that enqueued the copy returns.
  if (storage.device().is_cpu() && !storage.pinned()) return;
  int64_t lo = t.storage_offset(), hi = t.storage_offset();  // in elements
  const DimVector& sizes = t.shape();
  const DimVector& strides = t.stride_vector();
  for (int64_t d = 0; d < sizes.size(); ++d) {
    const int64_t extent = (sizes[d] - 1) * strides[d];
    (extent < 0 ? lo : hi) += extent;
  }
  const auto item = static_cast<int64_t>(t.element_size());
  const auto base = reinterpret_cast<uintptr_t>(storage.data());
  list_.push_back(runtime::MemoryAccess{base, storage.nbytes(),
                                        base + static_cast<uintptr_t>(lo * item),
                                        base + static_cast<uintptr_t>((hi + 1) * item), write});
}

void LaunchAccesses::declare(const cuda::Stream* stream, const char* op) const {
  if (list_.empty()) return;
  if (stream != nullptr) {
    runtime::sanitize_launch(*stream, op, list_.data(), list_.size());
  } else {
    runtime::sanitize_host_access(op, list_.data(), list_.size());
  }
}

}  // namespace tide::detail
