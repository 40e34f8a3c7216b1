// The OOM sweep (issue 13): one complete training step — a pinned DataLoader batch, its
// non_blocking copy to the device, forward, cross-entropy, backward and an SGD-with-momentum
// step of a small MLP — run once for every allocation k = 1..N the step makes, with the k-th
// failing (inject_oom_at / inject_pinned_oom_at). N is counted on a clean step, and each
// sweep checks that the count is deterministic and exact (the step makes no allocation k = N+1).
//
// Every run must end in an OutOfMemoryError caught here — never another exception, a crash or
// a hang — and then (Note [What one sweep run checks]):
// - recover as a training loop would: empty_cache and the same step again in two half batches
//   (gradient accumulation), whose parameters match a clean step's, and one more full step
//   that matches two clean steps (the momentum buffers were not corrupted);
// - once the model, optimizer, loader and batch are dropped: every device's memory_allocated
//   is 0, the pinned allocator holds nothing active and every caching allocator's invariants
//   hold;
// - the device still trains: a fresh model's clean step gives the reference's values (bit for
//   bit on simulated GPUs, which run the cpu loops; within float rounding on real ones, as
//   test::matches_cpu).
//
// Sweeps: cuda:0's allocations and the pinned allocator's, on one device; and cuda:1's own
// allocations under nn::DataParallel on cuda:0 and cuda:1 (its count is deterministic: one
// replica thread allocates there at a time). Each prints a summary line that scripts/oom-sweep
// shows in CI's log ("OOM sweep: N=... allocation points ..., ... passed").

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "memory/caching_allocator.h"
#include "memory/device_allocators.h"
#include "runtime/device_test_util.h"
#include "tide/testing/sim_hooks.h"
#include "tide/tide.h"

using namespace tide;

namespace {

constexpr int64_t kBatch = 8;
constexpr int64_t kFeatures = 6;
constexpr int64_t kClasses = 3;

/// Where the injected failure goes: the k-th allocation of one device's caching allocator, or
/// of the pinned host allocator.
struct Target {
  enum Kind { Device, Pinned } kind;
  int device = 0;

  std::string str() const { return kind == Pinned ? "pinned" : "cuda:" + std::to_string(device); }
  /// Allocations served so far (successful ones: a clean step has no other kind).
  int64_t allocations() const {
    if (kind == Pinned) return cuda::host_memory_stats().at("allocation.allocated");
    return cuda::memory_stats(device).at("allocation.all.allocated");
  }
  /// The k-th allocation from now fails (0 disarms).
  void arm(int64_t k) const {
    if (kind == Pinned) {
      cuda::inject_pinned_oom_at(k);
    } else {
      cuda::inject_oom_at(k, device);
    }
  }
};

void synchronize_all() {
  for (int d = 0; d < cuda::device_count(); ++d) cuda::synchronize(d);
}

/// 4 batches of samples with fixed values (the same for every run).
std::shared_ptr<data::TensorDataset> samples() {
  const int64_t n = 4 * kBatch;
  Tensor x = empty({n, kFeatures});
  Tensor y = empty({n}, TensorOptions(kInt64));
  float* px = x.data_ptr<float>();
  int64_t* py = y.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < kFeatures; ++j) {
      px[i * kFeatures + j] = static_cast<float>((i * 7 + j * 3) % 11) / 5.0f - 1.0f;
    }
    py[i] = (i * 5) % kClasses;
  }
  return std::make_shared<data::TensorDataset>(x, y);
}

nn::Sequential mlp() {
  manual_seed(3);
  return nn::Sequential(nn::Linear(kFeatures, 16), nn::ReLU(), nn::Linear(16, 16), nn::ReLU(),
                        nn::Linear(16, kClasses));
}

/// A model on cuda:0 (under DataParallel over `devices` devices when devices > 1), its
/// optimizer and its loaders: everything a run trains with. Destroying it must give back every
/// byte it took.
class Trainer {
 public:
  explicit Trainer(int devices) : net_(mlp()) {
    net_.to(Device(kCUDA, 0));
    if (devices > 1) {
      std::vector<int> ids;
      for (int d = 0; d < devices; ++d) ids.push_back(d);
      parallel_ = std::make_unique<nn::DataParallel>(net_, ids);
    }
    opt_ = std::make_unique<optim::SGD>(model().parameters(), optim::SGDOptions(0.1).momentum(0.9));
    const auto dataset = samples();
    full_ = std::make_unique<data::DataLoader>(dataset, data::DataLoaderOptions().batch_size(kBatch).pin_memory(true));
    half_ = std::make_unique<data::DataLoader>(dataset, data::DataLoaderOptions().batch_size(kBatch / 2).pin_memory(true));
  }

