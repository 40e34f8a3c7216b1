#pragma once
// torch.backends.cudnn's switches, in C++: how convolutions on real GPUs choose cuDNN's
// algorithms. cpu and simulated GPUs ignore them (they run oneDNN or the cpu loops).

namespace tide::backends::cudnn {

/// Whether this build has cuDNN (its convolutions on real GPUs).
bool is_available();
/// The cuDNN version this build was compiled with (e.g. 91900), or -1 without cuDNN.
int version();

/// benchmark: time cuDNN's algorithms once per convolution shape and keep the fastest (a
/// cache per shape, dtype and device); off (the default): cuDNN's heuristic choice.
bool benchmark();
void set_benchmark(bool on);
/// deterministic: only algorithms that give the same bits on every run (default off).
bool deterministic();
void set_deterministic(bool on);
/// allow_tf32: float32 convolutions may use TF32 tensor cores (default on, as torch's).
bool allow_tf32();
void set_allow_tf32(bool on);

}  // namespace tide::backends::cudnn
