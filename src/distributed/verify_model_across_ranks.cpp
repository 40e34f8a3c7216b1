#include "distributed/verify_model_across_ranks.h"

#include <cstdint>

#include "tide/distributed/process_group.h"
#include "tide/factories.h"

namespace tide::distributed::detail {

void verify_same_model_across_ranks(const std::vector<Tensor>& params, Device device) {
  int64_t numel = 0;
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over every dim of every shape
  for (const Tensor& p : params) {
    numel += p.numel();
    for (int64_t d : p.sizes()) hash = (hash ^ static_cast<uint64_t>(d)) * 1099511628211ull;
    hash = (hash ^ 0xffu) * 1099511628211ull;  // shape separator
  }
  Tensor mine = empty({3}, TensorOptions().dtype(kInt64));
  int64_t* m = mine.data_ptr<int64_t>();
  m[0] = static_cast<int64_t>(params.size());
  m[1] = numel;
  m[2] = static_cast<int64_t>(hash);
  mine = mine.to(device);
  const int world = get_world_size();
  std::vector<Tensor> all;
  for (int r = 0; r < world; ++r) all.push_back(empty_like(mine));
  all_gather(all, mine);
  const std::vector<int64_t> own = mine.cpu().tolist<int64_t>();
  for (int r = 0; r < world; ++r) {
    const std::vector<int64_t> theirs = all[static_cast<size_t>(r)].cpu().tolist<int64_t>();
    TIDE_CHECK(theirs == own, "[DistributedDataParallel] DDP expects same model across all ranks, "
               "but rank ", get_rank(), " has ", own[0], " params with ", own[1],
               " elements, while rank ", r, " has ", theirs[0], " params with ", theirs[1],
               " elements", theirs[0] == own[0] && theirs[1] == own[1] ? " in other shapes" : "",
               "; build the same module on every rank");
  }
}

}  // namespace tide::distributed::detail
