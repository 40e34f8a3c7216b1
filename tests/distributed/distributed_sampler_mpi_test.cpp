// data::DistributedSampler with the process group's rank and world size: the ranks' shards,
// gathered, cover the dataset and overlap only in the padding, epoch after epoch.

#include <gtest/gtest.h>

#include <map>

#include "tide/tide.h"

namespace tide {
namespace {

/// Every rank's indices (each rank has the same number).
std::vector<std::vector<int64_t>> all_shards(const std::vector<size_t>& mine) {
  Tensor t = empty({static_cast<int64_t>(mine.size())}, dtype(kInt64));
  for (size_t i = 0; i < mine.size(); ++i) t.data_ptr<int64_t>()[i] = static_cast<int64_t>(mine[i]);
  std::vector<Tensor> all;
  for (int r = 0; r < distributed::get_world_size(); ++r) all.push_back(empty_like(t));
  distributed::all_gather(all, t);
  std::vector<std::vector<int64_t>> out;
  for (const Tensor& s : all) out.push_back(s.tolist<int64_t>());
  return out;
}

TEST(DistributedSamplerMpi, TakesRankAndWorldSizeFromTheProcessGroup) {
  const int world = distributed::get_world_size();
  data::DistributedSampler sampler(10);
  EXPECT_EQ(sampler.num_replicas(), world);
  EXPECT_EQ(sampler.rank(), distributed::get_rank());
  EXPECT_EQ(sampler.size(), static_cast<size_t>((10 + world - 1) / world));
}

TEST(DistributedSamplerMpi, ShardsAreDisjointApartFromPaddingAndCoverTheDatasetEachEpoch) {
  const size_t n = 23;
  data::DistributedSampler sampler(n, -1, -1, /*shuffle=*/true, /*seed=*/9);
  std::vector<std::vector<int64_t>> previous;
  for (int64_t epoch = 0; epoch < 3; ++epoch) {
    sampler.set_epoch(epoch);
    const auto shards = all_shards(sampler.indices());
    std::map<int64_t, int> count;
    for (const auto& s : shards)
      for (int64_t i : s) ++count[i];
    EXPECT_EQ(count.size(), n) << "epoch " << epoch;
    int repeats = 0;
    for (const auto& [index, times] : count) repeats += times - 1;
    EXPECT_EQ(static_cast<size_t>(repeats), sampler.total_size() - n) << "epoch " << epoch;
    EXPECT_NE(shards, previous) << "set_epoch reshuffles";
    previous = shards;
  }
}

}  // namespace
}  // namespace tide
