#include "tide/nn/data_parallel.h"

#include <algorithm>
#include <mutex>
#include <string>

#include "nn/parallel/gather.h"
#include "nn/parallel/parallel_apply.h"
#include "nn/parallel/replicate.h"
#include "nn/parallel/scatter.h"
#include "tide/cuda/device.h"
#include "tide/cuda/device_guard.h"
#include "tide/error.h"

namespace tide::nn {

struct DataParallel::State {
  std::mutex forward;  // one forward at a time: they share the replicas and threads
  parallel::Replicas replicas;
  parallel::ReplicaThreads threads;
};

namespace {

std::string devices_str(int count) {
  if (count == 0) return "this process has no cuda device";
  return detail::concat("this process has ", count, " cuda device(s), cuda:0 to cuda:", count - 1);
}

std::string ids_str(const std::vector<int>& ids) {
  std::string out = "{";
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
  return out + "}";
}

}  // namespace

DataParallel::DataParallel(Module& module, std::vector<int> device_ids, int output_device,
                           int64_t dim)
    : module_(&module), dim_(dim), state_(std::make_unique<State>()) {
  // As torch: the wrapped module is the child "module" (state_dict keys "module.weight"); the
  // caller keeps owning it, so the child pointer owns nothing.
  register_module("module", std::shared_ptr<Module>(std::shared_ptr<Module>(), &module));
  const int count = cuda::device_count();
  if (count == 0 && device_ids.empty()) {
    // torch's DataParallel without a GPU: forward calls the module (device-agnostic code), and
    // output_device means nothing.
    return;
  }
  if (device_ids.empty()) {
    for (int d = 0; d < count; ++d) device_ids.push_back(d);
  }
  for (size_t i = 0; i < device_ids.size(); ++i) {
    const int d = device_ids[i];
    TIDE_CHECK(d >= 0 && d < count, "[DataParallel] device_ids ", ids_str(device_ids),
               " holds ", d, ", which is not a cuda device: ", devices_str(count),
               "; pass indices of existing devices, or no device_ids for all of them");
    TIDE_CHECK(std::find(device_ids.begin(), device_ids.begin() + static_cast<int64_t>(i), d) ==
                   device_ids.begin() + static_cast<int64_t>(i),
               "[DataParallel] device_ids ", ids_str(device_ids), " holds cuda:", d,
               " more than once; each device runs one replica, so list each device once");
  }
  if (output_device == -1) output_device = device_ids[0];
  TIDE_CHECK(output_device >= 0 && output_device < count, "[DataParallel] output_device ",
             output_device, " is not a cuda device: ", devices_str(count),
             "; pass one of them, or -1 for device_ids[0]");
  device_ids_ = std::move(device_ids);
  output_device_ = output_device;
  // As torch: with one device the module is moved there now (in place, so an optimizer built
  // on its parameters keeps working); with several, forward checks that the user did.
  if (device_ids_.size() == 1) module.to(Device(kCUDA, device_ids_[0]));
}

DataParallel::~DataParallel() = default;

Tensor DataParallel::forward(const Tensor& input) {
  if (device_ids_.empty()) return (*module_)(input);
  const Device source(kCUDA, device_ids_[0]);
  auto check = [&](const std::vector<std::pair<std::string, Tensor>>& named) {
    for (const auto& [name, t] : named) {
      TIDE_CHECK(t.device() == source,
                 "[DataParallel] module must have its parameters and buffers on device ", source,
                 " (device_ids[0]) but found one of them on device: ", t.device(), " (\"", name,
                 "\"); move the module there first (module.to(\"", source, "\"))");
    }
  };
  check(module_->named_parameters());
  check(module_->named_buffers());

  std::lock_guard<std::mutex> lock(state_->forward);
  std::vector<Tensor> inputs = parallel::scatter(input, device_ids_, dim_);
  if (device_ids_.size() == 1) {
    cuda::DeviceGuard guard(device_ids_[0]);
    return (*module_)(inputs[0]);  // torch's shortcut: no replica, no gather
  }
  const std::vector<int> replica_devices(device_ids_.begin() + 1,
                                         device_ids_.begin() + static_cast<int64_t>(inputs.size()));
  std::vector<Module*> modules{module_};
  // The replicas drop their parameter copies whatever happens: only the graph keeps them.
  struct Release {
    parallel::Replicas& replicas;
    ~Release() { replicas.release(); }
  } release{state_->replicas};
  for (Module* replica : state_->replicas.refresh(*module_, replica_devices)) {
    modules.push_back(replica);
  }
  const std::vector<Tensor> outputs =
      parallel::parallel_apply(modules, inputs, device_ids_, state_->threads);
  return parallel::gather(outputs, output_device_, dim_);
}

}  // namespace tide::nn
