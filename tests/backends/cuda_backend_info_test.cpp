// What the CUDA backend directory contributed to this build (Note [CUDA functor check]).

#include "backends/cuda_backend_info.h"

#include <gtest/gtest.h>

#include "tide/detail/build_config.h"

using namespace tide;

TEST(CudaBackendInfo, IsCompiledExactlyWhenTheBuildHasNvcc) {
  EXPECT_EQ(backends::cuda_backend_compiled(), TIDE_BUILT_WITH_CUDA == 1);
}

TEST(CudaBackendInfo, CountsFunctorInstantiationsOnlyWhenNvccBuiltThem) {
  const int n = backends::cuda_functor_instantiations();
  if (backends::cuda_backend_compiled()) {
    // Every element, reduction, random and index-check kernel for every dtype it serves: far
    // more than one per dtype.
    EXPECT_GT(n, 8);
  } else {
    EXPECT_EQ(n, 0);
  }
  EXPECT_EQ(backends::cuda_functor_instantiations(), n);  // counted once, stable
}
