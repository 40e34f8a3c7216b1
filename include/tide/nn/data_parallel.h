#pragma once
// nn::DataParallel: one process, several GPUs (torch.nn.DataParallel). Each forward splits the
// batch across the devices, runs a replica of the module on each (one host thread per device),
// and gathers the outputs on one device; backward sums the replicas' gradients into the
// wrapped module's own parameters.
//
//   nn::Sequential net(nn::Linear(784, 256), nn::ReLU(), nn::Linear(256, 10));
//   net.cuda();                               // parameters on device_ids[0]
//   nn::DataParallel model(net);              // every cuda device
//   Tensor logits = model(images);            // on cuda:0, whatever device images is on

#include <cstdint>
#include <memory>
#include <vector>

#include "tide/nn/module.h"

namespace tide::nn {

// Note [DataParallel]: forward follows torch's DataParallel.forward step by step.
// - check: the module's parameters and buffers are on device_ids[0] (torch's message).
// - scatter: the input is cut with Tensor::chunk(device count, dim) — so a batch of 5 on 4
//   devices gives chunks of 2, 2 and 1, and only 3 replicas run — and each chunk is copied
//   to its device (non_blocking, differentiable: gradients flow back to the input).
// - replicate: replica 0 is the wrapped module itself (torch's replica 0 shares the original's
//   storage too); replica i > 0 is a copy on device_ids[i] whose parameters are differentiable
//   copies of the originals (Note [Replica parameters] in src/autograd/replace_tensor.h) and
//   whose buffers are plain copies, so backward accumulates into the original parameters.
// - parallel apply: replica 0 runs on the calling thread, the others each on a worker thread
//   of this DataParallel (started once, reused by every forward), under a DeviceGuard for its
//   device, on the caller's current stream of that device, in the caller's grad mode and
//   innermost tide::Scope. The caller waits for every replica; an exception in one is rethrown
//   on the calling thread as the same tide::Error type, with a message that names the replica
//   and its device ("[DataParallel] replica 1 on cuda:1 failed: ...").
// - gather: the outputs are copied to output_device and concatenated along dim
//   (differentiable). Outputs that are all 0-dim are gathered into a vector (torch).
// With one device, the input is copied to it and the module called directly (no threads,
// torch's shortcut); the module was moved there at construction, as torch does.
//
// Replicas are made with Module::clone (so the module must be cloneable: nn::Cloneable, or a
// Sequential of cloneable modules) once, at the first forward, and reused: each forward only
// refreshes their parameters, buffers and training flags from the original, and afterwards
// drops its copies, so between forwards a replica holds no device memory. torch re-replicates
// on every forward; the tensors it copies are the same, but re-cloning the structure each time
// would copy every parameter twice. The replicas are cloned again when the module's parameter
// or buffer names change. Non-tensor attributes (Dropout::p) are copied when the replicas
// are made: after changing one, wrap the module in a new DataParallel.
//
// Without cuda devices and without device_ids, a DataParallel calls the module directly, as
// torch's does, so device-agnostic code runs unchanged on the cpu.
class DataParallel : public Module {
 public:
  /// Wraps `module` (not owned: it must outlive this DataParallel) as the child "module", so
  /// state_dict keys read "module.weight" as in torch. device_ids: distinct cuda device indices
  /// (empty: every device); output_device: where forward's output goes (-1: device_ids[0]);
  /// dim: the dimension the batch is split along.
  DataParallel(Module& module, std::vector<int> device_ids = {}, int output_device = -1,
               int64_t dim = 0);
  ~DataParallel() override;
  DataParallel(const DataParallel&) = delete;
  DataParallel& operator=(const DataParallel&) = delete;

  /// Scatters `input`, runs the replicas in parallel and gathers their outputs (Note [DataParallel]).
  Tensor forward(const Tensor& input) override;

  /// The wrapped module (torch's `dp.module`).
  Module& module() const { return *module_; }
  /// The devices used, in order (empty when it calls the module directly, without cuda).
  const std::vector<int>& device_ids() const { return device_ids_; }
  /// The cuda device forward's output is gathered on (-1 without cuda).
  int output_device() const { return output_device_; }
  int64_t dim() const { return dim_; }

 private:
  struct State;  // replicas and worker threads (src/nn/data_parallel.cpp)

  Module* module_;
  std::vector<int> device_ids_;
  int output_device_ = -1;
  int64_t dim_ = 0;
  std::unique_ptr<State> state_;
};

}  // namespace tide::nn
