#pragma once
// `tide train`'s loop against the same loop written with libtorch's C++ frontend.

namespace tide::bench {

/// Registers train_epoch_64 and train_epoch_64_w0, each for tide and libtorch.
void register_train_loop_cases();

}  // namespace tide::bench
