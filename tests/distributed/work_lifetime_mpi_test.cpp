// A collective keeps its tensors alive until it finished (Note [Work] in
// tide/distributed/process_group.h), memory the caching allocator does not own included:
// a from_blob tensor dropped by the caller before wait() is released — its deleter runs —
// only after the collective wrote its result there.

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "distributed/dist_helpers.h"
#include "tide/testing/sim_hooks.h"
#include "tide/tide.h"

namespace tide {
namespace {

using distributed::ReduceOp;

/// Caller-owned memory wrapped by from_blob, and what its deleter saw when it ran (on
/// whichever thread dropped the last reference).
struct Blob {
  std::vector<float> memory = std::vector<float>(4, 0.0f);
  std::mutex mutex;
  std::shared_ptr<distributed::Work> work;  // set before the caller drops its tensor
  bool deleted = false;
  bool work_completed_at_delete = false;
  float first_value_at_delete = -1;

  Tensor wrap(Device device) {
    return from_blob(memory.data(), {4}, TensorOptions().device(device), [this](void*) {
      std::lock_guard<std::mutex> lock(mutex);
      deleted = true;
      work_completed_at_delete = work != nullptr && work->is_completed();
      first_value_at_delete = memory[0];
    });
  }
  bool was_deleted() {
    std::lock_guard<std::mutex> lock(mutex);
    return deleted;
  }
};

float rank_sum() {
  const int w = distributed::get_world_size();
  return static_cast<float>(w * (w + 1) / 2);
}

/// The communication thread drops a collective's captures before it runs the next one: once a
/// later barrier returned, every earlier collective's tensors are released.
void flush_released_tensors() { distributed::barrier(); }

TEST(WorkLifetime, AFromBlobCpuTensorDroppedBeforeWaitIsReleasedOnlyAfterTheCollective) {
  Blob blob;
  std::fill(blob.memory.begin(), blob.memory.end(), distributed::get_rank() + 1.0f);
  {
    Tensor t = blob.wrap(Device(kCPU));
    std::lock_guard<std::mutex> lock(blob.mutex);
    blob.work = distributed::all_reduce(t, ReduceOp::SUM, /*async_op=*/true);
  }  // the caller's only reference is gone; the collective may not have run yet
  std::shared_ptr<distributed::Work> work = blob.work;
  work->wait();
  flush_released_tensors();
  ASSERT_TRUE(blob.was_deleted());
  EXPECT_TRUE(blob.work_completed_at_delete);
  EXPECT_EQ(blob.first_value_at_delete, rank_sum()) << "the deleter ran before the result came";
}

// Deterministic: the collective waits for its held stream, so while the hold lasts it cannot
// have finished, and the tensor must still be alive though the caller dropped it.
TEST(WorkLifetime, AFromBlobGpuTensorDroppedBeforeWaitOutlivesItsHeldStream) {
  if (cuda::device_count() == 0 || !testing::sim_active()) {
    GTEST_SKIP() << "holds a simulated stream: needs simulated GPUs";
  }
  const Device gpu(kCUDA, test::rank_device("cuda").index());
  Blob blob;
  std::shared_ptr<distributed::Work> work;
  {
    testing::StreamHold hold(cuda::current_stream(gpu.index()));
    {
      Tensor t = blob.wrap(gpu);
      t.fill_(distributed::get_rank() + 1);  // queued behind the hold
      std::lock_guard<std::mutex> lock(blob.mutex);
      blob.work = distributed::all_reduce(t, ReduceOp::SUM, /*async_op=*/true);
      work = blob.work;
    }
    EXPECT_FALSE(blob.was_deleted()) << "released while its collective still waited";
    EXPECT_FALSE(work->is_completed());
  }
  work->wait();
  cuda::synchronize(gpu.index());
  flush_released_tensors();
  ASSERT_TRUE(blob.was_deleted());
  EXPECT_TRUE(blob.work_completed_at_delete);
  EXPECT_EQ(blob.first_value_at_delete, rank_sum());
}

// The communication thread runs collectives in order: while a GPU collective waits for its
// held stream, a cpu collective queued behind it cannot run, and its dropped from_blob tensor
// must stay alive until it did.
TEST(WorkLifetime, AFromBlobCpuTensorQueuedBehindAHeldCollectiveStaysAlive) {
  if (cuda::device_count() == 0 || !testing::sim_active()) {
    GTEST_SKIP() << "holds a simulated stream: needs simulated GPUs";
  }
  const Device gpu(kCUDA, test::rank_device("cuda").index());
  Tensor first = ones({2}, TensorOptions().device(gpu));
  Blob blob;
  std::fill(blob.memory.begin(), blob.memory.end(), distributed::get_rank() + 1.0f);
  std::shared_ptr<distributed::Work> gpu_work, cpu_work;
  {
    testing::StreamHold hold(cuda::current_stream(gpu.index()));
    gpu_work = distributed::all_reduce(first, ReduceOp::SUM, /*async_op=*/true);
    {
      Tensor t = blob.wrap(Device(kCPU));
      std::lock_guard<std::mutex> lock(blob.mutex);
      blob.work = distributed::all_reduce(t, ReduceOp::SUM, /*async_op=*/true);
      cpu_work = blob.work;
    }
    EXPECT_FALSE(blob.was_deleted());
    EXPECT_FALSE(cpu_work->is_completed());
  }
  gpu_work->wait();
  cpu_work->wait();
  flush_released_tensors();
  ASSERT_TRUE(blob.was_deleted());
  EXPECT_TRUE(blob.work_completed_at_delete);
  EXPECT_EQ(blob.first_value_at_delete, rank_sum());
  EXPECT_EQ(first.cpu().tolist<float>(),
            std::vector<float>(2, static_cast<float>(distributed::get_world_size())));
}

}  // namespace
}  // namespace tide
