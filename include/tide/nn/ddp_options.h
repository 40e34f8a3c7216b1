#pragma once
// DDPOptions: how a DistributedDataParallel places, buckets and synchronizes a module.

#include <cstddef>
#include <utility>
#include <vector>

namespace tide::nn {

/// Chainable as libtorch's options: DDPOptions().bucket_cap_mb(10).find_unused_parameters(true).
/// Setters return *this, getters share the name; DistributedDataParallel checks them.
class DDPOptions {
 public:
  DDPOptions() = default;

  /// The one cuda device the module lives on, or empty (the default) for the module's own
  /// device, whichever it is, as torch (cpu modules must leave it empty). With it, forward
  /// copies its input there, as torch's.
  const std::vector<int>& device_ids() const noexcept { return device_ids_; }
  DDPOptions& device_ids(std::vector<int> ids) { device_ids_ = std::move(ids); return *this; }
  /// Gradients are all-reduced in buckets of about this many MiB (a bucket closes once it
  /// reaches the cap, so one parameter larger than the cap has a bucket of its own; 0: one
  /// bucket per parameter). Smaller buckets start communicating earlier in backward.
  size_t bucket_cap_mb() const noexcept { return bucket_cap_mb_; }
  DDPOptions& bucket_cap_mb(size_t mb) { bucket_cap_mb_ = mb; return *this; }
  /// Allow parameters that get no gradient in a backward (they are reduced as zeros), at the
  /// cost of walking the autograd graph after every forward. Off: such a parameter raises at
  /// the next forward (torch's error).
  bool find_unused_parameters() const noexcept { return find_unused_parameters_; }
  DDPOptions& find_unused_parameters(bool on) { find_unused_parameters_ = on; return *this; }
  /// Copy rank 0's buffers to every rank at the start of each forward (torch's default).
  bool broadcast_buffers() const noexcept { return broadcast_buffers_; }
  DDPOptions& broadcast_buffers(bool on) { broadcast_buffers_ = on; return *this; }

 private:
  std::vector<int> device_ids_;
  size_t bucket_cap_mb_ = 25;
  bool find_unused_parameters_ = false;
  bool broadcast_buffers_ = true;
};

}  // namespace tide::nn
