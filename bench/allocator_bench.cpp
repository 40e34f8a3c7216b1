// The caching device allocator's costs: a cached malloc+free pair (the allocator alone, over
// an in-process upstream, and the public path tide::empty + drop on simulated GPUs), on one
// thread and on two (two streams of one device's allocator, which share its mutex, and two
// devices), and how much memory a long synthetic training trace reserves for what it
// allocates, replayed through memory/replay.h with torch's allocator settings. Runs on 2
// simulated GPUs whatever the environment says.
//
// Note [Pair timing]: a "pair" is malloc + free of a 1 KiB block (tide::empty({256}) of
// float32) that the allocator already caches, so no raw device memory is taken in the timed
// loop. Two-thread cases report, as Google Benchmark does, wall time ÷ the iterations of
// both threads (throughput); `thread_ns_per_pair` is each thread's own wall time per pair,
// averaged over the threads (latency, what one thread waits).
//
// Note [Synthetic training trace]: a GPT-style model of kLayers transformer layers, its
// weights allocated once before the trace, trained for kSteps steps whose sequence length
// changes every step (as with unpadded batches): the forward pass allocates each layer's
// saved activations and frees its temporaries, the backward pass frees the activations in
// reverse as it allocates activation and weight gradients, Adam allocates its state at the
// first step and a temporary per parameter every step, and zero_grad(set_to_none) frees the
// gradients. Sizes run from 512 B (the loss) through layer norm parameters (small pool) to
// attention scores of 96 MiB and logits of 128 MiB. The `reserved/allocated` counter is peak
// reserved ÷ peak allocated bytes (1.0: no memory lost to rounding, splitting or caching).

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "memory/allocator_config.h"
#include "memory/caching_allocator.h"
#include "memory/replay.h"
#include "memory/snapshot.h"
#include "memory/upstream.h"
#include "tide/cuda.h"
#include "tide/cuda/stream_guard.h"
#include "tide/testing/sim_hooks.h"
#include "tide/tide.h"

namespace {

using namespace tide;
using memory::AllocatorConfig;
using memory::Block;
using memory::CachingAllocator;

constexpr size_t kPairBytes = 256 * sizeof(float);  // Note [Pair timing]

/// Device memory from a counter, never touched; markers complete at once. Only the cached
/// path runs in the timed loops, so this upstream is called during warm-up alone.
class CounterUpstream final : public memory::Upstream {
 public:
  void* raw_malloc(size_t nbytes) override {
    uintptr_t ptr = next_;
    next_ += (nbytes + kAlign - 1) / kAlign * kAlign + kAlign;
    in_use_ += static_cast<int64_t>(nbytes);
    return reinterpret_cast<void*>(ptr);
  }
  void raw_free(void*, size_t nbytes) noexcept override { in_use_ -= static_cast<int64_t>(nbytes); }
  memory::StreamMarker record(uint64_t) override { return done_; }
  bool query(const memory::StreamMarker&) override { return true; }
  void synchronize(const memory::StreamMarker&) override {}
  int64_t capacity() const override { return int64_t{1} << 40; }
  int64_t raw_in_use() const override { return in_use_; }

 private:
  static constexpr uintptr_t kAlign = uintptr_t{2} << 20;
  uintptr_t next_ = uintptr_t{1} << 40;
  int64_t in_use_ = 0;
  memory::StreamMarker done_ = std::make_shared<int>(0);
};

std::unique_ptr<CachingAllocator> make_allocator(int device) {
  return std::make_unique<CachingAllocator>(device, std::make_unique<CounterUpstream>(),
                                            AllocatorConfig{});
}

/// Each thread's wall time per pair since `start`, averaged over the threads (Note [Pair
/// timing]).
void report_thread_ns_per_pair(benchmark::State& state,
                               std::chrono::steady_clock::time_point start) {
  const std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
  state.counters["thread_ns_per_pair"] =
      benchmark::Counter(elapsed.count() / static_cast<double>(state.iterations()),
                         benchmark::Counter::kAvgThreads);
}

/// Warms `alloc`'s cache for `stream`, then times cached pairs on it.
void time_pairs(benchmark::State& state, CachingAllocator& alloc, uint64_t stream) {
  alloc.free(alloc.malloc(kPairBytes, stream));
  auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    Block* b = alloc.malloc(kPairBytes, stream);
    benchmark::DoNotOptimize(b);
    alloc.free(b);
  }
  report_thread_ns_per_pair(state, start);
}

