// tide::cuda device functions and DeviceGuard, over the registry's cuda backend.

#include "runtime/error_channel.h"
#include "runtime/registry.h"
#include "runtime/sanitizer.h"
#include "tide/cuda/device.h"
#include "tide/cuda/device_guard.h"
#include "tide/error.h"

namespace tide::cuda {

bool is_available() { return runtime::cuda_device_count() > 0; }

int device_count() { return runtime::cuda_device_count(); }

int current_device() { return runtime::cuda_backend("cuda::current_device").current_device(); }

void set_device(int device) {
  if (device == -1) return;  // as torch.cuda.set_device: a negative index changes nothing
  const int d = runtime::check_cuda_device(device, "cuda::set_device");
  runtime::cuda_backend("cuda::set_device").set_device(d);
}

void synchronize(int device) {
  const int d = runtime::check_cuda_device(device, "cuda::synchronize");
  runtime::cuda_backend("cuda::synchronize").synchronize_device(d);
  if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) runtime::sanitizer_device_synchronize(d);
  runtime::raise_pending_kernel_error(d);
}

DeviceProperties get_device_properties(int device) {
  const int d = runtime::check_cuda_device(device, "cuda::get_device_properties");
  return runtime::cuda_backend("cuda::get_device_properties").properties(d);
}

std::string get_device_name(int device) {
  const int d = runtime::check_cuda_device(device, "cuda::get_device_name");
  return runtime::cuda_backend("cuda::get_device_name").properties(d).name;
}

bool can_device_access_peer(int device, int peer) {
  const int d = runtime::check_cuda_device(device, "cuda::can_device_access_peer");
  const int p = runtime::check_cuda_device(peer, "cuda::can_device_access_peer");
  return runtime::cuda_backend("cuda::can_device_access_peer").can_access_peer(d, p);
}

std::ostream& operator<<(std::ostream& os, const DeviceProperties& p) {
  return os << "_CudaDeviceProperties(name='" << p.name << "', major=" << p.major
            << ", minor=" << p.minor << ", total_memory=" << (p.total_memory >> 20)
            << "MB, multi_processor_count=" << p.multi_processor_count
            << ", simulated=" << (p.simulated ? "True" : "False") << ")";
}

DeviceGuard::DeviceGuard(int index) {
  if (index == -1) return;
  const int d = runtime::check_cuda_device(index, "cuda::DeviceGuard");
  runtime::Backend& b = runtime::cuda_backend("cuda::DeviceGuard");
  original_ = b.current_device();
  if (original_ != d) b.set_device(d);
}

namespace {
int guard_index(const Device& device) {
  TIDE_CHECK(device.is_cuda(), "[cuda::DeviceGuard] expected a cuda device, but got: ", device,
             ". Use tide::cuda::DeviceGuard only with cuda devices or indices.");
  return device.index();
}
}  // namespace

DeviceGuard::DeviceGuard(Device device) : DeviceGuard(guard_index(device)) {}

DeviceGuard::~DeviceGuard() {
  if (original_ < 0) return;
  if (runtime::Backend* b = runtime::backend_for_cleanup(kCUDA)) b->restore_device(original_);
}

}  // namespace tide::cuda
