// What the CUDA backend directory contributed to this build, and the kernel stubs it fills
// (Note [Kernel stubs]).

#include "backends/cuda_backend_info.h"

#include <gtest/gtest.h>

#include "kernels/stubs.h"
#include "tide/detail/build_config.h"

using namespace tide;

TEST(CudaBackendInfo, IsCompiledExactlyWhenTheBuildHasNvcc) {
  EXPECT_EQ(backends::cuda_backend_compiled(), TIDE_BUILT_WITH_CUDA == 1);
}

TEST(CudaBackendInfo, EveryOpHasAGpuLauncherOnceRegisteredInBuildsWithNvcc) {
  // Registration only fills function pointers (no driver call), so it can run without a GPU;
  // ops still take the simulated or cpu path because no real backend started.
  backends::register_cuda_kernels();
  const std::vector<kernels::StubInfo> stubs = kernels::all_stubs();
  EXPECT_GE(stubs.size(), 20u);
  for (const kernels::StubInfo& s : stubs) {
    EXPECT_EQ(s.has_cuda, backends::cuda_backend_compiled()) << s.name;
  }
}
