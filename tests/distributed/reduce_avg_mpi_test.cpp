// ReduceOp::AVG gives NCCL's bits on the mpi group (Note [AVG as NCCL computes it] in
// src/distributed/mpi/mpi_types.h): floating inputs are multiplied by 1/world_size before
// they are summed, so a float16 sum that would overflow still averages; integer sums are
// divided afterwards, truncating toward zero. The references below compute what NCCL's
// kernels do (FuncPreMulSum, FuncSumPostDiv) in rank order; the values are chosen so that
// the order in which MPI adds them cannot change a bit.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "distributed/dist_helpers.h"
#include "tide/half.h"
#include "tide/tide.h"

namespace tide {
namespace {

using distributed::ReduceOp;

/// NCCL's ncclAvg of one element over the ranks, for float16 and bfloat16: the scalar is 1/n
/// rounded to float then to H; each input times it rounded to H; the products summed in H.
template <class H>
H nccl_avg_16bit(const std::vector<float>& per_rank) {
  const float scale = static_cast<float>(H(static_cast<float>(1.0 / per_rank.size())));
  float sum = 0;
  for (size_t r = 0; r < per_rank.size(); ++r) {
    const H scaled(static_cast<float>(H(per_rank[r])) * scale);
    sum = r == 0 ? static_cast<float>(scaled)
                 : static_cast<float>(H(sum + static_cast<float>(scaled)));
  }
  return H(sum);
}

/// NCCL's ncclAvg of one element over the ranks, for integers: the sum wraps as T does; its
/// magnitude is divided by n and the sign put back.
template <class T>
T nccl_avg_int(const std::vector<T>& per_rank) {
  using U = std::make_unsigned_t<T>;
  U sum = 0;
  for (T v : per_rank) sum = static_cast<U>(sum + static_cast<U>(v));
  const T wrapped = static_cast<T>(sum);
  const bool negative = std::is_signed_v<T> && wrapped < 0;
  const U magnitude = negative ? static_cast<U>(U(0) - sum) : sum;
  const U quotient = static_cast<U>(magnitude / static_cast<U>(per_rank.size()));
  return static_cast<T>(negative ? static_cast<U>(U(0) - quotient) : quotient);
}

uint16_t bits_of(Half h) { return h.x; }
uint16_t bits_of(BFloat16 b) { return b.x; }

class ReduceAvg : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { TIDE_SKIP_WITHOUT(GetParam()); }
  Device device() const { return test::rank_device(GetParam()); }
  int rank() const { return distributed::get_rank(); }
  int world() const { return distributed::get_world_size(); }

