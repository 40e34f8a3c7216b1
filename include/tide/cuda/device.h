#pragma once
// tide::cuda device queries and the current device, as torch.cuda.

#include <cstdint>
#include <ostream>
#include <string>

namespace tide::cuda {

/// Whether at least one cuda device (real or simulated) exists in this process.
bool is_available();
/// Number of visible cuda devices (after CUDA_VISIBLE_DEVICES); 0 without a backend.
int device_count();
/// This thread's current device (0 until set_device changes it).
int current_device();
/// Makes `device` this thread's current device.
void set_device(int device);
/// Blocks until all work on every stream of `device` (-1: the current device) has finished;
/// raises a pending tide::KernelError of that device.
void synchronize(int device = -1);

struct DeviceProperties {
  std::string name;
  int64_t total_memory = 0;
  int major = 0;
  int minor = 0;
  int multi_processor_count = 0;
  bool simulated = false;
};
std::ostream& operator<<(std::ostream& os, const DeviceProperties& p);

/// Properties of `device` (-1: the current device).
DeviceProperties get_device_properties(int device = -1);
/// Name of `device` (-1: the current device).
std::string get_device_name(int device = -1);
/// Whether `device` can access memory of `peer` directly (false for the same device, as CUDA).
bool can_device_access_peer(int device, int peer);

}  // namespace tide::cuda
