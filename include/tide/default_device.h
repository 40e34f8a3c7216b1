#pragma once
// The default device for factories (torch.set_default_device / torch.get_default_device).

#include "tide/device.h"

namespace tide {

// Note [Default device]: factories called without a device (empty, zeros, ones, full, arange,
// linspace, rand, randn, randint, tensor, scalar_tensor) allocate on the default device, as
// torch.set_default_device makes them; a device given in TensorOptions always wins. It does not
// apply to `*_like`, `new_*`, `Tensor::to` or `from_blob` (the caller's memory is where its
// pointer is), nor to a pinned_memory(true) request without a device, which stays on the cpu
// (pinning only means something for host memory).
//
// It is per thread, as torch's: torch.set_default_device enters a device context kept in a
// threading.local, so other threads keep allocating on the cpu. tide follows it because the
// current device and stream are per thread too (DESIGN.md decision 2) and because worker
// threads (DataLoader, DataParallel) must not start allocating on a GPU because the main
// thread chose one. Set it in each thread that should use it.
//
// A cuda default device without an index ("cuda") means the current device at the time of
// each factory call, as an explicit "cuda" does.

/// Makes factories called without a device on this thread allocate on `device`.
void set_default_device(Device device);
/// This thread's default device, as torch: "cuda" without an index reads as the current
/// device ("cuda:0"); cpu until set_default_device changes it.
Device get_default_device();

namespace detail {
/// This thread's default device as it was set ("cuda" stays "cuda"); what TensorOptions::device()
/// returns when no device was given.
Device thread_default_device();
}  // namespace detail

}  // namespace tide
