#include "distributed/bucket_assignment.h"

#include <map>

namespace tide::distributed::detail {

std::vector<std::vector<size_t>> compute_bucket_assignment(const std::vector<Tensor>& params,
                                                           size_t cap_bytes) {
  struct Open {
    size_t bucket;  // index into `buckets`
    size_t bytes;
  };
  std::vector<std::vector<size_t>> buckets;
  std::map<Dtype, Open> open;
  for (size_t i = params.size(); i-- > 0;) {
    const Tensor& p = params[i];
    auto it = open.find(p.dtype());
    if (it == open.end()) {
      buckets.emplace_back();
      it = open.emplace(p.dtype(), Open{buckets.size() - 1, 0}).first;
    }
    buckets[it->second.bucket].push_back(i);
    it->second.bytes += static_cast<size_t>(p.numel()) * element_size(p.dtype());
    if (it->second.bytes >= cap_bytes) open.erase(it);
  }
  return buckets;
}

}  // namespace tide::distributed::detail