// ---- The allocator alone (Note [Pair timing])

void pair_allocator_1_thread(benchmark::State& state) {
  auto alloc = make_allocator(0);
  time_pairs(state, *alloc, 0);
}

/// Both threads on one allocator, each on its own stream: they share its mutex.
void pair_allocator_2_threads_same_device(benchmark::State& state) {
  static CachingAllocator& shared = *make_allocator(0).release();  // lives for the process
  time_pairs(state, shared, static_cast<uint64_t>(state.thread_index()) + 1);
}

/// Each thread on its own device's allocator.
void pair_allocator_2_threads_own_device(benchmark::State& state) {
  static CachingAllocator* devices[2] = {make_allocator(0).release(), make_allocator(1).release()};
  time_pairs(state, *devices[state.thread_index()], 0);
}

// ---- The public path: tide::empty({256}, cuda:N) and dropping the tensor

/// Times cached tide::empty + drop on cuda:`device`'s current stream (set by the caller).
void time_empty_pairs(benchmark::State& state, int device) {
  const TensorOptions options(Device(kCUDA, device));
  { Tensor warm = empty({256}, options); }
  auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    Tensor t = empty({256}, options);
    benchmark::DoNotOptimize(t);
  }
  report_thread_ns_per_pair(state, start);
}

void pair_empty_1_thread(benchmark::State& state) { time_empty_pairs(state, 0); }

/// Both threads on cuda:0's allocator, each on its own pooled stream (round-robin hands out
/// different ones), so they share the device's mutex.
void pair_empty_2_threads_same_device(benchmark::State& state) {
  cuda::StreamGuard guard{cuda::Stream(0)};
  time_empty_pairs(state, 0);
}

void pair_empty_2_threads_own_device(benchmark::State& state) {
  const int device = state.thread_index();
  cuda::StreamGuard guard{cuda::Stream(device)};
  time_empty_pairs(state, device);
}

// ---- Replay of a synthetic training trace (Note [Synthetic training trace])

constexpr int kSteps = 200;
constexpr int64_t kLayers = 12, kHidden = 768, kHeads = 12, kBatch = 8, kVocab = 8192;
constexpr int64_t kMaxSeq = 512;
constexpr int64_t kF = 4;  // bytes per float32

/// Writes alloc/free_requested entries of device 0 with fresh addresses.
class TraceWriter {
 public:
  struct Buf {
    uint64_t addr;
    int64_t bytes;
  };
  Buf alloc(int64_t bytes) {
    Buf b{next_addr_, bytes};
    next_addr_ += 4096;
    push("alloc", b);
    return b;
  }
  void free(const Buf& b) { push("free_requested", b); }
  std::vector<memory::SnapshotTraceEntry> entries;

 private:
  void push(const char* action, const Buf& b) {
    memory::SnapshotTraceEntry e;
    e.action = action;
    e.addr = b.addr;
    e.size = b.bytes;
    entries.push_back(std::move(e));
  }
  uint64_t next_addr_ = uint64_t{1} << 40;
};

/// One parameter and its gradient and Adam state.
struct Param {
  int64_t bytes;
  TraceWriter::Buf weight{}, grad{}, exp_avg{}, exp_avg_sq{};
  bool has_state = false;
};

