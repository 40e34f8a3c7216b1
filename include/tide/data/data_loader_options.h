#pragma once
// DataLoaderOptions: how a DataLoader batches, orders, loads and places samples.

#include <cstdint>
#include <memory>
#include <optional>

#include "tide/data/sampler.h"

namespace tide::data {

/// Chainable as libtorch's: DataLoaderOptions().batch_size(64).shuffle(true).num_workers(2).
/// Setters return *this, getters share the name (Note [Optimizer options] in
/// tide/optim/sgd_options.h); the DataLoader checks the whole set when it is built.
class DataLoaderOptions {
 public:
  DataLoaderOptions() = default;

  /// Samples per batch (>= 1).
  int64_t batch_size() const noexcept { return batch_size_; }
  DataLoaderOptions& batch_size(int64_t n) { batch_size_ = n; return *this; }
  /// Visit the samples in a new random order every epoch (Note [Shuffle order] in
  /// tide/data/data_loader.h).
  bool shuffle() const noexcept { return shuffle_; }
  DataLoaderOptions& shuffle(bool on) { shuffle_ = on; return *this; }
  /// Worker threads that build batches ahead of the consumer (0: the consumer's thread builds
  /// each batch when it asks for it).
  int num_workers() const noexcept { return num_workers_; }
  DataLoaderOptions& num_workers(int n) { num_workers_ = n; return *this; }
  /// Put every batch in pinned (page-locked) host memory, so that copies to a GPU can be
  /// asynchronous (non_blocking=true).
  bool pin_memory() const noexcept { return pin_memory_; }
  DataLoaderOptions& pin_memory(bool on) { pin_memory_ = on; return *this; }
  /// Leave out a last batch smaller than batch_size.
  bool drop_last() const noexcept { return drop_last_; }
  DataLoaderOptions& drop_last(bool on) { drop_last_ = on; return *this; }
  /// Batches loaded ahead per worker: num_workers * prefetch_factor batches are in flight
  /// (>= 1; unused without workers).
  int prefetch_factor() const noexcept { return prefetch_factor_; }
  DataLoaderOptions& prefetch_factor(int n) { prefetch_factor_ = n; return *this; }
  /// The shuffle seed; unset, each epoch draws one from tide's default cpu generator (so
  /// manual_seed makes the order reproducible, as torch's RandomSampler).
  std::optional<uint64_t> seed() const noexcept { return seed_; }
  DataLoaderOptions& seed(uint64_t seed) { seed_ = seed; return *this; }
  /// Where each epoch's sample order comes from instead of shuffle (torch's sampler=): the
  /// DataLoader asks it for the indices at every begin() (tide/data/sampler.h). Shared, so the
  /// caller keeps a handle to it (DistributedSampler::set_epoch). Exclusive with shuffle.
  const std::shared_ptr<Sampler>& sampler() const noexcept { return sampler_; }
  DataLoaderOptions& sampler(std::shared_ptr<Sampler> sampler) {
    sampler_ = std::move(sampler);
    return *this;
  }

 private:
  int64_t batch_size_ = 1;
  bool shuffle_ = false;
  int num_workers_ = 0;
  bool pin_memory_ = false;
  bool drop_last_ = false;
  int prefetch_factor_ = 2;
  std::optional<uint64_t> seed_;
  std::shared_ptr<Sampler> sampler_;
};

}  // namespace tide::data
