#pragma once
// The op entry: the one test every generated op front end starts with.
//
// Note [Op entry]: an op can be asked to do more than its plain work — record itself for
// autograd today; apply autocast's dtype policy, report to the profiler, be captured in a
// graph, tell the stream sanitizer, in later issues. Each such mode is one bit of a
// thread-local mode word, `op_mode_word`, which GradMode and the later modes' guards set. Every
// front end that scripts/gen_ops.py writes from the op table (src/ops/generated_front_ends.cpp)
// starts with
//
//   if (TIDE_UNLIKELY(detail::op_intercepted(self, other))) return autograd::traced::add(...);
//
// and op_intercepted is the only place that decides what a mode costs. The cost rule of Note
// [Autograd hooks] holds: on the plain path — no operand has autograd metadata, no every-op
// mode set — it is one predictable branch over the operands' metadata pointers. Modes come in
// two kinds:
//   * operand modes (grad recording): matter only when an operand has autograd metadata, so
//     the word is read only then, and a plain op reads no thread-local at all;
//   * every-op modes (autocast, profiler, capture: kEveryOpModes, none yet): matter for every
//     op, so once one exists the plain path also reads the word — one load and a test of a
//     thread-local in the initial-exec model, no call.
// The slow path is per op and written by the generator: today the recording shell
// (autograd::traced::<op>, which runs the same front end with grad mode off and records the
// node); a later mode adds its step to the shells, not to 80 hand-written front ends. The
// front ends pass the op's real name ("sigmoid", "Tensor::add_", "add_out") to their plan,
// which hands it to run_kernel: errors, stream provenance and the sanitizer name the op.

#include <cstdint>
#include <vector>

#include "tide/macros.h"
#include "tide/tensor.h"

namespace tide::detail {

/// The bits of the mode word.
enum OpMode : uint32_t {
  /// GradMode::is_enabled(): ops whose operands have autograd metadata record themselves.
  kGradRecordingMode = 1u << 0,
};
/// The modes under which every op leaves the plain path, whatever its operands (autocast, the
/// profiler, graph capture: later issues). Zero, so the plain path reads no thread-local yet.
inline constexpr uint32_t kEveryOpModes = 0;

/// This thread's modes (Note [Op entry]); grad recording is on by default, as torch's grad mode.
/// initial-exec: one load relative to the thread pointer, with no call, from the shared library.
extern constinit thread_local uint32_t op_mode_word __attribute__((tls_model("initial-exec")));

/// Sets or clears one mode bit on this thread.
inline void set_op_mode(OpMode mode, bool on) {
  op_mode_word = on ? (op_mode_word | mode) : (op_mode_word & ~static_cast<uint32_t>(mode));
}

/// Whether autograd must look at `t`: it has metadata, or it is a view of a tensor that has
/// (whose history the view may have to replay, Note [Views and in-place ops]). Reads only
/// TensorImpl pointers (Note [Autograd metadata]).
inline bool has_autograd_meta(const Tensor& t) {
  const TensorImpl* impl = t.impl();
  if (impl == nullptr) return false;
  if (impl->autograd != nullptr) return true;
  const TensorImpl* base = impl->view_base.get();
  return base != nullptr && base->autograd != nullptr;
}

/// Whether autograd must look at any tensor of a list operand (cat's `Tensor[] tensors`).
inline bool has_autograd_meta(const std::vector<Tensor>& list) {
  for (const Tensor& t : list) {
    if (has_autograd_meta(t)) return true;
  }
  return false;
}

/// Whether an op with these tensor operands must leave the plain path (Note [Op entry]).
template <class... T>
TIDE_FORCE_INLINE bool op_intercepted(const T&... operands) {
  if constexpr (kEveryOpModes != 0) {
    if (op_mode_word & kEveryOpModes) return true;
  }
  return (has_autograd_meta(operands) || ...) && (op_mode_word & kGradRecordingMode) != 0;
}

}  // namespace tide::detail
