#include "tide/nn/distributed_data_parallel.h"

#include <set>
#include <string>

#include "distributed/broadcast_coalesced.h"
#include "distributed/reducer.h"
#include "distributed/verify_model_across_ranks.h"
#include "tide/autograd.h"
#include "tide/distributed/process_group.h"

namespace tide::nn {
namespace {

std::string ids_str(const std::vector<int>& ids) {
  std::string out = "{";
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
  return out + "}";
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
             "module to the process's device (its GPU, or cpu) first");
  const std::vector<int>& ids = options_.device_ids();
  TIDE_CHECK(ids.empty() || (ids.size() == 1 && device_ == Device(kCUDA, ids[0])),
             "[DistributedDataParallel] device_ids and output_device arguments only work with "
             "single-device GPU modules or CPU modules, but got device_ids ", ids_str(ids),
             " and module parameters on ", listed, "; pass device_ids({i}) for a module on "
             "cuda:i, or no device_ids (the module's device)");

  distributed::detail::verify_same_model_across_ranks(all_params, device_);
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
  if (grad_sync) reducer_->prepare_for_backward({output});
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
