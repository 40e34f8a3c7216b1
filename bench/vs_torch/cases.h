#pragma once
// The cases of tide_vs_torch_gpu_bench: the sizes every side shares and each side's
// registration. Each side registers "<Case>/<side>" (side: tide, torch, raw) so a report can
// pair them by case name.
//
// Note [GPU bench timing]: three ways of timing, each used identically by every side of a case.
// - Device time (Add, Sum, Matmul): CUDA events recorded on the stream the library launches on,
//   around one op per iteration, reported through UseManualTime; host overhead is excluded.
// - Host throughput (TinyAdd, MallocFreePair): wall clock. TinyAdd runs batches of
//   kTinyBatch ops and waits for the stream at the end of each batch (KeepRunningBatch), so
//   the time per iteration is per op with the wait amortized: whichever of the host's enqueue
//   and the GPU's execution is slower sets it.
// - Copies and overlap: wall clock, waiting for the stream inside every iteration, so host-side
//   staging (pageable memory) counts as well as the DMA.

#include <cstdint>

namespace tide::bench::gpu {

inline constexpr int64_t kBigNumel = int64_t{1} << 28;     // AddF32_2^28, SumF32_2^28: 1 GiB each
inline constexpr int64_t kMatmulSize = 8192;               // MatmulF32_8192, MatmulBF16_8192
inline constexpr int64_t kCopyBytes = int64_t{256} << 20;  // Copy*: 256 MiB
inline constexpr int64_t kPairNumel = 256;                 // MallocFreePair: 1 KiB of float32
inline constexpr int64_t kOverlapNumel = int64_t{1} << 26; // Overlap's compute: adds of 256 MiB
inline constexpr int kTinyBatch = 1000;                    // TinyAdd ops between stream waits

void register_tide_cases();
void register_tide_train_cases();  // MlpStep_B (mlp_step.h)
void register_raw_cases();
/// Only in builds against libtorch with CUDA (TIDE_BENCH_WITH_TORCH, or the torch side of
/// Note [Two processes]).
void register_torch_cases();
void register_torch_train_cases();
/// Whether libtorch sees a CUDA device (false, with `why` set, when it does not).
bool torch_cuda_ready(const char** why);

}  // namespace tide::bench::gpu
