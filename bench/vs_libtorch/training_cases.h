#pragma once
// Training against libtorch's C++ frontend: one SGD step of an MLP and the backward of a
// chain of tiny ops, registered as "<case>/tide" and "<case>/libtorch" pairs.

namespace tide::bench {

/// Registers mlp_step_64, mlp_step_1024 and autograd_chain_100 for both libraries.
void register_training_cases();

}  // namespace tide::bench
