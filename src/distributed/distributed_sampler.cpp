#include "tide/distributed/distributed_sampler.h"

#include "data/epoch_order.h"
#include "tide/distributed/process_group.h"
#include "tide/error.h"

namespace tide::data {

DistributedSampler::DistributedSampler(size_t dataset_size, int num_replicas, int rank,
                                       bool shuffle, uint64_t seed, bool drop_last)
    : dataset_size_(dataset_size),
      num_replicas_(num_replicas == -1 ? distributed::get_world_size() : num_replicas),
      rank_(rank == -1 ? distributed::get_rank() : rank),
      shuffle_(shuffle),
      seed_(seed),
      drop_last_(drop_last) {
  TIDE_CHECK(num_replicas_ >= 1, "[DistributedSampler] expected num_replicas >= 1 (or -1 for "
             "the process group's world size), found ", num_replicas_);
  TIDE_CHECK(rank_ >= 0 && rank_ < num_replicas_, "[DistributedSampler] Invalid rank ", rank_,
             ", rank should be in the interval [0, ", num_replicas_ - 1,
             "]; pass -1 for this process's rank");
  const auto replicas = static_cast<size_t>(num_replicas_);
  // torch: ceil((n - R) / R) with drop_last, which is floor(n / R) when R does not divide n.
  num_samples_ = drop_last_ ? dataset_size_ / replicas : (dataset_size_ + replicas - 1) / replicas;
}

std::vector<size_t> DistributedSampler::indices() {
  const size_t n = dataset_size_;
  const size_t total = total_size();
  std::vector<size_t> order =
      shuffle_ ? detail::shuffled_order(n, seed_ + static_cast<uint64_t>(epoch_), 0)
               : detail::sequential_order(n);
  if (drop_last_) {
    order.resize(total);  // total <= n: the tail is dropped
  } else {
    // Padding repeats the order from its start, as often as needed (n may be below R).
    order.reserve(total);
    for (size_t i = 0; order.size() < total; ++i) order.push_back(order[i % n]);
  }
  std::vector<size_t> mine;
  mine.reserve(num_samples_);
  for (size_t i = static_cast<size_t>(rank_); i < total; i += static_cast<size_t>(num_replicas_))
    mine.push_back(order[i]);
  return mine;
}

}  // namespace tide::data
