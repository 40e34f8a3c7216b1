#pragma once
// `tide train`'s loop against the same loop written with libtorch's C++ frontend.

namespace tide::bench {

/// Registers train_epoch_64/tide and train_epoch_64/libtorch.
void register_train_loop_cases();

}  // namespace tide::bench
