#include "tide/default_dtype.h"

#include <atomic>

#include "tide/error.h"

namespace tide {
namespace {

// Relaxed: it orders nothing else; set it before the work that depends on it starts.
std::atomic<Dtype> g_default_dtype{kFloat32};

}  // namespace

void set_default_dtype(Dtype dtype) {
  TIDE_CHECK(is_floating_point(dtype), "[set_default_dtype] only floating-point types are "
             "supported as the default type, but got ", name(dtype),
             "; pass tide::kFloat32, tide::kFloat64, tide::kFloat16 or tide::kBFloat16");
  g_default_dtype.store(dtype, std::memory_order_relaxed);
}

Dtype get_default_dtype() { return g_default_dtype.load(std::memory_order_relaxed); }

}  // namespace tide
