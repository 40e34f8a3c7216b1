#include "tide/default_device.h"

#include "tensor/tensor_internal.h"

namespace tide {
namespace {

// Per thread (Note [Default device]); a Device is trivially destructible, so this costs nothing
// at thread exit.
thread_local Device t_default_device{kCPU, -1};

}  // namespace

void set_default_device(Device device) { t_default_device = device; }

Device get_default_device() {
  Device d = t_default_device;
  // torch answers "cuda:0" for a default of "cuda": the index is the current device's.
  if (d.is_cuda() && !d.has_index()) return detail::resolve_device(d, "get_default_device");
  return d;
}

namespace detail {
Device thread_default_device() { return t_default_device; }
}  // namespace detail

}  // namespace tide