  /// The 16-bit patterns of an AVG all-reduce of `value` (the same on every rank) in `dtype`.
  std::vector<uint16_t> avg_bits(Dtype dtype, float value) const {
    Tensor t = full({3}, value, TensorOptions().dtype(dtype).device(device()));
    distributed::all_reduce(t, ReduceOp::AVG);
    Tensor host = t.cpu().contiguous();
    std::vector<uint16_t> bits(3);
    std::memcpy(bits.data(), host.raw_data(), sizeof(uint16_t) * 3);
    return bits;
  }
};

TEST_P(ReduceAvg, AFloat16SumThatOverflowsStillAverages) {
  if (world() < 2) GTEST_SKIP() << "needs two ranks: one rank's sum cannot overflow";
  // 40000 on every rank: the sum (80000 or more) is past float16's 65504, the average is not.
  Tensor summed = full({3}, 40000.0, TensorOptions().dtype(kFloat16).device(device()));
  distributed::all_reduce(summed, ReduceOp::SUM);
  EXPECT_TRUE(std::isinf(summed.to(kFloat32).cpu().tolist<float>()[0])) << "no overflow to avoid";
  const std::vector<float> per_rank(world(), 40000.0f);
  const uint16_t want = bits_of(nccl_avg_16bit<Half>(per_rank));
  EXPECT_EQ(static_cast<float>(Half(want, Half::from_bits_t{})), 40000.0f);
  EXPECT_EQ(avg_bits(kFloat16, 40000.0f), std::vector<uint16_t>(3, want));
}

TEST_P(ReduceAvg, ABFloat16SumThatOverflowsStillAverages) {
  const float big = 3.0e38f;  // bfloat16's largest finite value is about 3.39e38
  const std::vector<float> per_rank(world(), big);
  const BFloat16 want = nccl_avg_16bit<BFloat16>(per_rank);
  EXPECT_FALSE(std::isinf(static_cast<float>(want)));
  EXPECT_EQ(avg_bits(kBFloat16, big), std::vector<uint16_t>(3, bits_of(want)));
}

TEST_P(ReduceAvg, Float16RoundsWhereNcclDoesBeforeTheSum) {
  // The smallest subnormal: scaled by 1/2 (or 1/4) first it rounds to 0 on every rank, so
  // NCCL's average is 0, where dividing the sum afterwards would give the value back.
  const float tiny = static_cast<float>(Half(uint16_t{1}, Half::from_bits_t{}));
  const std::vector<float> per_rank(world(), tiny);
  const uint16_t want = bits_of(nccl_avg_16bit<Half>(per_rank));
  if (world() > 1) {
    EXPECT_EQ(want, 0u);
  }
  EXPECT_EQ(avg_bits(kFloat16, tiny), std::vector<uint16_t>(3, want));
}

TEST_P(ReduceAvg, IntegersSumThenDivideTruncatingTowardZero) {
  const int w = world();
  // Negative sums show truncation toward zero (floor would differ when w does not divide).
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  for (int r = 0; r < w; ++r) {
    i32.push_back(-7 - 3 * r);
    i64.push_back((int64_t{1} << 40) + 5 * r + 1);
  }
  Tensor a = full({2}, i32[rank()], TensorOptions().dtype(kInt32).device(device()));
  Tensor b = full({2}, -i64[rank()], TensorOptions().dtype(kInt64).device(device()));
  distributed::all_reduce(a, ReduceOp::AVG);
  distributed::all_reduce(b, ReduceOp::AVG);
  std::vector<int64_t> negated;
  for (int64_t v : i64) negated.push_back(-v);
  EXPECT_EQ(a.cpu().tolist<int32_t>(), std::vector<int32_t>(2, nccl_avg_int(i32)));
  EXPECT_EQ(b.cpu().tolist<int64_t>(), std::vector<int64_t>(2, nccl_avg_int(negated)));
  if (w == 2) {
    EXPECT_EQ(nccl_avg_int(i32), -8);  // -17 / 2, not floor's -9
  }
}

TEST_P(ReduceAvg, UInt8SumsWrapBeforeTheDivisionAsNcclsDo) {
  std::vector<uint8_t> per_rank;
  for (int r = 0; r < world(); ++r) per_rank.push_back(static_cast<uint8_t>(150 + r));
  Tensor t = full({2}, per_rank[rank()], TensorOptions().dtype(kUInt8).device(device()));
  distributed::all_reduce(t, ReduceOp::AVG);
  const uint8_t want = nccl_avg_int(per_rank);
  EXPECT_EQ(t.to(kInt32).cpu().tolist<int32_t>(), std::vector<int32_t>(2, want));
}

TEST_P(ReduceAvg, ReduceScatterAveragesAsAllReduceDoes) {
  const int w = world();
  std::vector<Tensor> halves, ints;
  for (int j = 0; j < w; ++j) {
    halves.push_back(full({2}, 40000.0, TensorOptions().dtype(kFloat16).device(device())));
    ints.push_back(full({2}, -7 - 3 * rank() - 10 * j, TensorOptions().dtype(kInt32).device(device())));
  }
  Tensor half_out = empty({2}, TensorOptions().dtype(kFloat16).device(device()));
  Tensor int_out = empty({2}, TensorOptions().dtype(kInt32).device(device()));
  distributed::reduce_scatter(half_out, halves, ReduceOp::AVG);
  distributed::reduce_scatter(int_out, ints, ReduceOp::AVG);
  EXPECT_EQ(half_out.to(kFloat32).cpu().tolist<float>(), std::vector<float>(2, 40000.0f));
  std::vector<int32_t> mine;  // what every rank put in inputs[rank()]
  for (int r = 0; r < w; ++r) mine.push_back(-7 - 3 * r - 10 * rank());
  EXPECT_EQ(int_out.cpu().tolist<int32_t>(), std::vector<int32_t>(2, nccl_avg_int(mine)));
}

INSTANTIATE_TEST_SUITE_P(Devices, ReduceAvg, ::testing::Values("cpu", "cuda"), test::device_name);

}  // namespace
}  // namespace tide
