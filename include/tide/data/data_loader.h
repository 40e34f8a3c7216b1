#pragma once
// DataLoader: a range of batches of a dataset, loaded by worker threads, optionally shuffled
// and pinned (torch.utils.data.DataLoader).

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <vector>

#include "tide/data/data_loader_options.h"
#include "tide/data/dataset.h"
#include "tide/data/example.h"

namespace tide::data {

namespace detail {
class EpochBatches;
}

// Note [Shuffle order]: with shuffle, epoch e visits the samples in a permutation drawn by a
// Fisher-Yates shuffle from Philox numbers keyed by (seed, e) (src/data/epoch_order.h): it
// depends only on the seed and the epoch number, never on num_workers or on timing, and every
// begin() starts the next epoch, so each epoch has a new order (as torch reshuffles at each
// iter()). Without a seed option each epoch's seed is drawn from tide's default cpu generator
// (torch's RandomSampler without a generator), so manual_seed reproduces a run. With a sampler
// option the sampler gives each epoch's order instead (tide/data/sampler.h); the DataLoader's
// epoch number then plays no part in it.
//
// Note [DataLoader workers]: with num_workers = N > 0, begin() starts N threads that build the
// epoch's batches ahead of the consumer, at most N * prefetch_factor of them in flight (built
// or being built, not yet handed out). A worker takes the lowest batch not yet taken, so
// batches are built roughly in order, and the consumer receives them strictly in order: batch
// contents depend only on the order (above), so a run is deterministic whatever the thread
// timing. With num_workers = 0 the consumer's thread builds each batch when it is first
// dereferenced. An exception while building batch k reaches the consumer when it dereferences
// batch k, as a tide::Error naming the batch, the sample and the original message (an
// OutOfMemoryError, such as a batch the host could not pin, stays an OutOfMemoryError, so a
// training loop's handler for it sees it); the epoch goes on (the next batch can be read). Workers stop and are joined when the last iterator of
// the epoch is destroyed (a `break` out of the loop included): a worker finishes the batch it
// is building first, nothing else is waited for.
//
// Note [Re-iterating a DataLoader]: as torch's DataLoader without persistent workers, every
// begin() starts an independent epoch with its own workers, owned by the iterator it returns
// (copies of that iterator share it). An iterator still alive from an earlier begin() keeps
// working on its own epoch; it does not depend on the DataLoader either, which may be
// destroyed first. Iterators are single-pass (input iterators): advancing one copy advances
// them all.

/// A range of Example batches: `for (const Example& batch : loader)`. Each batch holds
/// batch_size samples (fewer in the last one unless drop_last) stacked along a new dim 0.
class DataLoader {
 public:
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Example;
    using difference_type = std::ptrdiff_t;
    using pointer = const Example*;
    using reference = const Example&;

    /// The end iterator.
    Iterator() = default;
    /// The current batch: blocks until it is built; raises the tide::Error of a failed one.
    /// The reference stays valid until the iterator moves on.
    const Example& operator*() const;
    const Example* operator->() const { return &**this; }
    Iterator& operator++();
    void operator++(int) { ++*this; }
    bool operator==(const Iterator& other) const;
    /// The position of the current batch in its epoch.
    size_t batch_index() const { return index_; }

   private:
    friend class DataLoader;
    Iterator(std::shared_ptr<detail::EpochBatches> epoch, size_t index)
        : epoch_(std::move(epoch)), index_(index) {}
    bool at_end() const;

    std::shared_ptr<detail::EpochBatches> epoch_;
    size_t index_ = 0;
  };

  /// Raises tide::Error for a null dataset or invalid options (a batch size or
  /// prefetch_factor below 1, a negative num_workers, a sampler together with shuffle).
  explicit DataLoader(std::shared_ptr<const Dataset> dataset, DataLoaderOptions options = {});

  /// Starts the next epoch (Note [Re-iterating a DataLoader]).
  Iterator begin();
  Iterator end() const { return Iterator(); }
  /// Batches per epoch (of the sampler's size() indices when there is a sampler).
  size_t size() const;

  const Dataset& dataset() const { return *dataset_; }
  const std::shared_ptr<const Dataset>& dataset_ptr() const { return dataset_; }
  const DataLoaderOptions& options() const { return options_; }
  /// The epoch the next begin() starts (0 at first).
  int64_t epoch() const { return next_epoch_; }
  /// Makes the next begin() start epoch `epoch` (resuming a run: the shuffle order of an epoch
  /// depends only on the seed and its number).
  void set_epoch(int64_t epoch);
  /// Whether batches come in pinned memory: pin_memory was asked for and a cuda device exists
  /// (without one, torch too leaves batches pageable, with a warning).
  bool pins_memory() const { return pin_; }

 private:
  /// The sample order of `epoch`: the sampler's (checked), shuffled, or sequential.
  std::vector<size_t> epoch_order(int64_t epoch) const;

  std::shared_ptr<const Dataset> dataset_;
  DataLoaderOptions options_;
  int64_t next_epoch_ = 0;
  bool pin_ = false;
};

}  // namespace tide::data
