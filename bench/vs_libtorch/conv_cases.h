#pragma once
// Convolutions against libtorch's C++ frontend (Note [Convolution benchmarks] in
// conv_cases.cpp), registered as "<case>/tide" and "<case>/libtorch" pairs.

namespace tide::bench {

/// Registers conv_layer_64 and cnn_step_64 for both libraries.
void register_conv_cases();

}  // namespace tide::bench
