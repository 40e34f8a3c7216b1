#pragma once
// torch.cuda's device arguments: None (the current device), an int, a tide.device or a string
// such as "cuda:1", as the cuda device index tide::cuda takes (-1: the current device).

#include <nanobind/nanobind.h>

namespace tide::python {

int cuda_device_index(nanobind::handle device);

/// Binds fn(int device, rest...) as fn(device=None, rest...).
template <class R, class... Rest>
auto with_device(R (*fn)(int, Rest...)) {
  return [fn](nanobind::handle device, Rest... rest) { return fn(cuda_device_index(device), rest...); };
}

}  // namespace tide::python
