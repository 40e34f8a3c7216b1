// Device error records (Note [Device error records]): the host-side decoding a real GPU's
// synchronizing calls use, checked without a GPU.

#include "backends/cuda/error_record.h"

#include <gtest/gtest.h>

#include <string>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using namespace tide::backends::cuda;
using kernels::IndexErrorKind;

TEST(ErrorRecord, AnEmptyRecordDecodesToNothing) {
  EXPECT_FALSE(decode_error_record(empty_error_record()).has_value());
  EXPECT_EQ(empty_error_record().position, INT64_MAX);  // any real position is smaller
}

TEST(ErrorRecord, TokensRoundTripStreamAndSequence) {
  for (uint64_t stream : {0ull, 1ull, 33ull, 64ull, (1ull << 23) - 1}) {
    for (uint64_t seq : {1ull, 2ull, 1000000ull, (1ull << kTokenSeqBits) - 1}) {
      const uint64_t token = launch_token(stream, seq);
      EXPECT_NE(token, 0u);
      EXPECT_EQ(token_stream_id(token), stream);
      EXPECT_EQ(token_seq(token), seq);
    }
  }
  // Distinct launches get distinct tokens, also across streams with equal sequence numbers.
  EXPECT_NE(launch_token(1, 7), launch_token(2, 7));
  EXPECT_NE(launch_token(1, 7), launch_token(1, 8));
}

TEST(ErrorRecord, EveryStreamIdTheRuntimeHandsOutFitsAToken) {
  // Default stream 0, 32 normal pool streams 1..32, 32 high-priority ones 33..64.
  for (uint64_t id = 0; id <= 64; ++id) EXPECT_EQ(token_stream_id(launch_token(id, 5)), id);
}

TEST(ErrorRecord, IndexSelectRecordsReadAsTheCpuError) {
  DeviceErrorRecord r = empty_error_record();
  r.token = launch_token(3, 42);
  r.kind = static_cast<int32_t>(IndexErrorKind::IndexSelect);
  r.position = 1;
  r.value = 7;
  r.bound = 4;
  r.aux = 0;  // dim
  const auto decoded = decode_error_record(r);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->stream_id, 3u);
  EXPECT_EQ(decoded->seq, 42u);
  // The same words the cpu kernel raises for the same bad index.
  const Tensor x = arange(8, TensorOptions().dtype(kFloat32)).reshape({4, 2});
  const Tensor idx = tensor({0, 7});
  const std::string cpu = test::error_of([&] { (void)index_select(x, 0, idx); });
  EXPECT_EQ(decoded->message, cpu);
  EXPECT_NE(cpu.find("index 7 (at position 1 of index)"), std::string::npos) << cpu;
}

TEST(ErrorRecord, NllLossRecordsCarryTheIgnoreIndex) {
  DeviceErrorRecord r = empty_error_record();
  r.token = launch_token(0, 1);
  r.kind = static_cast<int32_t>(IndexErrorKind::NllLossTarget);
  r.position = 2;
  r.value = -3;
  r.bound = 5;
  r.aux = -100;
  const auto decoded = decode_error_record(r);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->message,
            "[nll_loss] Target -3 is out of bounds. Class indices must lie in [0, 5) for 5 "
            "classes (or equal ignore_index -100); found at position 2 of target");
}

TEST(ErrorRecord, ATakenRecordIsEmptyButRemembersItsLaunch) {
  // Note [Device error records]: a take leaves a tombstone so late threads of the reported
  // launch do not report it again, and the host does not decode it a second time.
  const uint64_t token = launch_token(2, 9);
  DeviceErrorRecord r = empty_error_record();
  r.token = token | kTakenBit;
  r.position = 0;
  EXPECT_TRUE(token_is_empty(r.token));
  EXPECT_FALSE(decode_error_record(r).has_value());
  EXPECT_EQ(token_stream_id(r.token), 2u);
  EXPECT_EQ(token_seq(r.token & ~kTakenBit), 9u);
  EXPECT_FALSE(token_is_empty(token));
}
