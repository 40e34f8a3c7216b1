// Shared memory segments (Note [Shared memory segments]): moving a storage into one keeps its
// bytes and every view of it, a second mapping of the segment's descriptor sees the same
// pages (what a receiving process does), and misuse raises naming the fix.

#include <gtest/gtest.h>
#include <unistd.h>

#include "memory/shared_memory.h"
#include "tide/factories.h"
#include "tide/tensor.h"

namespace tide {
namespace {

TEST(SharedMemory, MovingAStorageKeepsItsBytesAndItsViews) {
  Tensor t = arange(8, TensorOptions().dtype(kFloat32));
  Tensor view = t.narrow(0, 2, 4);
  EXPECT_FALSE(memory::shared_segment(t.storage()).has_value());
  memory::share_storage(t.storage(), "test");
  auto seg = memory::shared_segment(view.storage());
  ASSERT_TRUE(seg.has_value());
  EXPECT_EQ(seg->nbytes, 8 * sizeof(float));
  EXPECT_EQ(t[3].item<float>(), 3.0f);
  view.fill_(-1);
  EXPECT_EQ(t[2].item<float>(), -1.0f);
  memory::share_storage(t.storage(), "test");  // already shared: the same segment
  EXPECT_EQ(memory::shared_segment(t.storage())->fd, seg->fd);
}

TEST(SharedMemory, ASecondMappingOfTheDescriptorSeesTheSamePages) {
  Tensor t = zeros({4}, TensorOptions().dtype(kInt32));
  memory::share_storage(t.storage(), "test");
  const memory::SharedSegment seg = *memory::shared_segment(t.storage());
  Storage other = memory::map_shared_segment(dup(seg.fd), seg.nbytes, "test");
  Tensor mirror(other, kInt32, {4}, {1}, 0);
  mirror.fill_(7);
  EXPECT_EQ(t[1].item<int32_t>(), 7);
  t.fill_(9);
  EXPECT_EQ(mirror[3].item<int32_t>(), 9);
  // The mapping owns its descriptor and can be shared on (a receiver sending it further).
  EXPECT_TRUE(memory::shared_segment(other).has_value());
}

TEST(SharedMemory, AnEmptyStorageCanBeShared) {
  Tensor t = empty({0});
  memory::share_storage(t.storage(), "test");
  ASSERT_TRUE(memory::shared_segment(t.storage()).has_value());
  EXPECT_EQ(t.numel(), 0);
}

TEST(SharedMemory, MisuseRaisesNamingTheFix) {
  Tensor t = zeros({2});
  memory::share_storage(t.storage(), "test");
  const memory::SharedSegment seg = *memory::shared_segment(t.storage());
  try {
    (void)memory::map_shared_segment(dup(seg.fd), seg.nbytes * 1000, "tide.multiprocessing");
    FAIL() << "a segment shorter than asked for was mapped";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("expected a shared memory segment of at least 8000 bytes, "
                                         "found a file of 8 bytes"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)memory::map_shared_segment(-1, 8, "tide.multiprocessing"), Error);
}

}  // namespace
}  // namespace tide
