#pragma once
// Tensors rebuilt from a checkpoint's storages and geometry, with the checks that keep a lying
// file from reaching memory outside a storage: shared by tide::torch_load's pickle reader and
// tide.load in Python (python/src/bind_serialization.cpp).

#include <cstdint>
#include <string>
#include <vector>

#include "tide/tensor.h"

namespace tide::serialize {

/// A tensor over `storage`'s storage (`storage`: a contiguous 1-D tensor from offset 0, as a
/// storage loader returns) with the given geometry, in `storage`'s dtype and device. Raises
/// tide::Error "[caller] ..." when sizes, strides or offset are negative or mismatched, or an
/// element would lie outside the storage.
Tensor tensor_over_storage(const Tensor& storage, const std::vector<int64_t>& sizes,
                           const std::vector<int64_t>& strides, int64_t offset, const char* caller);

/// Raises tide::Error when a bool storage (cpu) holds a byte other than 0 or 1: reading one as a
/// C++ bool is undefined behaviour. `record` names it in the message.
void check_bool_storage(const Tensor& storage, const std::string& record, const char* caller);

}  // namespace tide::serialize
