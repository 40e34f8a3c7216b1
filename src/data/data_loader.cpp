#include "tide/data/data_loader.h"

#include <cstdio>
#include <mutex>

#include "data/epoch_batches.h"
#include "data/epoch_order.h"
#include "tide/cuda/device.h"

namespace tide::data {
namespace {

/// torch's DataLoader warns once and leaves batches pageable when no accelerator exists, so
/// that device-agnostic code runs unchanged on a cpu-only machine.
void warn_no_pinned_memory() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::fprintf(stderr, "tide: warning: DataLoaderOptions::pin_memory is set but no cuda device "
                         "exists, so batches stay in pageable memory (as torch does)\n");
  });
}

}  // namespace

DataLoader::DataLoader(std::shared_ptr<const Dataset> dataset, DataLoaderOptions options)
    : dataset_(std::move(dataset)), options_(options) {
  TIDE_CHECK(dataset_ != nullptr, "[DataLoader] expected a dataset, got a null pointer; pass "
             "std::make_shared<YourDataset>(...)");
  TIDE_CHECK(options_.batch_size() >= 1, "[DataLoader] batch_size should be a positive integer "
             "value, but got batch_size=", options_.batch_size());
  TIDE_CHECK(options_.num_workers() >= 0, "[DataLoader] num_workers option should be "
             "non-negative, but got num_workers=", options_.num_workers(),
             "; use num_workers=0 to load batches on the calling thread");
  TIDE_CHECK(options_.prefetch_factor() >= 1, "[DataLoader] prefetch_factor option should be a "
             "positive integer (batches loaded ahead per worker), but got prefetch_factor=",
             options_.prefetch_factor());
  // torch's message: a sampler fixes the order, so there is nothing left to shuffle.
  TIDE_CHECK(!(options_.sampler() && options_.shuffle()),
             "[DataLoader] sampler option is mutually exclusive with shuffle; drop shuffle(true) "
             "and let the sampler order the samples (DistributedSampler shuffles itself)");
  if (options_.pin_memory()) {
    pin_ = cuda::device_count() > 0;
    if (!pin_) warn_no_pinned_memory();
  }
}

size_t DataLoader::size() const {
  const size_t n = options_.sampler() ? options_.sampler()->size() : dataset_->size();
  const auto bs = static_cast<size_t>(options_.batch_size());
  return options_.drop_last() ? n / bs : (n + bs - 1) / bs;
}

void DataLoader::set_epoch(int64_t epoch) {
  TIDE_CHECK(epoch >= 0, "[DataLoader::set_epoch] expected a non-negative epoch, got ", epoch);
  next_epoch_ = epoch;
}

std::vector<size_t> DataLoader::epoch_order(int64_t epoch) const {
  const size_t n = dataset_->size();
  if (const std::shared_ptr<Sampler>& sampler = options_.sampler()) {
    std::vector<size_t> order = sampler->indices();
    // The batch count comes from size(), and the datasets trust their indices: a sampler that
    // breaks its contract is caught here, before a worker reads out of bounds.
    TIDE_CHECK(order.size() == sampler->size(), "[DataLoader] expected the sampler to yield ",
               sampler->size(), " indices (its size()), found ", order.size(),
               "; a Sampler's indices() must return exactly size() indices");
    for (size_t i = 0; i < order.size(); ++i) {
      TIDE_CHECK(order[i] < n, "[DataLoader] expected the sampler's indices to be below the "
                 "dataset's size ", n, ", found index ", order[i], " at position ", i,
                 "; build the sampler for this dataset's size");
    }
    return order;
  }
  if (!options_.shuffle()) return detail::sequential_order(n);
  return detail::shuffled_order(n, options_.seed() ? *options_.seed() : detail::draw_seed(),
                                static_cast<uint64_t>(epoch));
}

DataLoader::Iterator DataLoader::begin() {
  const int64_t epoch = next_epoch_++;
  detail::EpochBatches::Plan plan{
      dataset_,
      epoch_order(epoch),
      size(),
      options_.batch_size(),
      options_.num_workers(),
      options_.prefetch_factor(),
      pin_,
      epoch};
  return Iterator(std::make_shared<detail::EpochBatches>(std::move(plan)), 0);
}

bool DataLoader::Iterator::at_end() const { return !epoch_ || index_ >= epoch_->size(); }

const Example& DataLoader::Iterator::operator*() const {
  TIDE_CHECK(!at_end(), "[DataLoader::Iterator] dereferenced an iterator at the end of its "
             "epoch; compare it with end() first");
  return epoch_->get(index_);
}

DataLoader::Iterator& DataLoader::Iterator::operator++() {
  TIDE_CHECK(!at_end(), "[DataLoader::Iterator] advanced an iterator past the end of its epoch");
  epoch_->release(index_);
  ++index_;
  return *this;
}

bool DataLoader::Iterator::operator==(const Iterator& other) const {
  const bool end = at_end(), other_end = other.at_end();
  if (end || other_end) return end == other_end;
  return epoch_ == other.epoch_ && index_ == other.index_;
}

}  // namespace tide::data
