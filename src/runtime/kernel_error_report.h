#pragma once
// The one thing cpu kernel code needs of the runtime's error channel: reporting bad input it
// skipped (Note [Index errors in kernels]). Kernels include this, never error_channel.h.

#include <string>

namespace tide::runtime {

/// For kernel code: records a failure of the task running on this thread and returns, so the
/// kernel can skip the bad access and finish (Note [Index errors in kernels]). The first
/// failure of a task is kept. Outside a task (work executed inline, as on cpu) it throws
/// tide::KernelError at once.
void record_kernel_error(const std::string& message);

}  // namespace tide::runtime
