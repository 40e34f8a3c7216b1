#pragma once
// What the CUDA backend directory contributed to this build (no CUDA headers here).

namespace tide::backends {

/// Whether src/backends/cuda was compiled by nvcc into this library.
bool cuda_backend_compiled();
/// How many (functor, dtype) pairs the CUDA stub instantiated as device code; 0 without nvcc.
int cuda_functor_instantiations();

}  // namespace tide::backends
