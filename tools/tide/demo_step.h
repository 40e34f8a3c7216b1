#pragma once
// One step of `tide demo` (Note [Demo steps] in demo.cpp) and the helpers steps print with.

#include <ostream>
#include <string>
#include <vector>

#include "tide/device.h"
#include "tide/tensor.h"

namespace tide::cli {

/// What a step may use.
struct DemoContext {
  std::ostream& out;
  /// The seed's args.device: cuda when tensors can live there and --disable-cuda was not given.
  Device device;
  int cuda_devices;
  bool disable_cuda;
  /// Why the GPU lines of a cpu step do not run (empty when args.device is cuda).
  std::string no_gpu_reason;
};

struct DemoStep {
  const char* title;
  /// The seed lines (Python) this step walks through.
  const char* seed;
  /// 0: runs on every machine.
  int cuda_devices_needed;
  /// Whether it allocates tensors on cuda devices (devices alone need less, Note [Demo steps]).
  bool needs_cuda_tensors;
  void (*run)(DemoContext&);
};

/// Throws when the seed's claim does not hold in tide.
void expect(bool holds, const std::string& claim);
/// `text` with `prefix` before each of its lines.
std::string indented(const std::string& text, const std::string& prefix);
/// Prints a C++ line of the step.
void code(DemoContext& c, const std::string& line);
/// Prints the C++ line that made `t`, then its repr (the seed's print(t)).
void show(DemoContext& c, const std::string& line, const Tensor& t);
/// The seed's `print("c.device is:", c.device)`.
void print_device(DemoContext& c, const std::string& name, const Tensor& t);
/// Same shape, dtype and float values, wherever each lives.
bool same_values(const Tensor& a, const Tensor& b);

/// The steps of the seeds' training advice (tutorial sections 1-6 and the note's best
/// practices): modules move in place, losses move their weights, set_device,
/// set_default_device, pinned DataLoader batches, DataParallel.
std::vector<DemoStep> training_demo_steps();

}  // namespace tide::cli
