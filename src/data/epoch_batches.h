#pragma once
// EpochBatches: one epoch of a DataLoader, its batches built in order by the consumer's thread
// or by worker threads (Note [DataLoader workers] in tide/data/data_loader.h).

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "tide/data/dataset.h"

namespace tide::data::detail {

class EpochBatches {
 public:
  struct Plan {
    std::shared_ptr<const Dataset> dataset;
    std::vector<size_t> order;  // the epoch's sample order
    size_t num_batches;
    int64_t batch_size;
    int num_workers;
    int prefetch_factor;
    bool pinned;
    int64_t epoch;
  };
  /// Starts the workers (if any).
  explicit EpochBatches(Plan plan);
  /// Stops the workers and joins them; a worker building a batch finishes it first.
  ~EpochBatches();
  EpochBatches(const EpochBatches&) = delete;
  EpochBatches& operator=(const EpochBatches&) = delete;

  size_t size() const { return plan_.num_batches; }
  /// Batch k, built or waited for; raises the tide::Error of a batch that failed (an
  /// OutOfMemoryError when that is what building it raised). k may not go
  /// back to a batch before the last one asked for; batches skipped over are dropped unread.
  /// One consumer at a time.
  const Example& get(size_t k);
  /// Lets go of batch k if it is the current one (the iterator moved past it).
  void release(size_t k);

 private:
  /// A batch a worker has built (or failed to build).
  struct Slot {
    bool done = false;
    Example batch;
    std::string error;  // non-empty: the batch failed
    bool out_of_memory = false;  // ... with an OutOfMemoryError, raised again as one
  };
  static constexpr size_t kNone = static_cast<size_t>(-1);

  std::span<const size_t> indices_of(size_t k) const;
  /// Builds batch k into `slot` (the error message when that throws). `worker`: -1 for the
  /// consumer's own thread.
  void build(size_t k, int worker, Slot& slot) const;
  void work(int worker);
  void stop_and_join();

  const Plan plan_;
  const size_t window_;  // batches in flight: num_workers * prefetch_factor

  // Shared with the workers, under mutex_.
  std::mutex mutex_;
  std::condition_variable work_cv_;   // a slot freed up, or stop
  std::condition_variable ready_cv_;  // a batch is done
  size_t next_to_build_ = 0;          // the lowest batch no worker has taken
  size_t next_to_hand_out_ = 0;       // batches below it were handed out or skipped
  std::vector<Slot> slots_;           // batch k in slots_[k % window_]
  bool stop_ = false;
  std::vector<std::thread> workers_;

  // The consumer's.
  size_t current_ = kNone;
  Slot current_slot_;
  bool current_released_ = false;
};

}  // namespace tide::data::detail