memory::Snapshot training_trace() {
  TraceWriter w;
  const int64_t H = kHidden, B = kBatch;
  // Parameters: token and position embeddings, per layer (ln1 w/b, qkv W/b, proj W/b,
  // ln2 w/b, fc1 W/b, fc2 W/b), final layer norm, lm head.
  std::vector<Param> params;
  auto add_param = [&](int64_t n) { params.push_back(Param{n * kF}); };
  add_param(kVocab * H);
  add_param(kMaxSeq * H);
  for (int64_t l = 0; l < kLayers; ++l) {
    for (int64_t n : {H, H, H * 3 * H, 3 * H, H * H, H, H, H, H * 4 * H, 4 * H, 4 * H * H, H}) {
      add_param(n);
    }
  }
  add_param(H);
  add_param(H);
  add_param(kVocab * H);
  for (Param& p : params) p.weight = w.alloc(p.bytes);

  uint32_t rng = 12345;
  for (int step = 0; step < kSteps; ++step) {
    rng = rng * 1664525u + 1013904223u;
    const int64_t S = 128 + 32 * static_cast<int64_t>((rng >> 16) % 13);  // 128..512
    const int64_t act = B * S * H * kF, act4 = 4 * act, scores = B * kHeads * S * S * kF;
    const int64_t stats = B * S * kF, mask = B * S * H;  // layer norm mean/rstd; dropout (bool)

    // Forward: what each layer saves for backward.
    struct Saved {
      TraceWriter::Buf ln1, ln1_mean, ln1_rstd, qkv, probs, attn_mask, attn, x1, ln2, ln2_mean,
          ln2_rstd, fc1, gelu, mlp_mask;
    };
    std::vector<Saved> saved(static_cast<size_t>(kLayers));
    TraceWriter::Buf x = w.alloc(act);  // embeddings
    std::vector<TraceWriter::Buf> residuals{x};
    for (Saved& s : saved) {
      s.ln1 = w.alloc(act);
      s.ln1_mean = w.alloc(stats);
      s.ln1_rstd = w.alloc(stats);
      s.qkv = w.alloc(3 * act);
      TraceWriter::Buf sc = w.alloc(scores);
      s.probs = w.alloc(scores);
      w.free(sc);
      s.attn_mask = w.alloc(scores / kF);
      s.attn = w.alloc(act);
      TraceWriter::Buf proj = w.alloc(act);
      s.x1 = w.alloc(act);
      w.free(proj);
      s.ln2 = w.alloc(act);
      s.ln2_mean = w.alloc(stats);
      s.ln2_rstd = w.alloc(stats);
      s.fc1 = w.alloc(act4);
      s.gelu = w.alloc(act4);
      TraceWriter::Buf fc2 = w.alloc(act);
      s.mlp_mask = w.alloc(mask);
      x = w.alloc(act);
      w.free(fc2);
      residuals.push_back(x);
    }
    TraceWriter::Buf lnf = w.alloc(act);
    TraceWriter::Buf logits = w.alloc(B * S * kVocab * kF);
    TraceWriter::Buf loss = w.alloc(kF);

    // Backward, in reverse. Gradients of parameters appear as their layer is reached.
    size_t next_param = params.size();
    auto grad_of_next_params = [&](int n) {
      for (int i = 0; i < n; ++i) {
        Param& p = params[--next_param];
        p.grad = w.alloc(p.bytes);
      }
    };
    TraceWriter::Buf g_logits = w.alloc(logits.bytes);
    w.free(loss);
    w.free(logits);
    grad_of_next_params(1);  // lm head
    TraceWriter::Buf g = w.alloc(act);
    w.free(g_logits);
    grad_of_next_params(2);  // final layer norm
    TraceWriter::Buf g_in = w.alloc(act);
    w.free(g);
    w.free(lnf);
    g = g_in;
    for (auto s = saved.rbegin(); s != saved.rend(); ++s) {
      // MLP
      TraceWriter::Buf g_gelu = w.alloc(act4);
      w.free(s->mlp_mask);
      TraceWriter::Buf g_fc1 = w.alloc(act4);
      w.free(g_gelu);
      w.free(s->gelu);
      grad_of_next_params(4);  // fc2 b, fc2 W, fc1 b, fc1 W
      TraceWriter::Buf g_ln2 = w.alloc(act);
      w.free(g_fc1);
      w.free(s->fc1);
      grad_of_next_params(2);  // ln2 b, ln2 w
      TraceWriter::Buf g_x1 = w.alloc(act);
      w.free(g_ln2);
      w.free(s->ln2);
      w.free(s->ln2_mean);
      w.free(s->ln2_rstd);
      w.free(g);
      w.free(residuals.back());
      residuals.pop_back();
      // Attention
      TraceWriter::Buf g_attn = w.alloc(act);
      grad_of_next_params(2);  // proj b, proj W
      TraceWriter::Buf g_probs = w.alloc(s->probs.bytes);
      w.free(s->attn_mask);
      w.free(s->attn);
      TraceWriter::Buf g_scores = w.alloc(s->probs.bytes);
      w.free(g_probs);
      w.free(s->probs);
      TraceWriter::Buf g_qkv = w.alloc(s->qkv.bytes);
      w.free(g_scores);
      w.free(g_attn);
      w.free(s->qkv);
      grad_of_next_params(2);  // qkv b, qkv W
      TraceWriter::Buf g_ln1 = w.alloc(act);
      w.free(g_qkv);
      w.free(s->ln1);
      w.free(s->ln1_mean);
      w.free(s->ln1_rstd);
      grad_of_next_params(2);  // ln1 b, ln1 w
      g = w.alloc(act);
      w.free(g_ln1);
      w.free(g_x1);
      w.free(s->x1);
    }
    grad_of_next_params(2);  // position and token embeddings
    w.free(g);
    w.free(residuals.back());

    // Adam: state at the first step, one temporary per parameter, then zero_grad(None).
    for (Param& p : params) {
      if (!p.has_state) {
        p.exp_avg = w.alloc(p.bytes);
        p.exp_avg_sq = w.alloc(p.bytes);
        p.has_state = true;
      }
      TraceWriter::Buf tmp = w.alloc(p.bytes);
      w.free(tmp);
    }
    for (Param& p : params) w.free(p.grad);
  }

  memory::Snapshot snapshot;
  snapshot.device_traces.push_back(std::move(w.entries));
  return snapshot;
}