  /// One optimizer step on the first batch of a new epoch of the full-batch loader.
  void step() { step_over(*full_, 1); }
  /// The same step in two half batches whose gradients accumulate: the smaller batch a
  /// training loop retries with after an OutOfMemoryError.
  void step_in_halves() { step_over(*half_, 2); }

  /// The parameters' values, on the cpu.
  std::vector<Tensor> parameters() const {
    std::vector<Tensor> out;
    for (const Tensor& p : net_.parameters()) out.push_back(p.detach().cpu());
    return out;
  }

 private:
  nn::Module& model() { return parallel_ ? static_cast<nn::Module&>(*parallel_) : net_; }

  void step_over(data::DataLoader& loader, int batches) {
    const Device device(kCUDA, 0);
    opt_->zero_grad();
    data::DataLoader::Iterator it = loader.begin();
    for (int b = 0; b < batches; ++b, ++it) {
      const data::Example& batch = *it;
      const Tensor x = batch.data.to(device, /*non_blocking=*/true);
      const Tensor y = batch.target.to(device, /*non_blocking=*/true);
      Tensor loss = criterion_(model()(x), y);
      if (batches > 1) loss = loss * (1.0 / batches);  // the mean over the whole batch
      loss.backward();
    }
    opt_->step();
  }

  nn::Sequential net_;
  std::unique_ptr<nn::DataParallel> parallel_;
  nn::CrossEntropyLoss criterion_;
  std::unique_ptr<optim::SGD> opt_;
  std::unique_ptr<data::DataLoader> full_, half_;
};

