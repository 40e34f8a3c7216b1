// Note [Demo steps]: the demo is a table of steps, each quoting the seed lines it walks
// through and naming how many cuda devices it needs and whether it puts tensors on them
// (devices, the current device and guards come with the runtime; tensors on cuda devices need
// the device allocator as well). A step runs when what it needs exists, and is listed as
// skipped with the reason otherwise; a step checks what the seed claims (devices, dtypes,
// values) and fails loudly if tide disagrees. The seed's streams, memory statistics and
// pinned-memory examples become steps here once tensors can live on cuda devices.

#include "demo.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "devices.h"
#include "tide/cuda/device.h"
#include "tide/cuda/device_guard.h"
#include "tide/tide.h"

namespace tide::cli {
namespace {

/// What a step may use.
struct DemoContext {
  std::ostream& out;
  /// The seed's args.device: cuda when tensors can live there and --disable-cuda was not given.
  Device device;
  int cuda_devices;
  bool disable_cuda;
};

struct DemoStep {
  const char* title;
  /// The seed lines (Python) this step walks through.
  const char* seed;
  /// 0: runs on every machine.
  int cuda_devices_needed;
  /// Whether it allocates tensors on cuda devices (devices alone come first, Note [Demo steps]).
  bool needs_cuda_tensors;
  void (*run)(DemoContext&);
};

/// Throws when the seed's claim does not hold in tide.
void expect(bool holds, const std::string& claim) {
  if (!holds) throw std::runtime_error("expected " + claim);
}

std::string indented(const std::string& text, const std::string& prefix) {
  std::string s = prefix;
  for (char ch : text) {
    s.push_back(ch);
    if (ch == '\n') s += prefix;
  }
  return s;
}

/// Prints the C++ line that made `t`, then its repr.
void show(DemoContext& c, const std::string& code, const Tensor& t) {
  c.out << "    " << code << "\n" << indented(t.str(), "      ") << "\n";
}

// ---- steps that run on every machine

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

void device_agnostic_code(DemoContext& c) {
  c.out << "    tide::cuda::is_available() -> " << (c.cuda_devices > 0 ? "true" : "false")
        << ", --disable-cuda " << (c.disable_cuda ? "given" : "not given")
        << " -> args.device = " << c.device << "\n";
  Tensor x = empty({8, 42}, tide::device(c.device));
  c.out << "    x = tide::empty({8, 42}, tide::device(args.device)) -> sizes (" << x.size(0) << ", "
        << x.size(1) << ") on " << x.device() << "\n";
  expect(x.device().type() == c.device.type(), "x on args.device");
  expect(x.sizes() == std::vector<int64_t>{8, 42}, "x of sizes (8, 42)");
}

void new_methods_keep_device_and_dtype(DemoContext& c) {
  Tensor x_cpu = empty({2});
  Tensor x_cpu_long = empty({2}, dtype(kInt64));
  Tensor y_cpu = x_cpu.new_full({3, 2}, 0.3);
  show(c, "y_cpu = x_cpu.new_full({3, 2}, 0.3)", y_cpu);
  Tensor y_cpu_long = x_cpu_long.new_tensor({{1, 2, 3}});
  show(c, "y_cpu_long = x_cpu_long.new_tensor({{1, 2, 3}})", y_cpu_long);
  expect(y_cpu.dtype() == kFloat32 && y_cpu.is_cpu(), "y_cpu float32 on cpu");
  expect(y_cpu.tolist<float>() == std::vector<float>(6, 0.3f), "y_cpu filled with 0.3");
  expect(y_cpu_long.dtype() == kInt64 && y_cpu_long.is_cpu(), "y_cpu_long int64 on cpu");
  expect(y_cpu_long.tolist<int64_t>() == std::vector<int64_t>{1, 2, 3}, "y_cpu_long [[1, 2, 3]]");
}

void like_factories_keep_device_and_dtype(DemoContext& c) {
  Tensor x_cpu = empty({2, 3});
  Tensor y_cpu = ones_like(x_cpu);
  show(c, "y_cpu = tide::ones_like(x_cpu)", y_cpu);
  Tensor z_cpu = zeros_like(x_cpu.to(kInt32));
  show(c, "z_cpu = tide::zeros_like(x_cpu.to(tide::kInt32))", z_cpu);
  expect(y_cpu.sizes() == x_cpu.sizes() && y_cpu.dtype() == kFloat32 && y_cpu.is_cpu(),
         "ones_like to keep sizes, dtype and device");
  expect(z_cpu.dtype() == kInt32 && z_cpu.tolist<int32_t>() == std::vector<int32_t>(6, 0),
         "zeros_like to keep int32");
}

void results_live_with_operands(DemoContext& c) {
  Tensor x = tensor({1., 2.}, tide::device(c.device));
  Tensor y = tensor({1., 2.}).to(c.device);
  Tensor z = x + y;
  show(c, "z = x + y", z);
  c.out << "    z.device() -> " << z.device() << "  (the operands' device)\n";
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

// ---- steps that need cuda devices (Note [Demo steps])

void current_device_and_guard(DemoContext& c) {
  c.out << "    outside: tide::cuda::current_device() -> " << cuda::current_device() << "\n";
  expect(cuda::current_device() == 0, "device 0 to be current outside the guard");
  {
    cuda::DeviceGuard guard(1);
    c.out << "    inside tide::cuda::DeviceGuard guard(1): tide::cuda::current_device() -> "
          << cuda::current_device() << "\n";
    expect(cuda::current_device() == 1, "device 1 to be current inside the guard");
  }
  c.out << "    after the guard: tide::cuda::current_device() -> " << cuda::current_device()
        << "\n";
  expect(cuda::current_device() == 0, "device 0 to be current again after the guard");
}

void tensors_stay_where_allocated(DemoContext& c) {
  Device cuda0("cuda:0");
  Tensor x = tensor({1., 2.}, tide::device(cuda0));
  Tensor y = tensor({1., 2.}).cuda();
  Tensor z = x + y;
  show(c, "z = x + y", z);
  expect(x.device() == cuda0 && y.device() == cuda0 && z.device() == cuda0, "x, y and z on cuda:0");
}

void new_methods_on_a_gpu_tensor(DemoContext& c) {
  Tensor x_gpu = empty({2}, tide::device("cuda"));
  Tensor y_gpu = x_gpu.new_full({3, 2}, -5);
  show(c, "y_gpu = x_gpu.new_full({3, 2}, -5)", y_gpu);
  Tensor z_gpu = zeros_like(empty({2, 3}, tide::device("cuda")));
  show(c, "z_gpu = tide::zeros_like(x_gpu)", z_gpu);
  expect(y_gpu.device() == x_gpu.device() && y_gpu.dtype() == kFloat32, "y_gpu on x_gpu's device");
  expect(z_gpu.is_cuda(), "z_gpu on a cuda device");
}

void results_follow_operands_not_the_current_device(DemoContext& c) {
  Device cuda("cuda"), cuda1("cuda:1");
  Tensor x = tensor({1., 2.}, tide::device("cuda:0"));
  Tensor y = tensor({1., 2.}).cuda();
  cuda::DeviceGuard guard(1);
  Tensor a = tensor({1., 2.}, tide::device(cuda));
  Tensor b = tensor({1., 2.}).cuda();
  Tensor b2 = tensor({1., 2.}).to(cuda);
  Tensor sum_ab = a + b;
  Tensor z = x + y;
  c.out << "    inside DeviceGuard(1): a, b, b2 -> " << a.device() << ", " << b.device() << ", "
        << b2.device() << "; a + b -> " << sum_ab.device() << "; x + y -> " << z.device() << "\n";
  expect(a.device() == cuda1 && b.device() == cuda1 && b2.device() == cuda1, "a, b, b2 on cuda:1");
  expect(sum_ab.device() == cuda1, "a + b on cuda:1");
  expect(z.device() == Device("cuda:0"), "x + y on cuda:0, the operands' device");
}

void device_named_explicitly(DemoContext& c) {
  Device cuda2("cuda:2");
  Tensor d = randn({2}, tide::device(cuda2));
  Tensor e = randn({2}).to(cuda2);
  Tensor f = randn({2}).cuda(cuda2);
  c.out << "    d, e, f devices -> " << d.device() << ", " << e.device() << ", " << f.device()
        << "\n";
  expect(d.device() == cuda2 && e.device() == cuda2 && f.device() == cuda2, "d, e, f on cuda:2");
}

const std::vector<DemoStep>& demo_steps() {
  static const std::vector<DemoStep> steps = {
      {"Devices are values",
       "cuda = torch.device('cuda'); cuda0 = torch.device('cuda:0'); "
       "cuda2 = torch.device('cuda:2')",
       0, false, devices_are_values},
      {"Device-agnostic code",
       "args.device = torch.device('cuda') if not args.disable_cuda and torch.cuda.is_available() "
       "else torch.device('cpu'); x = torch.empty((8, 42), device=args.device)",
       0, false, device_agnostic_code},
      {"new_* methods keep the device and dtype",
       "y_cpu = x_cpu.new_full([3, 2], fill_value=0.3); "
       "y_cpu_long = x_cpu_long.new_tensor([[1, 2, 3]])",
       0, false, new_methods_keep_device_and_dtype},
      {"ones_like / zeros_like keep the device and dtype", "y_cpu = torch.ones_like(x_cpu)", 0,
       false, like_factories_keep_device_and_dtype},
      {"Results live on the operands' device", "c = a + b  # c.device is a's and b's device", 0,
       false, results_live_with_operands},
      {"The current device and tide::cuda::DeviceGuard",
       "print('Outside device is 0'); with torch.cuda.device(1): print('Inside device is 1'); "
       "print('Outside device is still 0')",
       2, false, current_device_and_guard},
      {"Tensors stay where they were allocated",
       "x = torch.tensor([1., 2.], device=cuda0); y = torch.tensor([1., 2.]).cuda(); "
       "z = x + y  # z.device is cuda:0",
       1, true, tensors_stay_where_allocated},
      {"new_* and *_like on a GPU tensor",
       "y_gpu = x_gpu.new_full([3, 2], fill_value=-5); y_gpu = torch.zeros_like(x_gpu)", 1, true,
       new_methods_on_a_gpu_tensor},
      {"Results follow their operands, not the current device",
       "with torch.cuda.device(1): a = torch.tensor([1., 2.], device=cuda); "
       "b = torch.tensor([1., 2.]).cuda(); c = a + b  # cuda:1; z = x + y  # cuda:0",
       2, true, results_follow_operands_not_the_current_device},
      {"The device can always be named explicitly",
       "d = torch.randn(2, device=cuda2); e = torch.randn(2).to(cuda2); "
       "f = torch.randn(2).cuda(cuda2)",
       3, true, device_named_explicitly},
  };
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
    return "tensors cannot be allocated on cuda devices yet: " + cuda.no_tensor_reason;
  }
  return "";
}

}  // namespace

int run_demo(const DemoOptions& options, std::ostream& out) {
  CudaAvailability cuda = cuda_availability();
  // The seed's args.device; cuda only where tensors can live there (Note [Demo steps]).
  bool use_cuda = !options.disable_cuda && cuda.device_count > 0 && cuda.tensors;
  DemoContext context{out, use_cuda ? Device(kCUDA) : Device(kCPU), cuda.device_count,
                      options.disable_cuda};

  out << "tide demo: the examples of PyTorch's \"CUDA semantics\" note, run with tide " << version()
      << "\n"
      << "devices: cpu, and " << cuda.device_count << " cuda device"
      << (cuda.device_count == 1 ? "" : "s") << "\n\n";

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
  out << "not in the demo yet: the seed's streams, memory statistics and pinned memory examples; "
         "they become steps when tensors can live on cuda devices\n\n";
  out << "demo: " << ran << " steps ran, " << skipped.size() << " skipped, " << failed
      << " failed\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace tide::cli
