#pragma once
// The synthetic training trace both allocator benchmarks replay (bench/allocator_bench.cpp,
// bench/vs_torch), as a memory::Snapshot of device 0's alloc / free_requested entries.
//
// Note [Synthetic training trace]: a GPT-style model of kLayers transformer layers, its
// weights allocated once before the trace, trained for kSteps steps whose sequence length
// changes every step (as with unpadded batches): the forward pass allocates each layer's
// saved activations and frees its temporaries, the backward pass frees the activations in
// reverse as it allocates activation and weight gradients, Adam allocates its state at the
// first step and a temporary per parameter every step, and zero_grad(set_to_none) frees the
// gradients. Sizes run from 512 B (the loss) through layer norm parameters (small pool) to
// attention scores of 96 MiB and logits of 128 MiB.

#include <cstdint>
#include <utility>
#include <vector>

#include "memory/snapshot.h"

namespace tide::bench {

namespace training_trace_detail {

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

}  // namespace training_trace_detail

inline memory::Snapshot training_trace() {
  using namespace training_trace_detail;
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

}  // namespace tide::bench
