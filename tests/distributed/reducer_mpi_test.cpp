// The Reducer under mpirun: buckets are all-reduced while backward is still running, in bucket
// order, and removing the DDP's hooks leaves a plain module.

#include <gtest/gtest.h>

#include <algorithm>

#include "distributed/reducer.h"
#include "tide/tide.h"

namespace tide {
namespace {

TEST(Reducer, LaunchesEachBucketDuringBackwardBeforeTheEarlierLayersGradientsExist) {
  manual_seed(3);
  nn::Sequential net(nn::Linear(4, 4), nn::ReLU(), nn::Linear(4, 4), nn::ReLU(), nn::Linear(4, 2));
  nn::detail::Reducer reducer(net.named_parameters(), /*bucket_cap_bytes=*/0, false);
  ASSERT_EQ(reducer.bucket_count(), 6u);  // one per parameter, the last layer's first
  // Registered after the reducer's, so each runs right after the reducer saw that gradient.
  std::vector<size_t> launched_at_first_layer;
  for (Tensor p : {net[0].parameters()[0], net[0].parameters()[1]}) {
    p.register_post_accumulate_grad_hook(
        [&](Tensor&) { launched_at_first_layer.push_back(reducer.buckets_launched()); });
  }
  reducer.prepare_for_forward();
  Tensor out = net(ones({3, 4}));
  reducer.prepare_for_backward({out});
  out.sum().backward();
  // When backward reached the first layer, the two later layers' four buckets were already
  // being all-reduced (overlapping the rest of backward); the first layer's last gradient
  // started the last bucket.
  ASSERT_EQ(launched_at_first_layer.size(), 2u);
  EXPECT_GE(std::min(launched_at_first_layer[0], launched_at_first_layer[1]), 4u);
  EXPECT_EQ(std::max(launched_at_first_layer[0], launched_at_first_layer[1]), 6u);
  EXPECT_EQ(reducer.buckets_launched(), 0u);  // finalized and reset when backward ended
}

TEST(Reducer, DestroyingItRemovesItsHooksSoTheModuleTrainsAlone) {
  manual_seed(4);
  nn::Linear net(3, 2);
  {
    nn::DistributedDataParallel ddp(net);
    ddp(ones({1, 3})).sum().backward();
  }
  net.zero_grad();
  // Only this rank's input: nothing is averaged, nothing waits for the other ranks.
  net(full({1, 3}, distributed::get_rank() + 1.0)).sum().backward();
  EXPECT_EQ(net.bias.grad().tolist<float>(), (std::vector<float>{1, 1}));
  EXPECT_EQ(net.weight.grad().tolist<float>(),
            std::vector<float>(6, static_cast<float>(distributed::get_rank() + 1)));
}

}  // namespace
}  // namespace tide
