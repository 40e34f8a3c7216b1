// tide::set_float32_matmul_precision and its getter (torch.set_float32_matmul_precision).

#include "core/matmul_precision.h"

#include <atomic>
#include <string>

#include "tide/error.h"
#include "tide/ops.h"

namespace tide {
namespace detail {
namespace {

// Process-wide, as torch's: a setting made on one thread holds for products launched from
// every thread. Relaxed: it orders nothing else, and a product launched concurrently with a
// change may use either value.
std::atomic<Float32MatmulPrecision> g_precision{Float32MatmulPrecision::Highest};

}  // namespace

Float32MatmulPrecision float32_matmul_precision() {
  return g_precision.load(std::memory_order_relaxed);
}

}  // namespace detail

void set_float32_matmul_precision(const std::string& precision) {
  using detail::Float32MatmulPrecision;
  Float32MatmulPrecision value;
  if (precision == "highest") {
    value = Float32MatmulPrecision::Highest;
  } else if (precision == "high") {
    value = Float32MatmulPrecision::High;
  } else if (precision == "medium") {
    value = Float32MatmulPrecision::Medium;
  } else {
    // torch warns and ignores the value; tide raises so a typo cannot pass unnoticed.
    throw Error(detail::concat("[set_float32_matmul_precision] ", precision,
                               " is not one of 'highest', 'high', or 'medium'; the setting is "
                               "unchanged"));
  }
  detail::g_precision.store(value, std::memory_order_relaxed);
}

std::string get_float32_matmul_precision() {
  switch (detail::float32_matmul_precision()) {
    case detail::Float32MatmulPrecision::Highest: return "highest";
    case detail::Float32MatmulPrecision::High: return "high";
    case detail::Float32MatmulPrecision::Medium: return "medium";
  }
  return "highest";
}

}  // namespace tide
