// Built when nvcc is absent (TIDE_CUDA=OFF or not found): the CUDA backend reports itself as
// not compiled, so callers get a clear error instead of a link failure (see MLX's no_gpu/).

#include "backends/cuda_backend_info.h"

namespace tide::backends {

bool cuda_backend_compiled() { return false; }
int cuda_functor_instantiations() { return 0; }

}  // namespace tide::backends
