#pragma once
// tide::cuda: devices, streams and events, identical on real and simulated GPUs (API.md).

#include "tide/cuda/device.h"        // IWYU pragma: export
#include "tide/cuda/device_guard.h"  // IWYU pragma: export
#include "tide/cuda/event.h"         // IWYU pragma: export
#include "tide/cuda/host_memory.h"   // IWYU pragma: export
#include "tide/cuda/memory.h"        // IWYU pragma: export
#include "tide/cuda/memory_history.h"  // IWYU pragma: export
#include "tide/cuda/sanitizer.h"     // IWYU pragma: export
#include "tide/cuda/stream.h"        // IWYU pragma: export
#include "tide/cuda/stream_guard.h"  // IWYU pragma: export
