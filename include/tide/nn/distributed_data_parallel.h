#pragma once
// nn::DistributedDataParallel: one process per device, each with a full replica of the module
// and its own share of the batch; gradients are averaged over the processes during backward
// (torch.nn.parallel.DistributedDataParallel).
//
//   tide::distributed::init_process_group();                      // under mpirun
//   Device device = cuda::is_available()                           // the rank's GPU, or cpu
//       ? Device(kCUDA, distributed::get_local_rank() % cuda::device_count()) : Device(kCPU);
//   net.to(device);
//   nn::DistributedDataParallel model(net);                        // rank 0's weights everywhere
//   optim::SGD sgd(model.parameters(), optim::SGDOptions(0.1));
//   for (const auto& batch : loader) {                             // a DistributedSampler's shard
//     sgd.zero_grad();
//     cross_entropy(model(batch.data.to(device)), batch.target.to(device)).backward();
//     sgd.step();                                                  // the same step on every rank
//   }

#include <memory>

#include "tide/device.h"
#include "tide/nn/ddp_options.h"
#include "tide/nn/module.h"

namespace tide::nn {

namespace detail {
class Reducer;
}

// Note [DistributedDataParallel]: torch's design, on tide's collectives and autograd hooks.
// - Construction: the module's parameters and buffers are broadcast from rank 0 (coalesced:
//   one flat broadcast per dtype and 250 MiB, torch's broadcast bucket), so every replica
//   starts equal; the parameters that require grad are split into buckets (Note [Gradient
//   buckets] in src/distributed/bucket_assignment.h), each with one flat tensor on the
//   module's device; a post-accumulate-grad hook is registered on each parameter.
// - forward (grad mode on, not under no_sync): checks that the previous backward reduced
//   every bucket (torch's "Expected to have finished reduction in the prior iteration" error
//   names the parameters that got no gradient), arms the reducer, re-broadcasts buffers from
//   rank 0 (broadcast_buffers), and with find_unused_parameters walks the output's autograd
//   graph for the parameters it cannot reach.
// - backward: each parameter's hook copies its accumulated grad() into its bucket slot as
//   soon as the engine has accumulated it; a bucket whose slots are all filled is all-reduced
//   (AVG) asynchronously at once, in bucket order (every rank must issue the same collectives
//   in the same order), while the engine goes on with earlier layers: communication overlaps
//   the rest of backward. Unused parameters (find_unused_parameters) fill their slot with their
//   grad() or zeros at the first hook. The first hook also queues an engine callback that runs
//   when backward finishes: it waits for every bucket and copies the averages back into each
//   grad() in place. With find_unused_parameters a per-parameter "used" count is all-reduced
//   too, and a parameter no rank used keeps its grad() untouched (undefined stays undefined),
//   as torch.
// - no_sync(): while the guard lives, forward does not arm the reducer, so backward only
//   accumulates locally; the next synced backward reduces the accumulated grad(), which is
//   what one step on the whole accumulated batch would average.
// The module must stay on its device, keep its parameters and be used for one backward per
// forward while the DDP lives (torch's rules too); tide does not rebuild buckets in gradient
// order after the first iteration as torch does, nor offer static_graph or comm hooks.
class DistributedDataParallel : public Module {
 public:
  /// RAII from no_sync(): restores the previous synchronization setting when destroyed.
  class NoSyncGuard {
   public:
    ~NoSyncGuard();
    NoSyncGuard(NoSyncGuard&& other) noexcept;
    NoSyncGuard(const NoSyncGuard&) = delete;
    NoSyncGuard& operator=(const NoSyncGuard&) = delete;
    NoSyncGuard& operator=(NoSyncGuard&&) = delete;

   private:
    friend class DistributedDataParallel;
    NoSyncGuard(DistributedDataParallel* ddp, bool previous) : ddp_(ddp), previous_(previous) {}
    DistributedDataParallel* ddp_;
    bool previous_;
  };

  /// Wraps `module` (not owned: it must outlive the DDP) as the child "module", so state_dict
  /// keys read "module.weight" as in torch. Needs distributed::init_process_group first and is
  /// collective: every rank constructs its DDP at the same point. Raises tide::Error when the
  /// module has no parameter that requires grad, its parameters span several devices, the
  /// device_ids are not one cuda device holding the module, or the ranks' modules differ in
  /// parameter count or sizes.
  explicit DistributedDataParallel(Module& module, DDPOptions options = {});
  ~DistributedDataParallel() override;
  DistributedDataParallel(const DistributedDataParallel&) = delete;
  DistributedDataParallel& operator=(const DistributedDataParallel&) = delete;

  /// Runs the module (Note [DistributedDataParallel]); with device_ids the input is copied
  /// to that device first.
  Tensor forward(const Tensor& input) override;

  /// While the returned guard lives, backward accumulates gradients locally without
  /// communicating (gradient accumulation); the first backward after it reduces them.
  [[nodiscard]] NoSyncGuard no_sync();

  /// The wrapped module (torch's `ddp.module`).
  Module& module() const { return *module_; }
  /// The device of the module's parameters, where the buckets live.
  Device device() const { return device_; }
  const DDPOptions& options() const { return options_; }
  /// How many gradient buckets there are (each one all-reduce per synced backward).
  size_t bucket_count() const;

 private:
  Module* module_;
  DDPOptions options_;
  Device device_{kCPU};
  bool require_backward_grad_sync_ = true;   // false under no_sync
  bool require_forward_param_sync_ = true;   // torch's: the last forward was a synced one
  std::unique_ptr<detail::Reducer> reducer_;
};

}  // namespace tide::nn
