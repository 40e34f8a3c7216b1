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
  s += "compiler=" TIDE_COMPILER "\n";
  return s;
}

}  // namespace tide
