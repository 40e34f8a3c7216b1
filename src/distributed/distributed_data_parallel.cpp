#include "tide/nn/distributed_data_parallel.h"

#include <set>
#include <string>

#include "distributed/broadcast_coalesced.h"
#include "distributed/reducer.h"
#include "tide/autograd.h"
#include "tide/distributed/process_group.h"
#include "tide/factories.h"

namespace tide::nn {
namespace {

std::string ids_str(const std::vector<int>& ids) {
  std::string out = "{";
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
  return out + "}";
}

/// torch's _verify_param_shape_across_processes, in one all_gather: every rank's parameter
/// count, element count and a hash of the shapes, compared with this rank's. Every rank sees
/// the same table, so all of them raise together instead of hanging in the broadcast.
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
  const int world = distributed::get_world_size();
  std::vector<Tensor> all;
  for (int r = 0; r < world; ++r) all.push_back(empty_like(mine));
  distributed::all_gather(all, mine);
  const std::vector<int64_t> own = mine.cpu().tolist<int64_t>();
  for (int r = 0; r < world; ++r) {
    const std::vector<int64_t> theirs = all[static_cast<size_t>(r)].cpu().tolist<int64_t>();
    TIDE_CHECK(theirs == own, "[DistributedDataParallel] DDP expects same model across all ranks, "
               "but rank ", distributed::get_rank(), " has ", own[0], " params with ", own[1],
               " elements, while rank ", r, " has ", theirs[0], " params with ", theirs[1],
               " elements", theirs[0] == own[0] && theirs[1] == own[1] ? " in other shapes" : "",
               "; build the same module on every rank");
  }
}

}  // namespace

DistributedDataParallel::DistributedDataParallel(Module& module, DDPOptions options)
    : module_(&module), options_(std::move(options)) {
  // As torch: the wrapped module is the child "module" (state_dict keys "module.weight"); the
  // caller keeps owning it, so the child pointer owns nothing.
  register_module("module", std::shared_ptr<Module>(std::shared_ptr<Module>(), &module));
  distributed::get_world_size();  // raises before init_process_group, before any other check

  std::vector<std::pair<std::string, Tensor>> trained;
  std::vector<Tensor> all_params;
  std::set<std::string> devices;
  for (auto& [name, p] : module.named_parameters()) {
    all_params.push_back(p);
    devices.insert(p.device().str());
    if (p.requires_grad()) trained.emplace_back("module." + name, p);
  }
  TIDE_CHECK(!trained.empty(), "[DistributedDataParallel] DistributedDataParallel is not needed "
             "when a module doesn't have any parameter that requires a gradient");
  device_ = trained.front().second.device();
  std::string listed;
  for (const std::string& d : devices) listed += (listed.empty() ? "" : ", ") + d;
  TIDE_CHECK(devices.size() == 1, "[DistributedDataParallel] expected the module's parameters on "
             "one device, found them on ", listed, "; DDP runs one device per process: move the "
             "module to cuda:local_rank (or cpu) first");
  const std::vector<int>& ids = options_.device_ids();
  TIDE_CHECK(ids.empty() || (ids.size() == 1 && device_ == Device(kCUDA, ids[0])),
             "[DistributedDataParallel] device_ids and output_device arguments only work with "
             "single-device GPU modules or CPU modules, but got device_ids ", ids_str(ids),
             " and module parameters on ", listed, "; pass device_ids({local_rank}) for a module "
             "on cuda:local_rank, or no device_ids");

  verify_same_model_across_ranks(all_params, device_);
  std::vector<Tensor> states = all_params;
  for (const Tensor& b : module.buffers()) states.push_back(b);
  distributed::detail::broadcast_coalesced(states, 0);
  reducer_ = std::make_unique<detail::Reducer>(std::move(trained),
                                               options_.bucket_cap_mb() << 20,
                                               options_.find_unused_parameters());
}

DistributedDataParallel::~DistributedDataParallel() = default;

size_t DistributedDataParallel::bucket_count() const { return reducer_->bucket_count(); }

Tensor DistributedDataParallel::forward(const Tensor& input) {
  // torch's _pre_forward / _post_forward, in the same order.
  const bool grad_sync = GradMode::is_enabled() && require_backward_grad_sync_;
  if (grad_sync) reducer_->prepare_for_forward();
  if (options_.broadcast_buffers() && require_forward_param_sync_) {
    const std::vector<Tensor> buffers = module_->buffers();
    if (!buffers.empty()) distributed::detail::broadcast_coalesced(buffers, 0);
  }
  const Tensor output =
      (*module_)(options_.device_ids().empty() ? input : input.to(device_, /*non_blocking=*/true));
  require_forward_param_sync_ = grad_sync;
  if (grad_sync) reducer_->prepare_for_backward(output);
  return output;
}

DistributedDataParallel::NoSyncGuard DistributedDataParallel::no_sync() {
  NoSyncGuard guard(this, require_backward_grad_sync_);
  require_backward_grad_sync_ = false;
  return guard;
}

DistributedDataParallel::NoSyncGuard::NoSyncGuard(NoSyncGuard&& other) noexcept
    : ddp_(std::exchange(other.ddp_, nullptr)), previous_(other.previous_) {}

DistributedDataParallel::NoSyncGuard::~NoSyncGuard() {
  if (ddp_) ddp_->require_backward_grad_sync_ = previous_;
}

}  // namespace tide::nn
