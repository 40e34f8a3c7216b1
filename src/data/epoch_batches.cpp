#include "data/epoch_batches.h"

#include <algorithm>
#include <exception>

#include "tide/error.h"

namespace tide::data::detail {

EpochBatches::EpochBatches(Plan plan)
    : plan_(std::move(plan)),
      window_(static_cast<size_t>(plan_.num_workers) * static_cast<size_t>(plan_.prefetch_factor)) {
  if (plan_.num_workers == 0 || plan_.num_batches == 0) return;
  slots_.resize(window_);
  const size_t threads = std::min(static_cast<size_t>(plan_.num_workers), plan_.num_batches);
  workers_.reserve(threads);
  try {
    for (size_t w = 0; w < threads; ++w) workers_.emplace_back([this, w] { work(static_cast<int>(w)); });
  } catch (...) {
    stop_and_join();  // the threads already started (no destructor runs for a failed constructor)
    throw;
  }
}

EpochBatches::~EpochBatches() { stop_and_join(); }

void EpochBatches::stop_and_join() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : workers_) {
    if (t.joinable()) t.join();
  }
}

std::span<const size_t> EpochBatches::indices_of(size_t k) const {
  const size_t bs = static_cast<size_t>(plan_.batch_size);
  const size_t begin = k * bs;
  const size_t end = std::min(begin + bs, plan_.order.size());
  return std::span<const size_t>(plan_.order).subspan(begin, end - begin);
}

void EpochBatches::build(size_t k, int worker, Slot& slot) const {
  const std::span<const size_t> indices = indices_of(k);
  auto describe = [&](const char* what) {
    return tide::detail::concat(
        "[DataLoader] batch ", k, " of epoch ", plan_.epoch, " (", indices.size(),
        " samples, dataset indices ", indices.front(), indices.size() > 1 ? ", " : "",
        indices.size() > 1 ? std::to_string(indices[1]) : std::string(),
        indices.size() > 2 ? ", ..." : "", ") failed ",
        worker < 0 ? std::string("on the loading thread")
                   : "in worker thread " + std::to_string(worker),
        ": ", what);
  };
  try {
    slot.batch = plan_.dataset->get_batch(indices, plan_.pinned);
  } catch (const OutOfMemoryError& e) {
    // Kept an OutOfMemoryError, so the training loop's handler for it sees it (a pinned batch
    // the host could not pin, the OOM sweep's pinned points).
    slot.error = describe(e.what());
    slot.out_of_memory = true;
  } catch (const std::exception& e) {
    slot.error = describe(e.what());
  } catch (...) {
    slot.error = describe("an exception that is not a std::exception");
  }
}

void EpochBatches::work(int worker) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [&] {
      return stop_ || next_to_build_ >= plan_.num_batches ||
             next_to_build_ < next_to_hand_out_ + window_;
    });
    if (stop_ || next_to_build_ >= plan_.num_batches) return;
    const size_t k = next_to_build_++;
    lock.unlock();
    Slot built;
    build(k, worker, built);
    built.done = true;
    lock.lock();
    // Batch k may be in flight only while k < next_to_hand_out_ + window_, so its slot's
    // previous batch (k - window_) has been handed out and the slot is free.
    slots_[k % window_] = std::move(built);
    ready_cv_.notify_one();  // the one consumer
  }
}

const Example& EpochBatches::get(size_t k) {
  TIDE_CHECK(k < plan_.num_batches, "[DataLoader::Iterator] batch ", k,
             " is past the end of the epoch (", plan_.num_batches, " batches)");
  TIDE_CHECK(k != current_ || !current_released_, "[DataLoader::Iterator] batch ", k,
             " was read again after an iterator moved past it; DataLoader iterators are "
             "single-pass (input iterators): keep a copy of the Example instead");
  if (k != current_) {
    TIDE_CHECK(current_ == kNone || k > current_, "[DataLoader::Iterator] batch ", k,
               " was requested after batch ", current_, "; DataLoader iterators are single-pass "
               "(input iterators): start a new epoch with begin() to read batches again");
    current_slot_ = Slot();  // let go of the previous batch before waiting for the next
    current_ = k;
    current_released_ = false;
    if (workers_.empty()) {
      build(k, -1, current_slot_);
    } else {
      std::unique_lock<std::mutex> lock(mutex_);
      while (next_to_hand_out_ <= k) {
        const size_t j = next_to_hand_out_;
        Slot& slot = slots_[j % window_];
        ready_cv_.wait(lock, [&] { return slot.done; });
        Slot taken = std::move(slot);
        slot = Slot();
        ++next_to_hand_out_;
        work_cv_.notify_one();  // one batch handed out: room for one more to be built
        if (j == k) {
          current_slot_ = std::move(taken);
        } else {
          lock.unlock();  // a skipped batch's memory goes back without the lock held
          taken = Slot();
          lock.lock();
        }
      }
    }
  }
  if (TIDE_UNLIKELY(!current_slot_.error.empty())) {
    if (current_slot_.out_of_memory) throw OutOfMemoryError(current_slot_.error);
    throw Error(current_slot_.error);
  }
  return current_slot_.batch;
}

void EpochBatches::release(size_t k) {
  if (k != current_) return;
  current_slot_ = Slot();
  current_released_ = true;
}

}  // namespace tide::data::detail
