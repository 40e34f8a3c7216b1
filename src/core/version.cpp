#include "tide/version.h"

#include "tide/detail/build_config.h"

namespace tide {

std::string version() { return TIDE_VERSION_STRING; }

std::string build_info() {
  std::string s;
  s += "version=" TIDE_VERSION_STRING "\n";
  s += "build_type=" TIDE_BUILD_TYPE "\n";
  s += std::string("cuda_backend=") + (TIDE_BUILT_WITH_CUDA ? "compiled" : "not compiled") + "\n";
  s += std::string("openmp=") + (TIDE_BUILT_WITH_OPENMP ? "on" : "off") + "\n";
  s += "blas=" TIDE_BLAS_NAME "\n";
  s += std::string("onednn=") +
       (TIDE_BUILT_WITH_ONEDNN ? "on (float32 convolutions on the cpu)"
                               : "off (cpu convolutions on tide's direct loops)") +
       "\n";
  s += std::string("cudnn=") +
       (TIDE_BUILT_WITH_CUDNN ? std::to_string(TIDE_CUDNN_VERSION) + " (convolutions on real GPUs)"
                              : std::string("not found (real GPUs have no convolution kernel)")) +
       "\n";
  s += "compiler=" TIDE_COMPILER "\n";
  return s;
}

}  // namespace tide
