// The demo steps of the seeds' training advice (Note [Demo steps] in demo.cpp): the tutorial's
// sections 1-5, BatchNorm's buffers, and the note's best practices for data and several GPUs.

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "demo_step.h"
#include "tide/tide.h"

namespace tide::cli {
namespace {

void module_cuda_moves_in_place(DemoContext& c) {
  Tensor t = tensor({1, 2, 3});
  Tensor t_cuda = t.cuda();
  code(c, "t = tide::tensor({1, 2, 3});  t_cuda = t.cuda();  // a copy: t stays on the cpu");
  c.out << "    t.is_cuda() -> " << (t.is_cuda() ? "true" : "false") << ", t_cuda.is_cuda() -> "
        << (t_cuda.is_cuda() ? "true" : "false") << "\n";
  nn::Linear module(3, 4);
  Tensor weight_before = module.weight;
  module.cuda(0);
  code(c, "nn::Linear module(3, 4);  module.cuda(0);  // in place, returns *this");
  c.out << "    module.weight.is_cuda() -> " << (module.weight.is_cuda() ? "true" : "false")
        << "  (and a handle taken before the move sees it too: "
        << (weight_before.is_cuda() ? "true" : "false") << ")\n";
  expect(!t.is_cuda() && t_cuda.is_cuda(), "tensor.cuda() to return a cuda copy, t unchanged");
  expect(module.weight.is_cuda() && module.bias.is_cuda() && weight_before.is_cuda(),
         "module.cuda() to move its parameters in place");
}

void batch_norm_buffers_move_and_eval_uses_them(DemoContext& c) {
  nn::BatchNorm2d bn(2);
  Tensor mean_handle = bn.running_mean;
  bn.to(c.device);
  code(c, "nn::BatchNorm2d bn(2);  bn.to(device);  // parameters and buffers, in place");
  for (const auto& [name, buffer] : bn.named_buffers()) {
    c.out << "    buffer '" << name << "' on " << buffer.device() << "\n";
  }
  manual_seed(0);
  Tensor x = (randn({4, 2, 3, 3}) * 2 + 5).to(c.device);
  Tensor y_train = bn(x);
  code(c, "x = (tide::randn({4, 2, 3, 3}) * 2 + 5).to(device);  y = bn(x);  // train(): "
          "the batch's statistics");
  show(c, "bn.running_mean  // 0.9 * 0 + 0.1 * the batch's mean", bn.running_mean);
  c.out << "    bn.num_batches_tracked -> " << bn.num_batches_tracked.item<int64_t>() << "\n";
  bn.eval();
  Tensor y_eval = bn(x);
  code(c, "bn.eval();  y = bn(x);  // the running statistics, not the batch's");
  const Tensor by_hand = (x - bn.running_mean.view({1, 2, 1, 1})) /
                         (bn.running_var.view({1, 2, 1, 1}) + bn.eps).sqrt();
  // Normalized by its own statistics, the batch's mean is 0 up to rounding, whose sign depends
  // on the summation order: shown as 0.0000 rather than -0.0000.
  float train_mean = y_train.mean().item<float>();
  if (std::abs(train_mean) < 5e-5f) train_mean = 0.0f;
  const float eval_mean = y_eval.mean().item<float>();
  c.out << fmt::format("    y.mean(): {:.4f} in train(), {:.4f} in eval()\n", train_mean,
                       eval_mean);
  const Device where = bn.weight.device();  // device's index resolved (cuda -> cuda:0)
  expect(where.is_cuda() == c.device.is_cuda() && mean_handle.device() == where &&
             bn.running_var.device() == where && bn.num_batches_tracked.device() == where,
         "bn.to(device) to move the buffers in place");
  expect(bn.num_batches_tracked.item<int64_t>() == 1, "a training forward to count its batch");
  const float off = (y_eval - by_hand).abs().max().item<float>();
  expect(off < 1e-5f,
         "eval() to normalize by running_mean and running_var");
  expect(std::abs(train_mean) < 1e-4f && eval_mean > 1.0f,
         "train() to center the batch, eval() only by the running mean (0.1 of the batch's)");
}

void criterion_cuda_moves_its_weight(DemoContext& c) {
  nn::CrossEntropyLoss criterion(tensor({1., 3.}));
  code(c, "nn::CrossEntropyLoss criterion(tide::tensor({1., 3.}));  // class weights: a buffer");
  Tensor inputs = randn({4, 2}).cuda();
  Tensor target = tensor({1, 0, 0, 1}).to(kInt64).cuda();
  code(c, "inputs = tide::randn({4, 2}).cuda();  target = tide::tensor({1, 0, 0, 1}).cuda();");
  bool raised = false;
  try {
    (void)criterion(inputs, target);
  } catch (const Error& e) {
    raised = true;
    c.out << "    criterion(inputs, target) before criterion.cuda() throws tide::Error:\n"
          << indented(e.what(), "      ") << "\n";
  }
  criterion.cuda();
  Tensor loss = criterion(inputs, target);
  code(c, "criterion.cuda();  loss = criterion(inputs, target);");
  for (const auto& [name, buffer] : criterion.named_buffers()) {
    c.out << "    criterion buffer '" << name << "': " << buffer.str() << "\n";
  }
  expect(raised, "the loss with its weight still on the cpu to raise");
  expect(criterion.weight.is_cuda() && loss.is_cuda(), "criterion.cuda() to move its weight");
}

void set_device_and_default_device(DemoContext& c) {
  cuda::set_device(1);
  code(c, "tide::cuda::set_device(1);  // every later .cuda() goes to cuda:1");
  Tensor a = tensor({1., 2.}).cuda();
  print_device(c, "tide::tensor({1., 2.}).cuda()", a);
  cuda::set_device(0);
  code(c, "tide::cuda::set_device(0);");
  set_default_device(Device("cuda:1"));
  code(c, "tide::set_default_device(\"cuda:1\");  // set_default_tensor_type('torch.cuda.FloatTensor')");
  Tensor b = ones({2, 3});
  c.out << "    tide::ones({2, 3}).is_cuda() -> " << (b.is_cuda() ? "true" : "false") << " ("
        << b.device() << ")\n";
  set_default_device(Device("cpu"));
  code(c, "tide::set_default_device(\"cpu\");  // back to the default");
  Tensor d = ones({2, 3});
  expect(a.device() == Device("cuda:1"), "after set_device(1), .cuda() to go to cuda:1");
  expect(b.device() == Device("cuda:1"), "factories to follow set_default_device");
  expect(d.is_cpu(), "factories on cpu again after set_default_device(cpu)");
}


void pinned_data_loader_batches(DemoContext& c) {
  auto dataset = std::make_shared<data::TensorDataset>(arange(12, dtype(kFloat32)).view({6, 2}),
                                                       arange(6, dtype(kInt64)));
  data::DataLoader loader(dataset, data::DataLoaderOptions().batch_size(4).pin_memory(true));
  code(c, "data::DataLoader loader(dataset, data::DataLoaderOptions().batch_size(4)"
          ".pin_memory(true));  // 6 samples");
  code(c, "for (const data::Example& batch : loader) {");
  code(c, "  x = batch.data.cuda(0, /*non_blocking=*/true);  y = batch.target.cuda(0, true);");
  int64_t seen = 0;
  bool all_pinned = true;
  for (const data::Example& batch : loader) {
    Tensor x = batch.data.cuda(0, /*non_blocking=*/true);
    Tensor y = batch.target.cuda(0, /*non_blocking=*/true);
    c.out << "      batch of " << batch.data.size(0) << ": batch.data.is_pinned() -> "
          << (batch.data.is_pinned() ? "true" : "false") << ", x on " << x.device()
          << ", x.sum() = " << x.sum().item<float>() << "\n";
    all_pinned = all_pinned && batch.data.is_pinned() && batch.target.is_pinned();
    seen += y.size(0);
  }
  code(c, "}");
  expect(all_pinned, "every batch in pinned memory");
  expect(seen == 6 && loader.size() == 2, "two batches covering the 6 samples");
}

void data_parallel_on_the_devices_present(DemoContext& c) {
  nn::Sequential net(nn::Linear(4, 8), nn::ReLU(), nn::Linear(8, 2));
  net.cuda(0);
  code(c, "nn::Sequential net(nn::Linear(4, 8), nn::ReLU(), nn::Linear(8, 2));  net.cuda(0);");
  nn::DataParallel model(net);
  code(c, "nn::DataParallel model(net);  // every cuda device present: " +
              std::to_string(c.cuda_devices));
  Tensor input = randn({6, 4}).cuda(0);
  Tensor output = model(input);
  code(c, "output = model(tide::randn({6, 4}).cuda(0));  // 6 rows split over the devices");
  c.out << "    output.device is: " << output.device() << ", output.sizes() = ["
        << output.size(0) << ", " << output.size(1) << "]\n";
  output.sum().backward();
  code(c, "output.sum().backward();  // through gather, the replicas and scatter");
  Tensor grad = net.at<nn::Linear>(0).weight.grad();
  c.out << "    net[0].weight.grad() on " << grad.device() << ", the module's own parameter\n";
  Tensor alone = net(input);
  const float diff = (alone - output).abs().max().item<float>();
  expect(output.device() == Device("cuda:0") && output.size(0) == 6,
         "the output gathered on cuda:0 with all 6 rows");
  expect(grad.defined() && grad.device() == Device("cuda:0"),
         "backward to reach the wrapped module's parameters");
  expect(diff < 1e-5f, "DataParallel to compute what the module computes alone");
}

}  // namespace

std::vector<DemoStep> training_demo_steps() {
  return {
      {"Tensor.cuda() returns a copy; module.cuda() moves the module in place",
       "t_cuda = t.cuda(); print(t.is_cuda, t_cuda.is_cuda)  # False True; "
       "module = nn.Linear(3, 4); module.cuda(device=0); print(module.weight.is_cuda)  # True",
       1, true, module_cuda_moves_in_place},
      {"BatchNorm's running statistics are buffers: they move with the module, and eval() "
       "normalizes by them",
       "model.to(device)  # parameters and buffers; model.train() / model.eval() (Dropout, "
       "BatchNorm): in eval BatchNorm uses running_mean and running_var",
       0, false, batch_norm_buffers_move_and_eval_uses_them},
      {"criterion.cuda() moves the loss's class weights",
       "criterion = torch.nn.CrossEntropyLoss(weight=torch.Tensor([1, 3])); ... "
       "criterion.cuda(); loss = criterion(inputs, target); print(criterion._buffers)",
       1, true, criterion_cuda_moves_its_weight},
      {"set_device and set_default_device choose where new tensors go",
       "torch.cuda.set_device(1); torch.set_default_tensor_type('torch.cuda.FloatTensor'); "
       "a = torch.ones(2, 3); print(a.is_cuda)  # True",
       2, true, set_device_and_default_device},
      {"A DataLoader with pin_memory: batches copied with non_blocking",
       "You can make the DataLoader return batches placed in pinned memory by passing "
       "pin_memory=True to its constructor ... pass an additional non_blocking=True argument to "
       "a cuda() call",
       1, true, pinned_data_loader_batches},
      {"nn::DataParallel over the devices present",
       "Most use cases involving batched inputs and multiple GPUs should default to using "
       "DataParallel to utilize more than one GPU",
       1, true, data_parallel_on_the_devices_present},
  };
}

}  // namespace tide::cli
