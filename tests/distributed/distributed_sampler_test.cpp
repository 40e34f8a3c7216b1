// data::DistributedSampler with explicit ranks (no process group): torch's shards, padding and
// drop_last, the shuffle shared by every rank, set_epoch, misuse, and a DataLoader over it.
// tests/distributed/mpi/ checks it again with the real rank and world size under mpirun.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "support/error_of.h"
#include "tide/distributed/distributed_sampler.h"
#include "tide/distributed/process_group.h"
#include "tide/tide.h"

namespace tide {
namespace {

using data::DistributedSampler;
using test::error_of;
using ::testing::HasSubstr;
using Shards = std::vector<std::vector<size_t>>;

/// Every rank's indices for one epoch.
Shards shards(size_t n, int replicas, bool shuffle, uint64_t seed, bool drop_last,
              int64_t epoch = 0) {
  Shards out;
  for (int r = 0; r < replicas; ++r) {
    DistributedSampler s(n, replicas, r, shuffle, seed, drop_last);
    s.set_epoch(epoch);
    out.push_back(s.indices());
    EXPECT_EQ(out.back().size(), s.size());
  }
  return out;
}

/// How often each index appears over all shards.
std::map<size_t, int> counts(const Shards& all) {
  std::map<size_t, int> c;
  for (const auto& s : all)
    for (size_t i : s) ++c[i];
  return c;
}

TEST(DistributedSampler, WithoutShuffleRankRTakesEveryRthIndexOfThePaddedRange) {
  // torch: range(10) padded with 0, 1 to 12, then indices[rank:12:3].
  EXPECT_EQ(shards(10, 3, false, 0, false), (Shards{{0, 3, 6, 9}, {1, 4, 7, 0}, {2, 5, 8, 1}}));
  DistributedSampler s(10, 3, 1, false);
  EXPECT_EQ(s.size(), 4u);
  EXPECT_EQ(s.total_size(), 12u);
}

TEST(DistributedSampler, DropLastDropsTheTailInsteadOfPadding) {
  EXPECT_EQ(shards(10, 3, false, 0, true), (Shards{{0, 3, 6}, {1, 4, 7}, {2, 5, 8}}));
  EXPECT_EQ(DistributedSampler(10, 3, 0, false, 0, true).total_size(), 9u);
  // A multiple of the replicas loses nothing either way.
  EXPECT_EQ(shards(6, 3, false, 0, true), shards(6, 3, false, 0, false));
  // Fewer samples than replicas: nothing for anyone (torch's ceil((3 - 4) / 4) = 0).
  EXPECT_EQ(shards(3, 4, false, 0, true), (Shards{{}, {}, {}, {}}));
}

TEST(DistributedSampler, PaddingRepeatsTheOrderAsOftenAsNeeded) {
  // 2 samples on 5 replicas: 0, 1, 0, 1, 0 (torch's indices * ceil(3 / 2), cut to 3).
  EXPECT_EQ(shards(2, 5, false, 0, false), (Shards{{0}, {1}, {0}, {1}, {0}}));
  EXPECT_EQ(shards(0, 2, false, 0, false), (Shards{{}, {}}));
}

TEST(DistributedSampler, ShuffledShardsAreDisjointApartFromPaddingAndCoverTheDataset) {
  for (size_t n : {12u, 13u, 100u}) {
    for (int replicas : {1, 2, 3, 4}) {
      const Shards all = shards(n, replicas, true, 7, false);
      const std::map<size_t, int> c = counts(all);
      ASSERT_EQ(c.size(), n) << "n=" << n << " replicas=" << replicas;
      const size_t total = all[0].size() * static_cast<size_t>(replicas);
      int repeated = 0;
      for (const auto& [index, times] : c) {
        EXPECT_LT(index, n);
        EXPECT_LE(times, 2);
        repeated += times - 1;
      }
      EXPECT_EQ(static_cast<size_t>(repeated), total - n);  // only the padding repeats
      // drop_last: disjoint, nothing repeated.
      for (const auto& [index, times] : counts(shards(n, replicas, true, 7, true))) {
        EXPECT_EQ(times, 1) << index;
      }
    }
  }
}

TEST(DistributedSampler, EveryRankDrawsTheSameShuffleSoShardsAgree) {
  // Built independently (as on separate processes), the ranks' shards interleave into one
  // permutation: rank r's j-th index is position j * R + r of the same shuffled order.
  const Shards all = shards(20, 4, true, 3, false);
  std::vector<size_t> merged;
  for (size_t j = 0; j < all[0].size(); ++j)
    for (const auto& s : all) merged.push_back(s[j]);
  std::vector<size_t> sorted = merged;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);
  EXPECT_NE(merged, sorted);  // shuffled
  EXPECT_EQ(shards(20, 4, true, 3, false), all);  // and deterministic
}

TEST(DistributedSampler, SetEpochReshufflesAndTheSeedPlusEpochPicksTheOrderAsInTorch) {
  DistributedSampler s(50, 2, 0, true, 5);
  const std::vector<size_t> epoch0 = s.indices();
  EXPECT_EQ(s.indices(), epoch0);  // no set_epoch: the same order again (torch)
  s.set_epoch(1);
  EXPECT_EQ(s.epoch(), 1);
  const std::vector<size_t> epoch1 = s.indices();
  EXPECT_NE(epoch1, epoch0);
  // torch seeds its generator with seed + epoch.
  EXPECT_EQ(shards(50, 2, true, 6, false, 0)[0], epoch1);
  EXPECT_NE(shards(50, 2, true, 6, false, 0)[0], epoch0);
}

TEST(DistributedSampler, RejectsARankOutsideTheReplicasAndNoReplicas) {
  EXPECT_THAT(error_of([] { DistributedSampler(10, 2, 2); }),
              HasSubstr("[DistributedSampler] Invalid rank 2, rank should be in the interval "
                        "[0, 1]"));
  EXPECT_THAT(error_of([] { DistributedSampler(10, 2, -3); }),
              HasSubstr("[DistributedSampler] Invalid rank -3"));
  EXPECT_THAT(error_of([] { DistributedSampler(10, 0, 0); }),
              HasSubstr("[DistributedSampler] expected num_replicas >= 1"));
}

TEST(DistributedSampler, AskingTheProcessGroupBeforeInitRaises) {
  ASSERT_FALSE(distributed::is_initialized());
  EXPECT_THAT(error_of([] { DistributedSampler(10); }), HasSubstr("init_process_group"));
  EXPECT_THAT(error_of([] { DistributedSampler(10, 2); }), HasSubstr("init_process_group"));
  EXPECT_THAT(error_of([] { DistributedSampler(10, -1, 0); }), HasSubstr("init_process_group"));
}

TEST(DistributedSampler, DrivesADataLoaderOverItsShard) {
  auto ds = std::make_shared<data::TensorDataset>(zeros({11, 1}), arange(11));
  auto sampler = std::make_shared<DistributedSampler>(11, 2, 1, false);
  data::DataLoader loader(ds, data::DataLoaderOptions().batch_size(4).sampler(sampler));
  EXPECT_EQ(loader.size(), 2u);  // 6 samples on rank 1
  std::vector<int64_t> seen;
  for (const auto& batch : loader)
    for (int64_t t : batch.target.tolist<int64_t>()) seen.push_back(t);
  EXPECT_EQ(seen, (std::vector<int64_t>{1, 3, 5, 7, 9, 0}));
}

}  // namespace
}  // namespace tide