const memory::Snapshot& cached_training_trace() {
  static const memory::Snapshot snapshot = training_trace();
  return snapshot;
}

void replay_training_trace(benchmark::State& state, const std::string& spec) {
  const memory::Snapshot& trace = cached_training_trace();
  const AllocatorConfig config = AllocatorConfig::parse(spec);
  memory::DeviceReplay r;
  for (auto _ : state) {
    memory::ReplayResult result =
        memory::replay_snapshot(trace, config, "synthetic training trace");
    r = result.devices.at(0);
  }
  constexpr double kMiB = 1024.0 * 1024.0;
  state.counters["reserved/allocated"] =
      static_cast<double>(r.peak_reserved) / static_cast<double>(r.peak_allocated);
  state.counters["peak_allocated_MiB"] = static_cast<double>(r.peak_allocated) / kMiB;
  state.counters["peak_reserved_MiB"] = static_cast<double>(r.peak_reserved) / kMiB;
  state.counters["events"] = static_cast<double>(r.allocations + r.frees);
  state.counters["ns_per_event"] = benchmark::Counter(
      static_cast<double>(r.allocations + r.frees) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void register_cases() {
  benchmark::RegisterBenchmark("pair_allocator_1_thread", pair_allocator_1_thread);
  benchmark::RegisterBenchmark("pair_allocator_2_threads_same_device",
                               pair_allocator_2_threads_same_device)
      ->Threads(2)
      ->UseRealTime();
  benchmark::RegisterBenchmark("pair_allocator_2_threads_own_device",
                               pair_allocator_2_threads_own_device)
      ->Threads(2)
      ->UseRealTime();
  benchmark::RegisterBenchmark("pair_empty_1_thread", pair_empty_1_thread);
  benchmark::RegisterBenchmark("pair_empty_2_threads_same_device", pair_empty_2_threads_same_device)
      ->Threads(2)
      ->UseRealTime();
  benchmark::RegisterBenchmark("pair_empty_2_threads_own_device", pair_empty_2_threads_own_device)
      ->Threads(2)
      ->UseRealTime();
  for (const char* spec : {"", "max_split_size_mb:64", "roundup_power2_divisions:4"}) {
    std::string name = std::string("replay_training_trace/") + (*spec ? spec : "default");
    benchmark::RegisterBenchmark(name.c_str(), replay_training_trace, std::string(spec))
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything touches the cuda backend: it is chosen once per process.
  tide::testing::set_sim_devices_for_testing(2);
  register_cases();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
