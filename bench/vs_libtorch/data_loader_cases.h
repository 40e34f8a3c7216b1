#pragma once
// The data pipeline against libtorch's C++ frontend: one batch of a shuffled in-memory dataset,
// registered as "<case>/tide" and "<case>/libtorch" pairs (Note [DataLoader benchmarks]).

namespace tide::bench {

/// Registers data_loader_w0 and data_loader_w2 (0 and 2 worker threads) for both libraries.
void register_data_loader_cases();

}  // namespace tide::bench
