#include "distributed/broadcast_coalesced.h"

#include "tide/autograd.h"
#include "tide/distributed/process_group.h"
#include "tide/ops.h"

namespace tide::distributed::detail {
namespace {

/// Broadcasts tensors[begin, end) (one dtype) as one flat tensor.
void broadcast_group(const std::vector<Tensor>& tensors, size_t begin, size_t end, int src) {
  std::vector<Tensor> flat_parts;
  flat_parts.reserve(end - begin);
  for (size_t i = begin; i < end; ++i) flat_parts.push_back(tensors[i].reshape({-1}));
  Tensor flat = end - begin == 1 ? flat_parts[0].contiguous().clone() : cat(flat_parts, 0);
  broadcast(flat, src);
  if (get_rank() == src) return;  // its tensors already hold the values
  int64_t offset = 0;
  for (size_t i = begin; i < end; ++i) {
    const Tensor& t = tensors[i];
    t.copy_(flat.narrow(0, offset, t.numel()).view(t.sizes()));
    offset += t.numel();
  }
}

}  // namespace

void broadcast_coalesced(const std::vector<Tensor>& tensors, int src, size_t bucket_bytes) {
  NoGradGuard no_grad;  // parameters are written in place: no history, as torch's no_grad
  size_t begin = 0;
  while (begin < tensors.size()) {
    const Dtype dtype = tensors[begin].dtype();
    size_t bytes = 0, end = begin;
    while (end < tensors.size() && tensors[end].dtype() == dtype &&
           (end == begin || bytes < bucket_bytes)) {
      bytes += static_cast<size_t>(tensors[end].numel()) * element_size(dtype);
      ++end;
    }
    broadcast_group(tensors, begin, end, src);
    begin = end;
  }
}

}  // namespace tide::distributed::detail
