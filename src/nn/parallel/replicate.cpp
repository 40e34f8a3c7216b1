#include "nn/parallel/replicate.h"

#include <typeinfo>

#include "autograd/replace_tensor.h"
#include "tide/error.h"
#include "tide/factories.h"

namespace tide::nn::parallel {
namespace {

void add_layout(const Module& module, const std::string& path, std::vector<std::string>& out) {
  out.push_back(path + ":" + typeid(module).name());
  for (const auto& [name, child] : module.named_children()) {
    add_layout(*child, path.empty() ? name : path + "." + name, out);
  }
}

/// Gives every module of `replica` the training flag of its counterpart in `original`.
void sync_training(const Module& original, Module& replica) {
  // train() sets a whole subtree; the children below then set their own flags.
  replica.train(original.is_training());
  const auto originals = original.children();
  const auto replicas = replica.children();
  for (size_t i = 0; i < originals.size() && i < replicas.size(); ++i) {
    sync_training(*originals[i], *replicas[i]);
  }
}

/// The module's parameters then buffers, with their names.
std::vector<std::pair<std::string, Tensor>> tensors_of(const Module& module) {
  std::vector<std::pair<std::string, Tensor>> out = module.named_parameters();
  for (auto& named : module.named_buffers()) out.push_back(std::move(named));
  return out;
}

std::string joined(const std::vector<std::pair<std::string, Tensor>>& named) {
  std::string out;
  for (const auto& [name, t] : named) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

std::vector<std::string> Replicas::layout_of(
    const Module& module, const std::vector<std::pair<std::string, Tensor>>& tensors) {
  std::vector<std::string> out;
  add_layout(module, "", out);
  for (const auto& [name, t] : tensors) out.push_back(name);
  return out;
}

Replicas::Replica Replicas::make(const Module& module, int device,
                                 const std::vector<std::string>& names) const {
  const Device dev(kCUDA, device);
  Replica r;
  r.device = device;
  try {
    r.module = module.clone(dev);
  } catch (const OutOfMemoryError&) {
    throw;
  } catch (const Error& e) {
    throw Error(detail::concat("[DataParallel] can't replicate ", module.name(), " on ", dev,
                               ": ", e.what()));
  }
  const auto named = tensors_of(*r.module);
  bool same = named.size() == names.size();
  for (size_t i = 0; same && i < named.size(); ++i) same = named[i].first == names[i];
  TIDE_CHECK(same, "[DataParallel] can't replicate ", module.name(),
             ": its clone holds the parameters and buffers [", joined(named),
             "] but the module holds other ones (a tensor registered under two names is listed "
             "once by the module and twice by its clone); DataParallel needs a clone() that "
             "mirrors the module, so register each tensor once");
  for (const auto& [name, t] : named) r.tensors.push_back(t);
  r.empty = empty({0}, TensorOptions().device(dev));
  return r;
}

std::vector<Module*> Replicas::refresh(const Module& module, const std::vector<int>& devices) {
  const auto named = tensors_of(module);
  std::vector<std::string> layout = layout_of(module, named);
  if (layout != layout_) {
    replicas_.clear();
    layout_ = std::move(layout);
  }
  std::vector<std::string> names;
  for (const auto& [name, t] : named) names.push_back(name);
  if (replicas_.size() < devices.size()) replicas_.resize(devices.size());

  std::vector<Module*> out;
  for (size_t i = 0; i < devices.size(); ++i) {
    Replica& r = replicas_[i];
    if (!r.module || r.device != devices[i]) r = make(module, devices[i], names);
    sync_training(module, *r.module);
    const Device dev(kCUDA, r.device);
    for (size_t k = 0; k < named.size(); ++k) {
      // Recorded (a ToCopyBackward0 to the original) when the original requires grad and grad
      // mode is on: the replica's gradient then reaches the original's grad().
      const Tensor copy = named[k].second.to(dev, /*non_blocking=*/true);
      TIDE_INTERNAL_ASSERT(!copy.is_same(named[k].second), "a replica on the module's own device");
      autograd::replace_tensor(r.tensors[k], copy);
    }
    out.push_back(r.module.get());
  }
  return out;
}

void Replicas::release() {
  for (Replica& r : replicas_) {
    for (const Tensor& t : r.tensors) autograd::replace_tensor(t, r.empty);
  }
}

}  // namespace tide::nn::parallel
