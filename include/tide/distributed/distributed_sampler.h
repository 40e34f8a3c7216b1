#pragma once
// data::DistributedSampler: each rank's shard of a dataset, for one process per device
// (torch.utils.data.DistributedSampler). It lives in the distributed layer because it asks the
// process group for the rank and world size; its namespace is data's, as torch's module is.
//
//   auto sampler = std::make_shared<tide::data::DistributedSampler>(dataset->size());
//   tide::data::DataLoader loader(dataset, tide::data::DataLoaderOptions().batch_size(64).sampler(sampler));
//   for (int64_t epoch = 0; epoch < epochs; ++epoch) {
//     sampler->set_epoch(epoch);             // a new shuffle each epoch, the same on every rank
//     for (const auto& batch : loader) ...
//   }

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tide/data/sampler.h"

namespace tide::data {

// Note [DistributedSampler]: torch's algorithm step by step, so that the shards partition the
// dataset exactly as torch users expect:
// - num_samples = ceil(n / R) per rank, or with drop_last (and n not a multiple of R)
//   floor(n / R); total_size = num_samples * R.
// - the epoch's order: with shuffle, a permutation drawn from a generator seeded with
//   seed + epoch (torch seeds its generator with the sum too, so (seed 1, epoch 0) and (seed 0,
//   epoch 1) share an order); every rank draws the same one without communicating. tide's
//   permutation is the DataLoader's Philox Fisher-Yates (src/data/epoch_order.h), not torch's
//   randperm, so the orders differ from torch's bit for bit while having the same properties.
//   Without shuffle, 0 .. n-1.
// - padding to total_size by repeating the order from its start (several times over when the
//   dataset is smaller than the padding); with drop_last, the tail past total_size is dropped.
// - rank r takes positions r, r + R, r + 2R, ... of the padded order.
// So the shards are disjoint apart from the padding, their union is the whole dataset (or all
// but the dropped tail), and each rank sees the same number of samples — which DDP needs, as
// every rank must run the same number of steps.
class DistributedSampler : public Sampler {
 public:
  /// num_replicas -1: the process group's world size; rank -1: this process's rank (both
  /// raise before distributed::init_process_group). Raises tide::Error for num_replicas < 1 or
  /// a rank outside [0, num_replicas).
  explicit DistributedSampler(size_t dataset_size, int num_replicas = -1, int rank = -1,
                              bool shuffle = true, uint64_t seed = 0, bool drop_last = false);

  /// This rank's indices for the current epoch (Note [DistributedSampler]).
  std::vector<size_t> indices() override;
  /// num_samples: the indices each rank gets per epoch.
  size_t size() const override { return num_samples_; }

  /// The epoch whose shuffle indices() draws. Call it before each epoch with the same value on
  /// every rank; without it every epoch has epoch 0's order (as in torch).
  void set_epoch(int64_t epoch) { epoch_ = epoch; }
  int64_t epoch() const { return epoch_; }

  int num_replicas() const { return num_replicas_; }
  int rank() const { return rank_; }
  /// num_samples * num_replicas: the padded (or truncated) length of the order.
  size_t total_size() const { return num_samples_ * static_cast<size_t>(num_replicas_); }

 private:
  size_t dataset_size_;
  int num_replicas_;
  int rank_;
  bool shuffle_;
  uint64_t seed_;
  bool drop_last_;
  size_t num_samples_;
  int64_t epoch_ = 0;
};

}  // namespace tide::data
