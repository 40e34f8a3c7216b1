#pragma once
// Copy units: moving elements as raw bits in the widest word their alignment allows.

#include <cuda_runtime.h>

#include <cstdint>
#include <initializer_list>

#include "tide/dtype.h"

namespace tide::kernels::cuda {

/// Note [Copy units]: kernels that move elements without converting them (index_select, cat
/// of contiguous inputs of the output's dtype) copy units of 16, 8, 4, 2 or 1 bytes: the
/// widest that divides every base address, row length and row offset (in bytes) they use. A
/// float32 row whose length is a multiple of 4 then moves as 128-bit loads and stores, and one
/// kernel per unit serves every dtype.
inline int copy_unit(std::initializer_list<uint64_t> byte_quantities) {
  uint64_t bits = 16;
  for (uint64_t q : byte_quantities) bits |= q;
  return static_cast<int>(bits & (~bits + 1));  // the lowest set bit: a power of two <= 16
}

/// Calls f(TypeTag<U>{}) with the unsigned word type of `unit` bytes.
template <class F>
void dispatch_copy_unit(int unit, F&& f) {
  switch (unit) {
    case 16: return f(TypeTag<uint4>{});
    case 8: return f(TypeTag<uint2>{});
    case 4: return f(TypeTag<uint32_t>{});
    case 2: return f(TypeTag<uint16_t>{});
    default: return f(TypeTag<uint8_t>{});
  }
}

}  // namespace tide::kernels::cuda
