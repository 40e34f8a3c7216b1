// Note [Demo steps]: the demo is a table of steps that follows the seeds (PyTorch's "CUDA
// semantics" note and its translations) in their order. Each step quotes the seed lines it
// walks through, names how many cuda devices it needs and whether it puts tensors on them,
// prints the C++ it runs with what the seed prints or states in comments (`c.device is:
// cuda:1`, tensors in torch's current repr), and checks the seed's claim, failing loudly if
// tide disagrees. A step runs when what it needs exists and is listed as skipped with the
// reason otherwise. Steps that need no device run on cpu; their GPU lines (the seed's x_gpu)
// run when args.device is cuda and say why not otherwise. Values are deterministic:
// manual_seed(0) at the start, and random tensors are only compared, never printed.

#include "demo.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "demo_step.h"
#include "devices.h"
#include "runtime/registry.h"
#include "tide/testing/sim_hooks.h"
#include "tide/tide.h"

namespace tide::cli {
namespace {

// ---- "CUDA semantics": devices, tensors on them, transfers

void devices_are_values(DemoContext& c) {
  Device cuda("cuda"), cuda0("cuda:0"), cuda2("cuda:2");
  c.out << "    tide::Device cuda(\"cuda\")    -> " << cuda
        << "  (no index: the current device when used)\n"
        << "    tide::Device cuda0(\"cuda:0\") -> " << cuda0 << "\n"
        << "    tide::Device cuda2(\"cuda:2\") -> " << cuda2
        << "  (a well-formed index; whether it exists is checked when it is used)\n"
        << "    cuda == cuda0 -> " << (cuda == cuda0 ? "true" : "false") << "  (as in torch)\n";
  expect(cuda != cuda0, "\"cuda\" != \"cuda:0\"");
  expect(cuda2.index() == 2, "cuda:2 to have index 2");
}

void tensors_stay_where_allocated(DemoContext& c) {
  Device cuda0("cuda:0");
  Tensor x = tensor({1., 2.}, tide::device(cuda0));
  code(c, "x = tide::tensor({1., 2.}, tide::device(cuda0));");
  print_device(c, "x", x);
  Tensor y = tensor({1., 2.}).cuda();
  code(c, "y = tide::tensor({1., 2.}).cuda();");
  print_device(c, "y", y);
  expect(x.device() == cuda0 && y.device() == cuda0, "x and y on cuda:0");
}

void inside_a_device_context(DemoContext& c) {
  Device cuda("cuda"), cuda0("cuda:0"), cuda1("cuda:1");
  Tensor x = tensor({1., 2.}, tide::device(cuda0));
  Tensor y = tensor({1., 2.}).cuda();
  code(c, "// x and y on cuda:0 as in the step before");
  code(c, "{");
  code(c, "  tide::cuda::DeviceGuard guard(1);  // with torch.cuda.device(1):");
  cuda::DeviceGuard guard(1);
  Tensor a = tensor({1., 2.}, tide::device(cuda));
  code(c, "  a = tide::tensor({1., 2.}, tide::device(cuda));  // allocates a tensor on GPU 1");
  print_device(c, "  a", a);
  Tensor b = tensor({1., 2.}).cuda();
  code(c, "  b = tide::tensor({1., 2.}).cuda();  // transfers a tensor from CPU to GPU 1");
  print_device(c, "  b", b);
  Tensor b2 = tensor({1., 2.}).to(cuda);
  code(c, "  b2 = tide::tensor({1., 2.}).to(cuda);");
  print_device(c, "  b2", b2);
  Tensor sum_ab = a + b;
  code(c, "  c = a + b;");
  print_device(c, "  c", sum_ab);
  c.out << indented(sum_ab.str(), "        ") << "\n";
  Tensor z = x + y;
  code(c, "  z = x + y;");
  print_device(c, "  z", z);
  c.out << indented(z.str(), "        ") << "\n";
  code(c, "}");
  expect(a.device() == cuda1 && b.device() == cuda1 && b2.device() == cuda1, "a, b, b2 on cuda:1");
  expect(sum_ab.device() == cuda1, "c = a + b on cuda:1");
  expect(z.device() == cuda0, "z = x + y on cuda:0, the operands' device");
  expect(sum_ab.tolist<float>() == std::vector<float>{2.f, 4.f} &&
             z.tolist<float>() == std::vector<float>{2.f, 4.f},
         "c and z == [2., 4.]");
}

void device_named_explicitly(DemoContext& c) {
  Device cuda2("cuda:2");
  Tensor d, e, e_cpu, f, f_cpu;
  code(c, "{");
  {
    code(c, "  tide::cuda::DeviceGuard guard(1);  // even within a context, name the device");
    cuda::DeviceGuard guard(1);
    d = randn({2}, tide::device(cuda2));
    code(c, "  d = tide::randn({2}, tide::device(cuda2));");
    print_device(c, "  d", d);
    e_cpu = randn({2});
    e = e_cpu.to(cuda2);
    code(c, "  e = tide::randn({2}).to(cuda2);");
    print_device(c, "  e", e);
    f_cpu = randn({2});
    f = f_cpu.cuda(cuda2);
    code(c, "  f = tide::randn({2}).cuda(cuda2);  // or .cuda(2)");
    print_device(c, "  f", f);
  }
  code(c, "}");
  const bool copied = same_values(e, e_cpu) && same_values(f, f_cpu);
  c.out << "    e and f hold the values of the cpu tensors they were copied from: "
        << (copied ? "true" : "false") << "\n";
  expect(d.device() == cuda2 && e.device() == cuda2 && f.device() == cuda2, "d, e, f on cuda:2");
  expect(copied, "e and f to equal their cpu sources");
  expect(cuda::current_device() == 0, "device 0 to be current again after the guard");
}

void cross_device_ops_raise(DemoContext& c) {
  Tensor x = tensor({1., 2.}, tide::device("cuda:0"));
  Tensor a = tensor({1., 2.}, tide::device("cuda:1"));
  code(c, "x = tide::tensor({1., 2.}, tide::device(\"cuda:0\"));");
  code(c, "a = tide::tensor({1., 2.}, tide::device(\"cuda:1\"));");
  std::string message;
  try {
    (void)(a + x);
  } catch (const Error& e) {
    message = e.what();
  }
  c.out << "    a + x throws tide::Error:\n" << indented(message, "      ") << "\n";
  expect(message.find("Expected all tensors to be on the same device, but found at least two "
                      "devices") != std::string::npos,
         "a + x to raise torch's cross-device error");
  Tensor moved = a + x.to(a.device());
  show(c, "a + x.to(a.device())  // a copy is the exception", moved);
  expect(
      moved.device() == Device("cuda:1") && moved.tolist<float>() == std::vector<float>{2.f, 4.f},
      "a + x.to(cuda:1) == [2., 4.] on cuda:1");
}

// ---- "Asynchronous execution"

void async_errors_surface_at_synchronization(DemoContext& c) {
  Device cuda0("cuda:0");
  Tensor logits = randn({2, 3}, tide::device(cuda0));
  Tensor target = tensor({0, 5}, tide::device(cuda0));  // class 5 of 3: out of range
  code(c, "logits = tide::randn({2, 3}, tide::device(cuda0));");
  code(c, "target = tide::tensor({0, 5}, tide::device(cuda0));  // class 5 of 3");
  code(c, "{ tide::Scope scope(\"loss\");  loss = tide::cross_entropy(logits, target); }");
  std::string message, raised_by;
  Tensor loss;
  try {
    {
      Scope scope("loss");
      loss = cross_entropy(logits, target);
    }
    code(c, "// returned at once: the kernel runs later, on cuda:0's stream");
    raised_by = "loss.item<float>()";
    (void)loss.item<float>();
  } catch (const KernelError& e) {
    message = e.what();
    if (raised_by.empty()) raised_by = "cross_entropy itself (CUDA_LAUNCH_BLOCKING=1)";
  }
  c.out << "    " << raised_by << " throws tide::KernelError:\n"
        << indented(message, "      ") << "\n";
  expect(!message.empty(), "a KernelError for the out-of-range target");
  expect(message.find("scope 'loss'") != std::string::npos, "the error to name the scope");
  Tensor ok = tensor({1., 2.}, tide::device(cuda0)) + tensor({1., 2.}).cuda(0);
  show(c, "// the device stays usable:", ok);
  expect(ok.tolist<float>() == std::vector<float>{2.f, 4.f}, "the device to work after the error");
}

void streams_need_wait_stream(DemoContext& c) {
  Device cuda("cuda");
  Tensor A = empty({100, 100}, tide::device(cuda)).normal_(0.0, 1.0);
  code(c, "A = tide::empty({100, 100}, tide::device(cuda)).normal_(0.0, 1.0);");
  cuda::Stream s;
  code(c, "tide::cuda::Stream s;  // a new stream, as torch.cuda.Stream()");
  s.wait_stream(cuda::current_stream());
  code(c, "s.wait_stream(tide::cuda::current_stream());  // the fix: sum() waits for normal_()");
  Tensor B;
  {
    cuda::StreamGuard guard(s);
    B = sum(A);
  }
  code(c, "{ tide::cuda::StreamGuard guard(s);  B = tide::sum(A); }");
  cuda::current_stream().wait_stream(s);
  code(c, "tide::cuda::current_stream().wait_stream(s);  // before the default stream uses B");
  print_device(c, "B", B);
  // Within float rounding, not bit for bit: a real GPU adds the 10,000 numbers in another
  // order than the cpu (the H200's first run differed in the last bits).
  const Tensor expected = A.cpu().sum();
  const bool equal = allclose(B.cpu(), expected, /*rtol=*/1e-4, /*atol=*/1e-3);
  c.out << "    B equals the same sum computed on cpu (to float rounding): "
        << (equal ? "true" : "false") << "\n";
  expect(equal, "B to equal A.cpu().sum() to float rounding");

  // The race below holds a simulated stream's worker; under CUDA_LAUNCH_BLOCKING=1 normal_()
  // itself would wait for the held stream, and there is no race to show anyway.
  if (!testing::sim_active()) return;
  if (runtime::launch_blocking()) {
    c.out << "    (the seed's incorrect version is not raced here: CUDA_LAUNCH_BLOCKING=1 makes "
             "every op finish before it returns)\n";
    return;
  }
  c.out << "    the seed's incorrect version (no wait_stream), with the default stream's worker\n"
        << "    held so that sum() certainly runs first (a simulated-GPU testing hook):\n";
  Tensor A2 = zeros({100, 100}, tide::device(cuda));
  cuda::synchronize();
  float racy;
  {
    testing::StreamHold hold(cuda::current_stream());
    A2.normal_(0.0, 1.0);  // queued behind the hold
    cuda::StreamGuard guard(s);
    Tensor B2 = sum(A2);
    racy = B2.item<float>();  // ordered on s, the current stream here
  }
  cuda::synchronize();
  const float fixed = sum(A2).item<float>();
  c.out << "    B = tide::sum(A) read A before normal_() filled it: " << racy
        << " (A's zeros); after normal_() ran: " << (fixed == 0.f ? "0" : "not 0") << "\n";
  expect(racy == 0.f && fixed != 0.f, "the unsynchronized sum to read the unfilled A");
}

// ---- "Best practices"

void device_agnostic_code(DemoContext& c) {
  c.out << "    tide::cuda::is_available() -> " << (c.cuda_devices > 0 ? "true" : "false")
        << ", --disable-cuda " << (c.disable_cuda ? "given" : "not given")
        << " -> args.device = " << c.device << "\n";
  Tensor x = empty({8, 42}, tide::device(c.device));
  c.out << "    x = tide::empty({8, 42}, tide::device(args.device)) -> sizes (" << x.size(0) << ", "
        << x.size(1) << ")\n";
  print_device(c, "x", x);
  expect(x.device().type() == c.device.type(), "x on args.device");
  expect(x.sizes() == std::vector<int64_t>{8, 42}, "x of sizes (8, 42)");
}

void results_live_with_operands(DemoContext& c) {
  Tensor x = tensor({1., 2.}, tide::device(c.device));
  Tensor y = tensor({1., 2.}).to(c.device);
  Tensor z = x + y;
  show(c, "z = x + y  // x, y on args.device", z);
  print_device(c, "z", z);
  expect(z.device() == x.device(), "z on x's device");
  expect(z.tolist<float>() == std::vector<float>{2.f, 4.f}, "z == [2., 4.]");
  if (c.cuda_devices == 0) {
    // With no cuda device, moving there is the error the user meets; show that it says why.
    try {
      (void)tensor({1., 2.}).cuda();
      expect(false, "tensor.cuda() to throw without a cuda device");
    } catch (const Error& e) {
      c.out << "    tide::tensor({1., 2.}).cuda() throws tide::Error:\n"
            << indented(e.what(), "      ") << "\n";
    }
  }
}

void current_device_and_guard(DemoContext& c) {
  c.out << "    Outside device is " << cuda::current_device()
        << "  (tide::cuda::current_device())\n";
  expect(cuda::current_device() == 0, "device 0 to be current outside the guard");
  {
    cuda::DeviceGuard guard(1);
    c.out << "    Inside device is " << cuda::current_device()
          << "  (inside tide::cuda::DeviceGuard guard(1))\n";
    expect(cuda::current_device() == 1, "device 1 to be current inside the guard");
  }
  c.out << "    Outside device is still " << cuda::current_device() << "  (after the guard)\n";
  expect(cuda::current_device() == 0, "device 0 to be current again after the guard");
}

void new_methods_keep_device_and_dtype(DemoContext& c) {
  Tensor x_cpu = empty({2});
  Tensor x_cpu_long = empty({2}, dtype(kInt64));
  Tensor y_cpu = x_cpu.new_full({3, 2}, 0.3);
  show(c, "y_cpu = x_cpu.new_full({3, 2}, 0.3)", y_cpu);
  expect(y_cpu.dtype() == kFloat32 && y_cpu.is_cpu(), "y_cpu float32 on cpu");
  expect(y_cpu.tolist<float>() == std::vector<float>(6, 0.3f), "y_cpu filled with 0.3");
  if (c.no_gpu_reason.empty()) {
    Tensor x_gpu = empty({2}, tide::device(c.device));
    Tensor y_gpu = x_gpu.new_full({3, 2}, -5);
    show(c, "y_gpu = x_gpu.new_full({3, 2}, -5)", y_gpu);
    expect(y_gpu.device() == x_gpu.device() && y_gpu.dtype() == kFloat32,
           "y_gpu float32 on x_gpu's device");
    expect(y_gpu.tolist<float>() == std::vector<float>(6, -5.f), "y_gpu filled with -5");
  } else {
    code(c, "y_gpu = x_gpu.new_full({3, 2}, -5)  skipped: " + c.no_gpu_reason);
  }
  Tensor y_cpu_long = x_cpu_long.new_tensor({{1, 2, 3}});
  show(c, "y_cpu_long = x_cpu_long.new_tensor({{1, 2, 3}})", y_cpu_long);
  expect(y_cpu_long.dtype() == kInt64 && y_cpu_long.is_cpu(), "y_cpu_long int64 on cpu");
  expect(y_cpu_long.tolist<int64_t>() == std::vector<int64_t>{1, 2, 3}, "y_cpu_long [[1, 2, 3]]");
}

void like_factories_keep_device_and_dtype(DemoContext& c) {
  Tensor x_cpu = empty({2, 3});
  Tensor y_cpu = ones_like(x_cpu);
  show(c, "y_cpu = tide::ones_like(x_cpu)", y_cpu);
  expect(y_cpu.sizes() == x_cpu.sizes() && y_cpu.dtype() == kFloat32 && y_cpu.is_cpu(),
         "ones_like to keep sizes, dtype and device");
  if (c.no_gpu_reason.empty()) {
    // The seed's x_gpu = torch.empty(2, 3) lacks device=cuda; the demo puts it there.
    Tensor x_gpu = empty({2, 3}, tide::device(c.device));
    Tensor y_gpu = zeros_like(x_gpu);
    show(c, "y_gpu = tide::zeros_like(x_gpu)  // x_gpu = tide::empty({2, 3}, tide::device(cuda))",
         y_gpu);
    expect(y_gpu.device() == x_gpu.device() && y_gpu.dtype() == kFloat32 &&
               y_gpu.tolist<float>() == std::vector<float>(6, 0.f),
           "zeros_like to keep the device");
  } else {
    code(c, "y_gpu = tide::zeros_like(x_gpu)  skipped: " + c.no_gpu_reason);
  }
  Tensor z_cpu = zeros_like(x_cpu.to(kInt32));
  show(c, "z_cpu = tide::zeros_like(x_cpu.to(tide::kInt32))", z_cpu);
  expect(z_cpu.dtype() == kInt32 && z_cpu.tolist<int32_t>() == std::vector<int32_t>(6, 0),
         "zeros_like to keep int32");
}

// ---- "Memory management" and "Use pinned memory buffers"

/// Whole MiB, or bytes below one MiB (small blocks of earlier steps may still be cached).
std::string mib(int64_t bytes) {
  if (bytes % (1024 * 1024) != 0 && bytes < 1024 * 1024) return std::to_string(bytes) + " bytes";
  return std::to_string(bytes / (1024 * 1024)) + " MiB";
}

void caching_allocator_figures(DemoContext& c) {
  const int64_t allocated0 = cuda::memory_allocated(0), reserved0 = cuda::memory_reserved(0);
  code(c, "// memory_allocated(0) = " + mib(allocated0) + ", memory_reserved(0) = " + mib(reserved0));
  Tensor x = empty({1024, 1024}, tide::device(Device("cuda:0")));
  code(c, "x = tide::empty({1024, 1024}, tide::device(cuda0));  // 4 MiB of float32");
  const int64_t allocated1 = cuda::memory_allocated(0), reserved1 = cuda::memory_reserved(0);
  code(c, "// memory_allocated(0) = " + mib(allocated1) + ", memory_reserved(0) = " +
              mib(reserved1) + " (a 20 MiB segment, as torch's allocator takes for 1-10 MiB)");
  x = Tensor();
  code(c, "x = tide::Tensor();  // del x");
  const int64_t allocated2 = cuda::memory_allocated(0), reserved2 = cuda::memory_reserved(0);
  code(c, "// memory_allocated(0) = " + mib(allocated2) + ", memory_cached(0) = " + mib(reserved2) +
              ": the block stays cached for the next tensor, no device synchronization");
  cuda::empty_cache();
  code(c, "tide::cuda::empty_cache();");
  const int64_t reserved3 = cuda::memory_reserved(0);
  code(c, "// memory_reserved(0) = " + mib(reserved3) + ": unused cached memory went back to the GPU");
  expect(allocated1 - allocated0 == int64_t{4} << 20, "x to occupy 4 MiB");
  expect(reserved1 >= reserved0 + (int64_t{4} << 20), "the allocator to reserve at least 4 MiB");
  expect(allocated2 == allocated0 && reserved2 == reserved1,
         "freeing x to keep its memory cached, not released");
  expect(reserved3 <= reserved0, "empty_cache to release the unused segment");
}

void pinned_memory_and_non_blocking(DemoContext& c) {
  Tensor host = arange(6, TensorOptions().dtype(kFloat32)).pin_memory();
  code(c, "host = tide::arange(6, tide::kFloat32).pin_memory();  // a copy in page-locked memory");
  c.out << "    host.is_pinned() -> " << (host.is_pinned() ? "true" : "false") << "\n";
  Tensor dev = host.cuda(0, /*non_blocking=*/true);
  code(c, "dev = host.cuda(0, /*non_blocking=*/true);  // returns at once; the copy runs on the "
          "current stream");
  Tensor doubled = dev * 2;
  code(c, "doubled = dev * 2;  // same stream: ordered after the copy");
  show(c, "doubled", doubled);
  expect(host.is_pinned(), "pin_memory() to return a pinned tensor");
  expect(doubled.tolist<float>() == std::vector<float>{0.f, 2.f, 4.f, 6.f, 8.f, 10.f},
         "doubled == [0., 2., 4., 6., 8., 10.]");
}

std::vector<DemoStep> semantics_demo_steps() {
  return {
      {"Devices are values",
       "cuda = torch.device('cuda'); cuda0 = torch.device('cuda:0'); "
       "cuda2 = torch.device('cuda:2')",
       0, false, devices_are_values},
      {"Tensors stay where they were allocated",
       "x = torch.tensor([1., 2.], device=cuda0); y = torch.tensor([1., 2.]).cuda()", 1, true,
       tensors_stay_where_allocated},
      {"Inside a device context: new tensors go to its device, results to their operands'",
       "with torch.cuda.device(1): a = torch.tensor([1., 2.], device=cuda); "
       "b = torch.tensor([1., 2.]).cuda(); b2 = torch.tensor([1., 2.]).to(device=cuda); "
       "c = a + b; z = x + y",
       2, true, inside_a_device_context},
      {"The device can always be named explicitly",
       "d = torch.randn(2, device=cuda2); e = torch.randn(2).to(cuda2); "
       "f = torch.randn(2).cuda(cuda2)",
       3, true, device_named_explicitly},
      {"Cross-GPU operations raise; copies are the exception",
       "Cross-GPU operations are not allowed by default, with the exception of copy_() and "
       "other methods with copy-like functionality such as to() and cuda()",
       2, true, cross_device_ops_raise},
      {"Asynchronous errors surface at the next synchronizing call",
       "With asynchronous execution, such an error isn't reported until after the operation is "
       "actually executed",
       1, true, async_errors_surface_at_synchronization},
      {"Streams: work on another stream must wait_stream",
       "s = torch.cuda.Stream(); A = torch.empty((100, 100), device=cuda).normal_(0.0, 1.0); "
       "with torch.cuda.stream(s): B = torch.sum(A)  # may start before normal_() finishes!",
       1, true, streams_need_wait_stream},
      {"Device-agnostic code",
       "args.device = torch.device('cuda') if not args.disable_cuda and torch.cuda.is_available() "
       "else torch.device('cpu'); x = torch.empty((8, 42), device=args.device)",
       0, false, device_agnostic_code},
      {"Results live on the operands' device", "c = a + b  # c.device is a's and b's device", 0,
       false, results_live_with_operands},
      {"The current device and tide::cuda::DeviceGuard",
       "print('Outside device is 0'); with torch.cuda.device(1): print('Inside device is 1'); "
       "print('Outside device is still 0')",
       2, false, current_device_and_guard},
      {"new_* methods keep the device and dtype",
       "y_cpu = x_cpu.new_full([3, 2], fill_value=0.3); "
       "y_gpu = x_gpu.new_full([3, 2], fill_value=-5); "
       "y_cpu_long = x_cpu_long.new_tensor([[1, 2, 3]])",
       0, false, new_methods_keep_device_and_dtype},
      {"ones_like / zeros_like keep the device and dtype",
       "y_cpu = torch.ones_like(x_cpu); y_gpu = torch.zeros_like(x_gpu)", 0, false,
       like_factories_keep_device_and_dtype},
      {"The caching allocator: memory_allocated, memory_cached, empty_cache",
       "You can use memory_allocated() and max_memory_allocated() to monitor memory occupied by "
       "tensors, and use memory_cached() ... Calling empty_cache() can release all unused cached "
       "memory",
       1, true, caching_allocator_figures},
      {"Pinned memory and non_blocking copies",
       "CPU tensors expose a pin_memory() method ... Just pass an additional non_blocking=True "
       "argument to a cuda() call",
       1, true, pinned_memory_and_non_blocking},
  };
}

/// The note's examples, then the tutorial's training advice.
const std::vector<DemoStep>& demo_steps() {
  static const std::vector<DemoStep> steps = [] {
    std::vector<DemoStep> all = semantics_demo_steps();
    for (DemoStep& step : training_demo_steps()) all.push_back(step);
    return all;
  }();
  return steps;
}

/// Why `step` cannot run here, or "" when it can.
std::string skip_reason(const DemoStep& step, const CudaAvailability& cuda, bool disable_cuda) {
  if (step.cuda_devices_needed == 0) return "";
  if (disable_cuda) return "--disable-cuda was given";
  if (cuda.device_count == 0) return "no cuda device: " + cuda.no_device_reason;
  if (cuda.device_count < step.cuda_devices_needed) {
    return "needs more cuda devices than the " + std::to_string(cuda.device_count) +
           " present; TIDE_SIM_DEVICES=N simulates N";
  }
  if (step.needs_cuda_tensors && !cuda.tensors) {
    return "tensors cannot be allocated on cuda devices: " + cuda.no_tensor_reason;
  }
  return "";
}

/// "3 cuda devices, simulated ...": whether the GPUs are real, said plainly.
void print_devices(std::ostream& out, const CudaAvailability& cuda) {
  out << "devices: cpu, and " << cuda.device_count << " cuda device"
      << (cuda.device_count == 1 ? "" : "s") << "\n";
  if (cuda.device_count == 0) return;
  bool simulated = true;
  for (int i = 0; i < cuda.device_count; ++i) simulated &= cuda::get_device_properties(i).simulated;
  if (simulated) {
    out << "the cuda devices are SIMULATED GPUs (TIDE_SIM_DEVICES): they live in host memory and "
           "run each stream on a worker thread, with the semantics of real GPUs; no GPU hardware "
           "is used\n";
  } else {
    out << "the cuda devices are real GPUs: " << cuda::get_device_name(0)
        << (cuda.device_count > 1 ? ", ..." : "") << "\n";
  }
}

}  // namespace

int simulate_gpus_when_none(int n) {
  if (std::getenv("TIDE_SIM_DEVICES") != nullptr || std::getenv("CUDA_VISIBLE_DEVICES") != nullptr) {
    return 0;
  }
  if (runtime::backends_initialized() || runtime::real_cuda_devices_present()) return 0;
  runtime::set_sim_devices_override(n);
  return n;
}

int run_demo(const DemoOptions& options, std::ostream& out) {
  CudaAvailability cuda = cuda_availability();
  // The seed's args.device; cuda only where tensors can live there (Note [Demo steps]).
  bool use_cuda = !options.disable_cuda && cuda.device_count > 0 && cuda.tensors;
  std::string no_gpu_reason;
  if (!use_cuda) {
    no_gpu_reason = options.disable_cuda     ? "--disable-cuda was given"
                    : cuda.device_count == 0 ? "no cuda device"
                                             : "tensors cannot be allocated on cuda devices";
  }
  DemoContext context{out, use_cuda ? Device(kCUDA) : Device(kCPU), cuda.device_count,
                      options.disable_cuda, no_gpu_reason};
  manual_seed(0);

  if (options.simulated_by_default > 0) {
    out << "tide demo: this machine has no cuda device, so the demo runs on "
        << options.simulated_by_default
        << " SIMULATED GPUs (TIDE_SIM_DEVICES=0 runs it on cpu alone, TIDE_SIM_DEVICES=N on N)\n";
  }
  out << "tide demo: the examples of PyTorch's \"CUDA semantics\" note, run with tide " << version()
      << "\n";
  print_devices(out, cuda);
  out << "\n";

  const std::vector<DemoStep>& steps = demo_steps();
  std::vector<std::pair<size_t, std::string>> skipped;  // step index, reason
  int ran = 0, failed = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const DemoStep& step = steps[i];
    std::string reason = skip_reason(step, cuda, options.disable_cuda);
    if (!reason.empty()) {
      skipped.emplace_back(i, std::move(reason));
      continue;
    }
    out << "[" << i + 1 << "] " << step.title << "\n    seed: " << step.seed << "\n";
    try {
      step.run(context);
      ++ran;
    } catch (const std::exception& e) {
      out << "    FAILED: " << e.what() << "\n";
      ++failed;
    }
    out << "\n";
  }

  if (!skipped.empty()) {
    out << "skipped " << skipped.size() << " step" << (skipped.size() == 1 ? "" : "s")
        << " that need cuda devices:\n";
    // Steps that share a reason are listed together, the reason once after them.
    std::vector<std::string> reasons;
    for (const auto& entry : skipped) {
      if (std::find(reasons.begin(), reasons.end(), entry.second) == reasons.end()) {
        reasons.push_back(entry.second);
      }
    }
    for (const std::string& reason : reasons) {
      for (const auto& [i, step_reason] : skipped) {
        if (step_reason != reason) continue;
        int needed = steps[i].cuda_devices_needed;
        out << "  [" << i + 1 << "] " << steps[i].title << " (needs " << needed << " cuda device"
            << (needed == 1 ? "" : "s") << (steps[i].needs_cuda_tensors ? " with tensors" : "")
            << ")\n";
      }
      out << "    why: " << reason << "\n";
    }
  }
  out << "\n";
  out << "demo: " << ran << " steps ran, " << skipped.size() << " skipped, " << failed
      << " failed\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace tide::cli
