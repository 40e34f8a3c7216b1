// autograd::replace_tensor (Note [Replica parameters]): every handle to a tensor becomes another
// tensor, history included, so a module's parameter can be a differentiable copy of another.

#include <gtest/gtest.h>

#include "autograd/replace_tensor.h"
#include "tide/tide.h"

namespace tide {
namespace {

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

TEST(ReplaceTensor, EveryHandleSeesTheSourcesDataAndHistory) {
  const Tensor original = tensor({1., 2., 3.}).requires_grad_();
  const Tensor replica = zeros({2});  // a leaf handle, as a module member and its registry hold
  const Tensor member = replica;
  autograd::replace_tensor(replica, original * 2);
  EXPECT_EQ(values(member), (std::vector<double>{2, 4, 6}));
  EXPECT_FALSE(member.is_leaf());
  EXPECT_TRUE(member.requires_grad());
  // Its gradient reaches the tensor it was computed from.
  (member * member).sum().backward();
  EXPECT_EQ(values(original.grad()), (std::vector<double>{8, 16, 24}));
}

TEST(ReplaceTensor, APlainSourceLeavesTheTargetPlainAndDropsItsGrad) {
  const Tensor target = ones({2}).requires_grad_();
  (target * 3).sum().backward();
  ASSERT_TRUE(target.grad().defined());
  autograd::replace_tensor(target, full({4}, 5.0));
  EXPECT_FALSE(target.requires_grad());
  EXPECT_FALSE(target.grad().defined());
  EXPECT_EQ(values(target), (std::vector<double>{5, 5, 5, 5}));
}

TEST(ReplaceTensor, ABackwardSavedBeforeAReplacementKeepsItsValues) {
  const Tensor original = tensor({1., 2.}).requires_grad_();
  const Tensor replica = zeros({2});
  autograd::replace_tensor(replica, original * 1);
  const Tensor loss = (replica * replica).sum();  // saves replica's data: {1, 2}
  autograd::replace_tensor(replica, zeros({2}));
  loss.backward();
  EXPECT_EQ(values(original.grad()), (std::vector<double>{2, 4}));
}

}  // namespace
}  // namespace tide
