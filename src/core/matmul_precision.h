#pragma once
// The float32 matmul precision setting (tide::set_float32_matmul_precision), as GPU launchers
// read it: one relaxed atomic load per product, no string.

namespace tide::detail {

enum class Float32MatmulPrecision { Highest, High, Medium };

/// The current setting; "medium" means TF32 on GPUs exactly as "high" does (torch allows
/// bf16 there, but its cuBLAS path, too, only distinguishes "highest" from the rest).
Float32MatmulPrecision float32_matmul_precision();

/// Whether float32 products may use TF32 tensor cores.
inline bool float32_matmul_allows_tf32() {
  return float32_matmul_precision() != Float32MatmulPrecision::Highest;
}

}  // namespace tide::detail
