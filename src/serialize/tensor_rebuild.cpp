// Tensors over loaded storages (tensor_rebuild.h).

#include "serialize/tensor_rebuild.h"

#include "tide/error.h"

namespace tide::serialize {

Tensor tensor_over_storage(const Tensor& storage, const std::vector<int64_t>& sizes,
                           const std::vector<int64_t>& strides, int64_t offset, const char* caller) {
  TIDE_CHECK(sizes.size() == strides.size(), "[", caller, "] a tensor has ", sizes.size(),
             " sizes and ", strides.size(), " strides; expected as many of each. The file is corrupt");
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    TIDE_CHECK(sizes[i] >= 0 && strides[i] >= 0, "[", caller,
               "] a tensor has a negative size or stride; expected non-negative ones. The file is "
               "corrupt");
    empty = empty || sizes[i] == 0;
  }
  TIDE_CHECK(offset >= 0, "[", caller, "] a tensor's storage offset is ", offset,
             "; expected a non-negative one. The file is corrupt");
  // The bound is the storage's bytes, not `storage`'s elements: a hostile pickle may pass an
  // expanded view (stride 0) as the storage of another tensor.
  const auto numel = static_cast<int64_t>(storage.storage().nbytes() / storage.element_size());
  // The furthest element must lie in the storage; each step is bounded by numel, so the sum
  // cannot overflow. An empty tensor touches no element.
  int64_t last = offset;
  bool inside = empty || offset < numel;
  for (size_t i = 0; i < sizes.size() && inside && !empty; ++i) {
    if (sizes[i] == 1) continue;
    inside = sizes[i] <= numel && strides[i] <= numel;
    if (inside) last += (sizes[i] - 1) * strides[i];
    inside = inside && last < numel;
  }
  TIDE_CHECK(inside, "[", caller, "] a tensor of sizes ", sizes.size(), "-d at offset ", offset,
             " reaches beyond its storage of ", numel,
             " elements; expected its elements inside its storage. The file is corrupt");
  return Tensor(storage.storage(), storage.dtype(), DimVector(sizes), DimVector(strides), offset);
}

void check_bool_storage(const Tensor& storage, const std::string& record, const char* caller) {
  if (storage.dtype() != kBool) return;
  const auto* raw = static_cast<const unsigned char*>(storage.raw_data());
  for (size_t i = 0; i < storage.nbytes(); ++i) {
    TIDE_CHECK(raw[i] <= 1, "[", caller, "] record ", record, " holds the byte ",
               static_cast<int>(raw[i]), " in a bool storage; expected 0 or 1. The file is corrupt");
  }
}

}  // namespace tide::serialize
