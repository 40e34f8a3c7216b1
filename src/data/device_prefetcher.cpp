#include "tide/data/device_prefetcher.h"

#include <string>

#include "tide/cuda/device.h"
#include "tide/cuda/event.h"
#include "tide/cuda/stream_guard.h"

namespace tide::data {
namespace detail {

/// One epoch of a DevicePrefetcher: the batch handed out and the next one, whose copy is
/// already enqueued (Note [Device prefetching]).
class PrefetchRun {
 public:
  PrefetchRun(DataLoader::Iterator source, size_t num_batches, Device device,
              std::optional<cuda::Stream> stream)
      : source_(std::move(source)), num_batches_(num_batches), device_(device), stream_(stream) {
    stage();
  }

  size_t size() const { return num_batches_; }

  const Example& get(size_t k) {
    TIDE_CHECK(k < num_batches_, "[DevicePrefetcher::Iterator] batch ", k,
               " is past the end of the epoch (", num_batches_, " batches)");
    TIDE_CHECK(current_ == kNone || k >= current_, "[DevicePrefetcher::Iterator] batch ", k,
               " was requested after batch ", current_, "; iterators are single-pass");
    while (current_ == kNone || current_ < k) {
      current_ = current_ == kNone ? 0 : current_ + 1;
      current_batch_ = std::move(staged_);
      staged_ = Staged();
      stage();  // batch current_ + 1 is copied while the caller works on batch current_
    }
    TIDE_CHECK_T(Error, current_batch_.error.empty(), current_batch_.error);
    // Every dereference: the caller may have changed its current stream since the last one.
    if (current_batch_.ready) current_batch_.ready->wait(cuda::current_stream(device_.index()));
    return current_batch_.batch;
  }

 private:
  struct Staged {
    Example batch;
    std::optional<cuda::Event> ready;  // recorded after the copy, on the side stream
    std::string error;                 // non-empty: the loader's batch failed, or its copy
  };
  static constexpr size_t kNone = static_cast<size_t>(-1);

  Tensor to_device(const Tensor& t) const {
    return t.defined() ? t.to(device_, /*non_blocking=*/true) : t;
  }

  /// Takes the loader's next batch and enqueues its copy on the side stream.
  void stage() {
    if (source_ == DataLoader::Iterator()) return;
    try {
      const Example& host = *source_;
      if (!stream_) {
        staged_.batch = host;
      } else {
        cuda::StreamGuard on_side(*stream_);
        staged_.batch = Example{to_device(host.data), to_device(host.target)};
        staged_.ready = stream_->record_event();
      }
    } catch (const std::exception& e) {
      staged_ = Staged();
      staged_.error = e.what();
    }
    // Lets go of the host batch: a pinned one goes back to its cache only once the copy that
    // reads it has completed (Note [Pinned host memory]).
    ++source_;
  }

  DataLoader::Iterator source_;
  const size_t num_batches_;
  const Device device_;
  const std::optional<cuda::Stream> stream_;
  size_t current_ = kNone;
  Staged current_batch_, staged_;
};

}  // namespace detail

DevicePrefetcher::DevicePrefetcher(DataLoader& loader, Device device)
    : loader_(&loader), device_(device) {
  if (device.is_cpu()) {
    TIDE_CHECK(!device.has_index() || device.index() == 0, "[DevicePrefetcher] expected the cpu "
               "device, got ", device, "; tide has one cpu device, cpu:0");
    device_ = Device(kCPU);
    return;
  }
  const int count = cuda::device_count();
  TIDE_CHECK(count > 0, "[DevicePrefetcher] cannot prefetch to ", device, ": no cuda device "
             "exists in this process; prefetch to \"cpu\" (batches pass through) or set "
             "TIDE_SIM_DEVICES=N to simulate N GPUs");
  const int index = device.has_index() ? device.index() : cuda::current_device();
  TIDE_CHECK(index < count, "[DevicePrefetcher] cannot prefetch to ", device, ": this process has ",
             count, " cuda device", count == 1 ? "" : "s", " (cuda:0 .. cuda:", count - 1, ")");
  device_ = Device(kCUDA, index);
  stream_ = cuda::Stream(index);
}

DevicePrefetcher::Iterator DevicePrefetcher::begin() {
  const size_t n = loader_->size();
  DataLoader::Iterator source = loader_->begin();
  return Iterator(std::make_shared<detail::PrefetchRun>(std::move(source), n, device_, stream_), 0);
}

bool DevicePrefetcher::Iterator::at_end() const { return !run_ || index_ >= run_->size(); }

const Example& DevicePrefetcher::Iterator::operator*() const {
  TIDE_CHECK(!at_end(), "[DevicePrefetcher::Iterator] dereferenced an iterator at the end of "
             "its epoch; compare it with end() first");
  return run_->get(index_);
}

DevicePrefetcher::Iterator& DevicePrefetcher::Iterator::operator++() {
  TIDE_CHECK(!at_end(), "[DevicePrefetcher::Iterator] advanced an iterator past the end of its "
             "epoch");
  ++index_;
  return *this;
}

bool DevicePrefetcher::Iterator::operator==(const Iterator& other) const {
  const bool end = at_end(), other_end = other.at_end();
  if (end || other_end) return end == other_end;
  return run_ == other.run_ && index_ == other.index_;
}

}  // namespace tide::data
