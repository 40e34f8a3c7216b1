// add_param_group on a device when making the new group's state runs out of memory: Adagrad
// makes each parameter's running sum as it joins (torch's behaviour), so its add_param_group
// allocates, and an OutOfMemoryError there must leave the optimizer exactly as it was (the
// declaration's "raises changing nothing"): no half-added group, and the same parameters can
// join once memory is back.

#include <gtest/gtest.h>

#include <vector>

#include "device_helpers.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/optim.h"

using namespace tide;
using test::cuda_device;

TEST(OptimizerGroupsDevice, AdagradsAddParamGroupThatRunsOutOfMemoryChangesNothing) {
  TIDE_REQUIRE_DEVICES(1);
  const int d = cuda::device_count() - 1;
  const Device gpu = cuda_device(d);
  Tensor w = ones({4}, TensorOptions(gpu)).requires_grad_();
  optim::Adagrad opt({w}, optim::AdagradOptions(0.1));
  std::vector<Tensor> joining = {full({3}, 2.0, TensorOptions(gpu)).requires_grad_(),
                                 full({5}, 3.0, TensorOptions(gpu)).requires_grad_()};

  // The second parameter's sum is the one that fails: the first one's was already made.
  cuda::synchronize(d);
  cuda::inject_oom_at(2, d);
  EXPECT_THROW(opt.add_param_group(joining, optim::AdagradOptions(0.5)), OutOfMemoryError);
  cuda::inject_oom_at(0, d);
  EXPECT_EQ(opt.num_param_groups(), 1u);
  EXPECT_EQ(opt.parameters().size(), 1u);
  EXPECT_EQ(opt.param_state(0).size(), 2u);  // w's state is intact: step and sum

  // Memory back: the same tensors join (none is "already in a group") and every group steps.
  opt.add_param_group(joining, optim::AdagradOptions(0.5));
  ASSERT_EQ(opt.num_param_groups(), 2u);
  EXPECT_EQ(opt.options(1).lr(), 0.5);
  for (const Tensor& p : opt.parameters()) p.mutable_grad() = ones_like(p);
  opt.step();
  // Adagrad's first step with a zero initial sum moves each parameter by lr.
  EXPECT_FLOAT_EQ(w.cpu().data_ptr<float>()[0], 1.0f - 0.1f);
  EXPECT_FLOAT_EQ(joining[0].cpu().data_ptr<float>()[0], 2.0f - 0.5f);
  EXPECT_FLOAT_EQ(joining[1].cpu().data_ptr<float>()[4], 3.0f - 0.5f);
}
