// Comparison operators: bool tensors as torch, in every form C++20 may rewrite (Note
// [Comparison operators and C++20]). The same on simulated GPUs: tests/device/tensor_compare_test.cpp.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <type_traits>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::error_of;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Every form yields a Tensor: a rewritten candidate (which must return bool) is never chosen.
template <class A, class B>
constexpr bool all_comparisons_give_tensors() {
  using std::declval;
  return std::is_same_v<decltype(declval<A>() == declval<B>()), Tensor> &&
         std::is_same_v<decltype(declval<A>() != declval<B>()), Tensor> &&
         std::is_same_v<decltype(declval<A>() < declval<B>()), Tensor> &&
         std::is_same_v<decltype(declval<A>() <= declval<B>()), Tensor> &&
         std::is_same_v<decltype(declval<A>() > declval<B>()), Tensor> &&
         std::is_same_v<decltype(declval<A>() >= declval<B>()), Tensor>;
}
static_assert(all_comparisons_give_tensors<const Tensor&, const Tensor&>());
static_assert(all_comparisons_give_tensors<Tensor&, Tensor>());
static_assert(all_comparisons_give_tensors<const Tensor&, double>());
static_assert(all_comparisons_give_tensors<double, const Tensor&>());
static_assert(all_comparisons_give_tensors<const Tensor&, int>());
static_assert(all_comparisons_give_tensors<int64_t, Tensor&>());
static_assert(all_comparisons_give_tensors<const Tensor&, bool>());
static_assert(all_comparisons_give_tensors<const Tensor&, Scalar>());
static_assert(all_comparisons_give_tensors<Scalar, const Tensor&>());
static_assert(std::is_same_v<decltype(~std::declval<Tensor>()), Tensor>);

namespace {
std::vector<bool> bools(const Tensor& t) {
  EXPECT_EQ(t.dtype(), kBool);
  return t.tolist<bool>();
}
}  // namespace

TEST(TensorCompare, TensorAgainstTensor) {
  Tensor a = tensor({1., 2., 3.});
  Tensor b = tensor({3., 2., 1.});
  EXPECT_THAT(bools(a == b), ElementsAre(false, true, false));
  EXPECT_THAT(bools(a != b), ElementsAre(true, false, true));
  EXPECT_THAT(bools(a < b), ElementsAre(true, false, false));
  EXPECT_THAT(bools(a <= b), ElementsAre(true, true, false));
  EXPECT_THAT(bools(a > b), ElementsAre(false, false, true));
  EXPECT_THAT(bools(a >= b), ElementsAre(false, true, true));
}

TEST(TensorCompare, TensorAgainstScalar) {
  Tensor a = tensor({0.5, 1., 2.});
  EXPECT_THAT(bools(a == 0.5), ElementsAre(true, false, false));
  EXPECT_THAT(bools(a != 0.5), ElementsAre(false, true, true));
  EXPECT_THAT(bools(a < 1), ElementsAre(true, false, false));
  EXPECT_THAT(bools(a <= 1), ElementsAre(true, true, false));
  EXPECT_THAT(bools(a > 1), ElementsAre(false, false, true));
  EXPECT_THAT(bools(a >= 1), ElementsAre(false, true, true));
}

TEST(TensorCompare, ScalarFirstFlipsTheComparison) {
  Tensor a = tensor({1, 2, 3});
  EXPECT_THAT(bools(2 == a), ElementsAre(false, true, false));
  EXPECT_THAT(bools(2 != a), ElementsAre(true, false, true));
  EXPECT_THAT(bools(2 < a), ElementsAre(false, false, true));
  EXPECT_THAT(bools(2 <= a), ElementsAre(false, true, true));
  EXPECT_THAT(bools(2 > a), ElementsAre(true, false, false));
  EXPECT_THAT(bools(2 >= a), ElementsAre(true, true, false));
  EXPECT_THAT(bools(0.5 == tensor({0.5, 1.})), ElementsAre(true, false));
}

TEST(TensorCompare, PromotesAndBroadcastsAsTorch) {
  Tensor ints = tensor({2, 3});
  EXPECT_THAT(bools(ints == 2.5), ElementsAre(false, false));  // compared as floats, not 2
  EXPECT_THAT(bools(ints < 2.5), ElementsAre(true, false));
  Tensor col = tensor({{1}, {2}});
  Tensor row = tensor({1, 2, 3});
  Tensor grid = col < row;
  EXPECT_THAT(grid.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(bools(grid), ElementsAre(false, true, true, false, false, true));
  EXPECT_THAT(bools(tensor({true, false}) == true), ElementsAre(true, false));
}

TEST(TensorCompare, ResultsComposeAsMasks) {
  Tensor a = tensor({-1., 0.5, 2.});
  Tensor inside = where(a > 0, a, tensor({0.}));
  EXPECT_THAT(inside.tolist<float>(), ElementsAre(0, 0.5f, 2));
  EXPECT_EQ((a > 0).sum().item<int64_t>(), 2);
}

TEST(TensorCompare, TildeIsLogicalNotOnBool) {
  Tensor m = tensor({1, 2, 3}) > 1;
  EXPECT_THAT(bools(~m), ElementsAre(true, false, false));
  EXPECT_THAT(bools(~~m), ElementsAre(false, true, true));
}

TEST(TensorCompare, TildeOnNonBoolSaysWhatToDo) {
  std::string msg = error_of([] { ~tensor({1, 2}); });
  EXPECT_THAT(msg, HasSubstr("[operator~] expected a bool tensor"));
  EXPECT_THAT(msg, HasSubstr("but got int64"));
  EXPECT_THAT(error_of([] { ~Tensor(); }), HasSubstr("[operator~] expected a defined tensor"));
}

TEST(TensorCompare, UndefinedOperandsAreErrors) {
  EXPECT_THAT(error_of([] { (void)(Tensor() == 1); }), HasSubstr("eq"));
  EXPECT_THAT(error_of([] { (void)(1 < Tensor()); }), HasSubstr("gt"));
}