/// What went wrong in one run, or "" (the checks collect messages instead of stopping, so a
/// sweep counts the runs that passed).
class Failures {
 public:
  void add(const std::string& what) { out_ << (out_.tellp() > 0 ? "; " : "") << what; }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

/// `actual` equals `expected`: bit for bit when `exact`, else within float rounding (the sum of
/// two half batches' gradients associates differently from one batch's).
void compare(const std::vector<Tensor>& expected, const std::vector<Tensor>& actual, bool exact,
             const char* what, Failures& failures) {
  if (expected.size() != actual.size()) {
    failures.add(std::string(what) + ": parameter count differs");
    return;
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    const std::vector<float> e = expected[i].contiguous().tolist<float>();
    const std::vector<float> a = actual[i].contiguous().tolist<float>();
    for (size_t j = 0; j < e.size(); ++j) {
      const bool same = exact ? std::memcmp(&e[j], &a[j], sizeof(float)) == 0
                              : std::abs(a[j] - e[j]) <= 1e-6f + 1e-5f * std::abs(e[j]);
      if (!same) {
        std::ostringstream os;
        os << what << ": parameter " << i << " element " << j << " is " << a[j] << ", expected "
           << e[j];
        failures.add(os.str());
        return;
      }
    }
  }
}

/// The ops that made the blocks still allocated on cuda:`device`, for a leak's report.
std::string live_blocks(int device) {
  memory::CachingAllocator* a = memory::device_allocator_if_created(device);
  if (a == nullptr) return "";
  std::ostringstream os;
  for (const memory::SegmentInfo& s : a->segments()) {
    for (const memory::BlockInfo& b : s.blocks) {
      if (b.state != "active_allocated") continue;
      os << " " << (b.op ? b.op : "?") << "(" << b.requested_size << " B)";
    }
  }
  return os.str();
}

/// Note [What one sweep run checks]: with the model, optimizer, loaders and batches dropped
/// and the devices synchronized, nothing may stay allocated: a block still held is a leak on
/// the error path (a tensor kept by a graph, a replica, a loader slot, a pending list). The
/// allocators' own invariants catch corrupted bookkeeping.
void check_nothing_held(Failures& failures) {
  synchronize_all();
  for (int d = 0; d < cuda::device_count(); ++d) {
    const int64_t held = cuda::memory_allocated(d);
    if (held != 0) {
      failures.add("cuda:" + std::to_string(d) + " still has " + std::to_string(held) +
                   " bytes allocated:" + live_blocks(d));
    }
    if (memory::CachingAllocator* a = memory::device_allocator_if_created(d)) {
      try {
        a->check_invariants();
      } catch (const std::exception& e) {
        failures.add("cuda:" + std::to_string(d) + "'s allocator is corrupted: " + e.what());
      }
    }
  }
  const int64_t pinned = cuda::host_memory_stats().at("allocation.current");
  if (pinned != 0) failures.add("the pinned allocator still has " + std::to_string(pinned) + " blocks active");
}

struct Reference {
  std::vector<Tensor> one_step, two_steps;
};

Reference clean_reference(int devices) {
  Reference ref;
  Trainer t(devices);
  t.step();
  ref.one_step = t.parameters();
  t.step();
  ref.two_steps = t.parameters();
  return ref;
}

/// The allocations one clean step makes at `target`.
int64_t count_allocations(int devices, const Target& target) {
  Trainer t(devices);
  synchronize_all();
  const int64_t before = target.allocations();
  t.step();
  synchronize_all();
  return target.allocations() - before;
}

/// One run of the sweep: the k-th allocation at `target` fails. "" when every check passed.
std::string run_with_failure_at(int devices, const Target& target, int64_t k, const Reference& ref) {
  Failures failures;
  try {
    {
      Trainer t(devices);
      synchronize_all();
      target.arm(k);
      bool raised = false;
      try {
        t.step();
      } catch (const OutOfMemoryError& e) {
        raised = true;
        if (std::strstr(e.what(), "inject") == nullptr) {
          failures.add(std::string("the OutOfMemoryError does not say it was injected: ") + e.what());
        }
      }
      target.arm(0);
      if (!raised) failures.add("the step succeeded: it made fewer than k allocations");
      // Recover as a training loop would: free the cache, retry with a smaller batch.
      cuda::empty_cache();
      t.step_in_halves();
      compare(ref.one_step, t.parameters(), /*exact=*/false, "the recovered step", failures);
      t.step();
      compare(ref.two_steps, t.parameters(), /*exact=*/false, "the step after the recovered one",
              failures);
    }
    check_nothing_held(failures);
    {
      Trainer t(devices);
      t.step();
      compare(ref.one_step, t.parameters(), /*exact=*/tide::testing::sim_active(),
              "a fresh model's clean step", failures);
    }
    check_nothing_held(failures);
  } catch (const std::exception& e) {
    failures.add(std::string("an exception other than OutOfMemoryError escaped: ") + e.what());
    target.arm(0);
  }
  return failures.str();
}

struct SweepResult {
  int64_t points = 0;
  int64_t passed = 0;
};

/// Runs the step once for each allocation k = 1..N at `target`, N counted on a clean step.
SweepResult sweep(int devices, const Target& target) {
  SweepResult result;
  const Reference ref = clean_reference(devices);
  const int64_t n = count_allocations(devices, target);
  EXPECT_EQ(count_allocations(devices, target), n)
      << target.str() << "'s allocation count differs between two clean steps";
  EXPECT_GT(n, 0) << "a training step allocates at " << target.str();
  for (int64_t k = 1; k <= n; ++k) {
    const std::string failure = run_with_failure_at(devices, target, k, ref);
    if (failure.empty()) {
      ++result.passed;
    } else {
      ADD_FAILURE() << "failing allocation " << k << " of " << n << " at " << target.str() << ": "
                    << failure;
    }
  }
  result.points = n;
  // N is exact: arming allocation N+1 leaves the step untouched.
  {
    Trainer t(devices);
    synchronize_all();
    target.arm(n + 1);
    EXPECT_NO_THROW(t.step()) << "the step made more than N = " << n << " allocations at "
                              << target.str();
    target.arm(0);
  }
  return result;
}

class OomSweep : public ::testing::Test {
 protected:
  void SetUp() override {
    synchronize_all();
    cuda::empty_cache();
    cuda::host_empty_cache();
  }
  // The last step's kernels finish before the test ends: a process that exits while a
  // simulated GPU's worker still runs a BLAS kernel can crash as the library unloads.
  void TearDown() override { synchronize_all(); }
};

}  // namespace

TEST_F(OomSweep, EveryAllocationOfATrainingStepOnOneDeviceFailsCleanly) {
  TIDE_REQUIRE_DEVICES(1);
  const SweepResult dev = sweep(1, Target{Target::Device, 0});
  const SweepResult pinned = sweep(1, Target{Target::Pinned});
  const int64_t n = dev.points + pinned.points;
  const int64_t passed = dev.passed + pinned.passed;
  std::cout << "OOM sweep: N=" << n << " allocation points (" << dev.points << " on cuda:0, "
            << pinned.points << " pinned), " << passed << " passed" << std::endl;
  EXPECT_EQ(passed, n);
}

TEST_F(OomSweep, EveryAllocationOnTheSecondDeviceUnderDataParallelFailsCleanly) {
  TIDE_REQUIRE_DEVICES(2);
  const SweepResult dev1 = sweep(2, Target{Target::Device, 1});
  std::cout << "OOM sweep under DataParallel on 2 GPUs: N=" << dev1.points
            << " allocation points (on cuda:1), " << dev1.passed << " passed" << std::endl;
  EXPECT_EQ(dev1.passed, dev1.points);
}
