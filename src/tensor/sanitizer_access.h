#pragma once
// LaunchAccesses: the byte ranges an op's tensors cover, declared to the stream sanitizer.

#include <optional>
#include <vector>

#include "runtime/sanitizer.h"
#include "tide/cuda/stream.h"
#include "tide/tensor.h"

namespace tide::detail {

/// What one launch (or one piece of host code) reads and writes, built only while the
/// sanitizer is on (Note [Stream sanitizer] in runtime/sanitizer.h). A tensor contributes the
/// extent of its view — from its lowest to its highest element, whatever the strides — in
/// device memory or pinned host memory; undefined and empty tensors, and pageable host
/// memory, contribute nothing.
class LaunchAccesses {
 public:
  void add(const Tensor& t, bool write);
  void add(const std::vector<Tensor>& ts, bool write) {
    for (const Tensor& t : ts) add(t, write);
  }
  void add(const std::optional<Tensor>& t, bool write) {
    if (t) add(*t, write);
  }
  /// Arguments that are not tensors touch no memory.
  template <class T>
  void add(const T&, bool) {}

  /// Checks and records the accesses as a launch of `op` on `stream`, or checks them as
  /// host code when `stream` is nullptr; raises StreamRaceError on a race.
  void declare(const cuda::Stream* stream, const char* op) const;

 private:
  std::vector<runtime::MemoryAccess> list_;
};

/// Declares a copy on `stream` that writes `dst` and reads `src` (no-op while off).
inline void sanitize_copy(const cuda::Stream& stream, const Tensor& dst, const Tensor& src) {
  if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) {
    LaunchAccesses accesses;
    accesses.add(dst, true);
    accesses.add(src, false);
    accesses.declare(&stream, "copy_");
  }
}

/// Declares that host code `op` reads `t` now (item(), tolist(); no-op while off).
inline void sanitize_host_read(const char* op, const Tensor& t) {
  if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) {
    LaunchAccesses accesses;
    accesses.add(t, false);
    accesses.declare(nullptr, op);
  }
}

}  // namespace tide::detail
