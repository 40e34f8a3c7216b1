#pragma once
// DevicePrefetcher: a DataLoader's batches, already on a device, each copied while the
// previous one is being computed on.

#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>

#include "tide/cuda/stream.h"
#include "tide/data/data_loader.h"
#include "tide/device.h"

namespace tide::data {

namespace detail {
class PrefetchRun;
}

// Note [Device prefetching]: on a cuda device, when batch i is handed out the copy of batch
// i+1 is already enqueued, with non_blocking=true, on a side stream of the device's pool, so
// it runs while the caller's work on batch i runs on the caller's stream (with pinned batches,
// DataLoaderOptions::pin_memory, the host does not wait for it either). An event recorded on
// the side stream after each copy is waited on by the caller's current stream every time a
// batch is dereferenced, so everything the caller enqueues afterwards sees the data; the host
// never blocks. No record_stream is needed: the batch's device memory belongs to the side
// stream, and the op layer records the caller's stream as a user of it when an op reads it
// there (Note [Stream uses] in src/ops/dispatch.h), so its block is not handed to a later copy
// before the caller's work on it has completed. On the cpu, batches pass through unchanged.

/// A range over `loader`'s batches placed on `device`: `for (const Example& b : prefetcher)`.
/// Each begin() starts a new epoch of the loader. The loader must outlive the prefetcher.
class DevicePrefetcher {
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
    /// The current batch, on the device. Makes the calling thread's current stream of that
    /// device wait for the batch's copy; raises the loader's error for a failed batch.
    const Example& operator*() const;
    const Example* operator->() const { return &**this; }
    Iterator& operator++();
    void operator++(int) { ++*this; }
    bool operator==(const Iterator& other) const;
    size_t batch_index() const { return index_; }

   private:
    friend class DevicePrefetcher;
    Iterator(std::shared_ptr<detail::PrefetchRun> run, size_t index)
        : run_(std::move(run)), index_(index) {}
    bool at_end() const;

    std::shared_ptr<detail::PrefetchRun> run_;
    size_t index_ = 0;
  };

  /// `device` "cuda" without an index means the current device, resolved here. Raises
  /// tide::Error for a cuda device that does not exist.
  DevicePrefetcher(DataLoader& loader, Device device);

  /// Starts the loader's next epoch and the copy of its first batch.
  Iterator begin();
  Iterator end() const { return Iterator(); }
  /// Batches per epoch (the loader's).
  size_t size() const { return loader_->size(); }
  Device device() const { return device_; }
  /// The side stream the copies run on; none on the cpu.
  std::optional<cuda::Stream> stream() const { return stream_; }

 private:
  DataLoader* loader_;
  Device device_;
  std::optional<cuda::Stream> stream_;
};

}  // namespace tide::data
