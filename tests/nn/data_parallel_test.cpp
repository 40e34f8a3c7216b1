// nn::DataParallel without devices: the wrapped module is the child "module" (torch's
// state_dict keys), and without cuda a DataParallel calls the module, as torch's does.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <class Named>
std::vector<std::string> names_of(const Named& named) {
  std::vector<std::string> out;
  for (const auto& [name, value] : named) out.push_back(name);
  return out;
}

nn::Sequential small_net() {
  manual_seed(1);
  return nn::Sequential(nn::Linear(3, 4), nn::ReLU(), nn::Linear(4, 2));
}

TEST(DataParallel, TheWrappedModuleIsTheChildModuleAsInTorch) {
  nn::Sequential net = small_net();
  nn::DataParallel model(net, {}, -1);
  EXPECT_EQ(&model.module(), static_cast<nn::Module*>(&net));
  EXPECT_THAT(names_of(model.named_children()), ElementsAre("module"));
  EXPECT_THAT(names_of(model.named_parameters()),
              ElementsAre("module.0.weight", "module.0.bias", "module.2.weight", "module.2.bias"));
  std::vector<std::string> keys;
  for (const auto& [key, t] : model.state_dict()) keys.push_back(key);
  EXPECT_THAT(keys, ElementsAre("module.0.bias", "module.0.weight", "module.2.bias",
                                "module.2.weight"));
  // The parameters are the module's own tensors, for an optimizer built on either.
  const auto mine = net.parameters();
  const auto theirs = model.parameters();
  ASSERT_EQ(mine.size(), theirs.size());
  for (size_t i = 0; i < mine.size(); ++i) EXPECT_TRUE(mine[i].is_same(theirs[i]));
  // A state_dict saved from the DataParallel loads back through it.
  model.load_state_dict(model.state_dict());
  model.eval();
  EXPECT_FALSE(net.is_training());
}

TEST(DataParallel, WithoutCudaItCallsTheModuleAsTorchDoes) {
  if (cuda::device_count() > 0) GTEST_SKIP() << "this process has cuda devices";
  nn::Sequential net = small_net();
  nn::DataParallel model(net);
  EXPECT_TRUE(model.device_ids().empty());
  EXPECT_EQ(model.output_device(), -1);
  const Tensor x = randn({5, 3}).requires_grad_();
  const Tensor out = model(x);
  EXPECT_TRUE(out.is_cpu());
  EXPECT_EQ(out.tolist<float>(), net(x).tolist<float>());
  out.sum().backward();
  EXPECT_TRUE(net.parameters()[0].grad().defined());
}

TEST(DataParallel, WithoutCudaExplicitDeviceIdsAreRejected) {
  if (cuda::device_count() > 0) GTEST_SKIP() << "this process has cuda devices";
  nn::Sequential net = small_net();
  EXPECT_THAT(error_of([&] { nn::DataParallel(net, {0}); }),
              HasSubstr("[DataParallel] device_ids {0} holds 0, which is not a cuda device: this "
                        "process has no cuda device"));
}

}  // namespace
}  // namespace tide
